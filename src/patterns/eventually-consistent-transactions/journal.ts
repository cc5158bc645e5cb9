import { odata } from "../../filter/index.js";
import { isTableKitError, TableKitError } from "../../model/index.js";
import type { OperationOptions, Table } from "../../store/index.js";

/** The journal row of a transaction: how far its steps got, and what later writers left for it. */
export interface JournalEntry {
  /** Steps recorded as done (0..steps): at least these ran. A crash can leave it behind. */
  readonly done: number;
  readonly completed: boolean;
  /** Discarded from the poison queue: it will not run again (its marks may go, as a completed one's). */
  readonly discarded: boolean;
  /** The last failure of a delivery, `code: message`. */
  readonly lastError?: string;
  /** What handler steps remembered, by step index. */
  readonly remembered: Readonly<Record<string, readonly string[]>>;
  /**
   * Steps whose effect a later tablekit write deleted, by step index: the lineage the deleted
   * version carried. A redelivery counts them as done (their evidence left with the entity).
   */
  readonly deleted: Readonly<Record<string, string>>;
  /** Deletes without an ETag begun, by step index: the lineage of the version they read. */
  readonly deleting: Readonly<Record<string, string>>;
  /** The row's ETag (undefined: no row). */
  readonly etag?: string;
}

const ROW = "tx";
/** What `read` returns for a transaction without a row. */
export const NO_ROW: JournalEntry = {
  done: 0,
  completed: false,
  discarded: false,
  remembered: {},
  deleted: {},
  deleting: {},
};
/** Longest error text a journal row or poison record keeps. */
export const MAX_ERROR_TEXT = 1000;
/** Compare-and-swap rounds of a journal row before giving up (its writers are few: one transaction's). */
const CAS_ATTEMPTS = 20;

/** The error of a failed delivery as a short line. */
export function errorText(err: unknown): string {
  const text = isTableKitError(err)
    ? `${err.code}: ${err.message}`
    : err instanceof Error
      ? err.message
      : String(err);
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT - 1)}…` : text;
}

function jsonRecord<V>(value: unknown): Record<string, V> {
  return typeof value === "string" ? (JSON.parse(value) as Record<string, V>) : {};
}

/**
 * Progress records of transactions, one entity per transaction (PartitionKey = its id, so the
 * journal spreads over partitions). Progress is written with merges that only add; the record of
 * completion and the evidence later writers leave are compare-and-swap writes on the row's ETag,
 * so a delivery that completes learns of evidence written while it ran.
 */
export class TransactionJournal {
  constructor(readonly table: Table) {}

  async read(id: string, call: OperationOptions): Promise<JournalEntry> {
    try {
      const e = await this.table.getEntity(id, ROW, call);
      return {
        done: typeof e.done === "number" ? e.done : 0,
        completed: e.completed === true,
        discarded: e.discarded === true,
        ...(typeof e.lastError === "string" ? { lastError: e.lastError } : {}),
        remembered: jsonRecord(e.remembered),
        deleted: jsonRecord(e.deleted),
        deleting: jsonRecord(e.deleting),
        etag: e.etag,
      };
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return NO_ROW;
      throw err;
    }
  }

  /**
   * Records the transaction completed, only if its row is still the version `etag` names
   * (undefined: no row yet). False when the row changed meanwhile: read it again.
   */
  async complete(id: string, steps: number, etag: string | undefined, call: OperationOptions) {
    const row = { partitionKey: id, rowKey: ROW, done: steps, completed: true };
    try {
      if (etag === undefined) await this.table.createEntity(row, call);
      else await this.table.updateEntity(row, "Merge", { ...call, etag });
      return true;
    } catch (err) {
      if (isTableKitError(err, "EntityAlreadyExists", "UpdateConditionNotSatisfied", "ResourceNotFound"))
        return false;
      throw err;
    }
  }

  /** Records that at least `done` steps are done (a delivery that stops early). */
  async progress(id: string, done: number, call: OperationOptions): Promise<void> {
    await this.table.upsertEntity({ partitionKey: id, rowKey: ROW, done }, "Merge", call);
  }

  /** Makes sure the transaction has a row (a parked transaction keeps one: its marks are kept until it completes). */
  async keep(id: string, call: OperationOptions): Promise<void> {
    await this.table.upsertEntity({ partitionKey: id, rowKey: ROW }, "Merge", call);
  }

  /** Records that the transaction was discarded (it will not run again). */
  async discard(id: string, call: OperationOptions): Promise<void> {
    await this.table.upsertEntity({ partitionKey: id, rowKey: ROW, discarded: true }, "Merge", call);
  }

  async failed(id: string, err: unknown, call: OperationOptions): Promise<void> {
    await this.table.upsertEntity(
      { partitionKey: id, rowKey: ROW, lastError: errorText(err) },
      "Merge",
      call,
    );
  }

  /** Records what handler steps remembered; returns the row's new ETag. */
  async remember(
    id: string,
    remembered: JournalEntry["remembered"],
    call: OperationOptions,
  ): Promise<string> {
    const text = JSON.stringify(remembered);
    if (text.length > 30_000) {
      throw new TableKitError(
        "PropertyValueTooLarge",
        `Transaction ${id} remembers too much (${text.length} characters)`,
      );
    }
    return (await this.table.upsertEntity({ partitionKey: id, rowKey: ROW, remembered: text }, "Merge", call))
      .etag;
  }

  /**
   * Adds `step → lineage` to the row's `deleted` or `deleting` record (compare-and-swap, so two
   * writers never erase each other's), unless the transaction already completed (or, with
   * `onlyIfRow`, has no row). Returns the row's new ETag, or undefined when nothing was recorded.
   */
  async addEvidence(
    id: string,
    kind: "deleted" | "deleting",
    step: number,
    lineage: string,
    options: OperationOptions & { readonly onlyIfRow?: boolean },
  ): Promise<string | undefined> {
    const { onlyIfRow, ...call } = options;
    for (let attempt = 1; ; attempt++) {
      const entry = await this.read(id, call);
      if (entry.completed || (onlyIfRow && entry.etag === undefined)) return undefined;
      const record = { ...entry[kind], [String(step)]: lineage };
      const row = { partitionKey: id, rowKey: ROW, [kind]: JSON.stringify(record) };
      try {
        if (entry.etag === undefined) return (await this.table.createEntity(row, call)).etag;
        return (await this.table.updateEntity(row, "Merge", { ...call, etag: entry.etag })).etag;
      } catch (err) {
        if (!isTableKitError(err, "EntityAlreadyExists", "UpdateConditionNotSatisfied", "ResourceNotFound"))
          throw err;
        if (attempt >= CAS_ATTEMPTS)
          throw new TableKitError("ConcurrencyRetriesExhausted", `The journal row of ${id} kept changing`, {
            cause: err,
          });
      }
    }
  }

  /** Rows of finished transactions (completed or discarded) last written before `before`, in key order. */
  completedBefore(
    before: Date,
    call: OperationOptions,
  ): AsyncIterable<{ partitionKey?: string; rowKey?: string }> {
    const filter = `(completed eq true or discarded eq true) and ${odata`Timestamp lt ${before}`}`;
    return this.table.listEntities({ ...call, queryOptions: { filter, select: ["PartitionKey", "RowKey"] } });
  }

  async delete(id: string, call: OperationOptions): Promise<void> {
    try {
      await this.table.deleteEntity(id, ROW, call);
    } catch (err) {
      if (!isTableKitError(err, "ResourceNotFound")) throw err;
    }
  }
}
