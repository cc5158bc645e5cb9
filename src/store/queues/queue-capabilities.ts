import type { QueueLimits } from "../../model/index.js";

/** What a queue backend does, as data. Tests and patterns branch on these, never on a backend's name. */
export interface QueueCapabilities {
  /** A display name ("embedded", "azure", "table-queue"): for messages only, never for branching. */
  readonly backend: string;
  readonly limits: QueueLimits;
  /** Messages outlive the process (false for `memory:`). */
  readonly persistent: boolean;
  /** Several processes may share the queue without two holding one message inside its visibility window. */
  readonly multiProcess: boolean;
  /**
   * A send that returned leaves exactly one copy of its message: nothing between the caller and the
   * queue repeats it (an SDK retrying a send whose answer was lost can leave two).
   */
  readonly sendsOnce: boolean;
  /**
   * Whose clock decides visibility and expiry: the service's, or each client's (the table-backed
   * queue; clock skew between consumers shortens visibility windows by the skew).
   */
  readonly clock: "service" | "client";
  /** Resolution of the times the backend reports (Azure: whole seconds, 1000; others 1 ms). */
  readonly timeResolutionMs: number;
  /**
   * The store keeps when each queue was deleted, so the option `deletedNameHold` can refuse a
   * create of a name deleted moments ago with QueueBeingDeleted (docs/queues.md).
   */
  readonly deletedNameHold: boolean;
  /** Known departures from the Azure documentation, each with a short id and an explanation. */
  readonly divergences: readonly { readonly id: string; readonly description: string }[];
}
