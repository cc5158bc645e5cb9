import type { Limits } from "../model/index.js";
import type { BlobStoreOptions } from "./backends/s3/connection.js";
import type { TableQueueOptions } from "./backends/table-queue/connection.js";

/** Options every scheme accepts (each scheme's options type extends this one). */
export interface CommonStoreOptions extends BlobStoreOptions {
  /** Override limits (tests use this to shrink the page time budget). */
  readonly limits?: Partial<Limits>;
  /**
   * Which queue port the store gets: `"native"` (the backend's own: embedded, Azure Queue Storage),
   * `"table"` (the table-backed queue, built on the store's tables), `"none"` (`store.queue()` is
   * NotSupported). Default: the backend's own when it has one, else the table-backed queue.
   */
  readonly queues?: "native" | "table" | "none";
  /** The table-backed queue's settings (docs/queues.md). */
  readonly tableQueue?: TableQueueOptions;
}
