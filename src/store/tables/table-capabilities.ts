import type { Limits } from "../../model/index.js";

/** What a backend can do, as data. Tests and patterns branch on these, never on a backend's name. */
export interface Capabilities {
  /** A display name ("embedded", "azure", "dynamodb"): for messages only, never for branching. */
  readonly backend: string;
  /** The rules the core enforces before a write reaches this backend. */
  readonly limits: Limits;
  /** How keys are ordered in results: by UTF-16 code units (Azure, embedded) or UTF-8 bytes (DynamoDB). */
  readonly keyOrder: "utf16" | "utf8";
  /** Data outlives the process (false for `memory:`). */
  readonly persistent: boolean;
  /** Several processes may open the same store at once, with exact optimistic concurrency. */
  readonly multiProcess: boolean;
  /** A query page never holds entities of two partitions. */
  readonly pageEndsAtPartitionBoundary: boolean;
  /** Known departures from the Azure documentation, each with a short id and an explanation. */
  readonly divergences: readonly { readonly id: string; readonly description: string }[];
}
