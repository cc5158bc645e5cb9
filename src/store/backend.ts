import type { BlobServiceBackend } from "./blobs/blob-backend.js";
import type { QueueServiceBackend } from "./queues/queue-backend.js";
import type { TableServiceBackend } from "./tables/table-backend.js";

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
  /**
   * Seconds a deleted queue's or container's name is refused by create (the store option
   * `deletedNameHold`, set by openStore; absent: 0). The core applies it (deleted-name-hold.ts).
   */
  readonly deletedNameHoldSeconds?: number;
  /** Releases clients, connections, files. The core calls it once, and no backend method after it. */
  close(): Promise<void>;
}

/**
 * What `openStore` loads for a URL scheme (a backend folder's `index.ts` exports one): how to open
 * the store from the text after the scheme and the scheme's options, and every option key the
 * scheme accepts, so that a misspelt key is InvalidInput at run time as it is a type error at
 * compile time. Adding an option = one property in the scheme's options type + its key here.
 */
export interface Backend<Options extends object> {
  /** Every key of `Options` (the compiler checks the list is complete and exact). */
  readonly optionKeys: { readonly [K in keyof Required<Options>]: true };
  open(location: string, options: Options): Promise<BackendStore>;
}
