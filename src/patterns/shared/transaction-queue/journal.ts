import { odata } from "../../../filter/index.js";
import { isTableKitError, TableKitError } from "../../../model/index.js";
import type { OperationOptions, Table } from "../../../store/index.js";

/** The journal row of a transaction: how far its steps got. */
export interface JournalEntry {
  /** Steps done and recorded (0..steps). */
  readonly done: number;
  readonly completed: boolean;
  /** The last failure of a delivery, `code: message`. */
  readonly lastError?: string;
  /** What handler steps remembered, by step index. */
  readonly remembered: Readonly<Record<string, readonly string[]>>;
}

const ROW = "tx";
const EMPTY: JournalEntry = { done: 0, completed: false, remembered: {} };
/** Longest error text a journal row or poison record keeps. */
export const MAX_ERROR_TEXT = 1000;

/** The error of a failed delivery as a short line. */
export function errorText(err: unknown): string {
  const text = isTableKitError(err)
    ? `${err.code}: ${err.message}`
    : err instanceof Error
      ? err.message
      : String(err);
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT - 1)}…` : text;
}

/**
 * Progress records of transactions, one entity per transaction (PartitionKey = its id, so the
 * journal spreads over partitions). Written with merges: each write only adds, so two deliveries
 * of one message racing never erase the other's record of completion.
 */
export class TransactionJournal {
  constructor(readonly table: Table) {}

  async read(id: string, call: OperationOptions): Promise<JournalEntry> {
    try {
      const e = await this.table.getEntity(id, ROW, call);
      return {
        done: typeof e.done === "number" ? e.done : 0,
        completed: e.completed === true,
        ...(typeof e.lastError === "string" ? { lastError: e.lastError } : {}),
        remembered:
          typeof e.remembered === "string" ? (JSON.parse(e.remembered) as JournalEntry["remembered"]) : {},
      };
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return EMPTY;
      throw err;
    }
  }

  /** Records that `done` steps are done (and, when that is all of them, that the transaction is). */
  async progress(id: string, done: number, completed: boolean, call: OperationOptions): Promise<void> {
    await this.table.upsertEntity(
      { partitionKey: id, rowKey: ROW, done, ...(completed ? { completed: true } : {}) },
      "Merge",
      call,
    );
  }

  async failed(id: string, err: unknown, call: OperationOptions): Promise<void> {
    await this.table.upsertEntity(
      { partitionKey: id, rowKey: ROW, lastError: errorText(err) },
      "Merge",
      call,
    );
  }

  async remember(id: string, remembered: JournalEntry["remembered"], call: OperationOptions): Promise<void> {
    const text = JSON.stringify(remembered);
    if (text.length > 30_000) {
      throw new TableKitError(
        "PropertyValueTooLarge",
        `Transaction ${id} remembers too much (${text.length} characters)`,
      );
    }
    await this.table.upsertEntity({ partitionKey: id, rowKey: ROW, remembered: text }, "Merge", call);
  }

  /** Completed rows last written before `before`, in key order. */
  completedBefore(
    before: Date,
    call: OperationOptions,
  ): AsyncIterable<{ partitionKey?: string; rowKey?: string }> {
    const filter = `completed eq true and ${odata`Timestamp lt ${before}`}`;
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
