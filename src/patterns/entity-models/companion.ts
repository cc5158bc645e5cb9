import type { OperationOptions, Table, TransactionAction } from "../../store/index.js";

type Values = Readonly<Record<string, unknown>>;

/** One write of a repository's entity, as a companion sees it before the transaction is sent. */
export interface CompanionWrite {
  readonly table: Table;
  readonly partitionKey: string;
  readonly rowKey: string;
  /** The entity as read (absent: a create). */
  readonly before?: Values;
  /** The entity as it will be written (absent: a delete). */
  readonly after?: Values;
  readonly call: OperationOptions;
}

/** What a companion adds to the entity's transaction. */
export interface CompanionPlan {
  /** Actions in the entity's partition, each conditional on what the companion read (an ETag, or create). */
  readonly actions: readonly TransactionAction[];
  /** The values to write instead of `after` (a companion that fills copied fields). */
  readonly after?: Values;
  /**
   * Run once the transaction has committed: a transaction cannot guard an entity's absence, so a
   * companion that found its related entity absent reads it again afterwards.
   */
  readonly settle?: () => Promise<void>;
  /** Run when the transaction fails (it is retried on fresh reads, or given up): undoes what `prepare` sent ahead. */
  readonly abandon?: () => Promise<void>;
}

/**
 * Entities kept in step with a repository's entity inside its partition, written in the same
 * entity group transaction: index entities, denormalized copies. `prepare` runs before every
 * attempt (reading what it guards afresh); a transaction that fails on one of its actions is retried.
 */
export interface Companion {
  prepare(write: CompanionWrite): Promise<CompanionPlan>;
}
