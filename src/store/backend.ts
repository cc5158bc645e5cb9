import type { Limits } from "../model/index.js";
import type { BlobServiceBackend } from "./blob-backend.js";
import type { BlobStoreOptions } from "./blob-options.js";
import type { QueueServiceBackend } from "./queue-backend.js";
import type { TableServiceBackend } from "./table-backend.js";
import type { TableQueueOptions } from "./table-queue/connection.js";

/**
 * What a URL scheme opens: one backend per port the URL configures, plus `close()`. The core
 * (`Store`, `Table`, …) validates and normalizes every argument, owns the closed state and the
 * first abort check, and then calls exactly one raw backend method (docs/architecture.md).
 */
export interface BackendStore {
  /** The table port. */
  readonly tables: TableServiceBackend;
  /** The queue port, when the URL serves one of its own (absent: `openStore` chooses, docs/queues.md). */
  readonly queues?: QueueServiceBackend;
  /** The blob port (absent: `store.container()` is NotSupported). */
  readonly blobs?: BlobServiceBackend;
  /** Releases clients, connections, files. The core calls it once, and no backend method after it. */
  close(): Promise<void>;
}

/** Passed to every backend call: the caller's signal, already checked once by the core. */
export interface CallOptions {
  readonly abortSignal?: AbortSignal;
}

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

/**
 * What `openStore` loads for a URL scheme (a backend folder's `index.ts` exports one): how to open
 * the store from the text after the scheme and the scheme's options, and every option key the
 * scheme accepts, so that a misspelt key is InvalidInput at run time as it is a type error at
 * compile time. Adding an option = one property in the scheme's options type + its key here.
 */
export interface Backend<Options extends CommonStoreOptions> {
  /** Every key of `Options` (the compiler checks the list is complete and exact). */
  readonly optionKeys: { readonly [K in keyof Required<Options>]: true };
  open(location: string, options: Options): Promise<BackendStore>;
}
