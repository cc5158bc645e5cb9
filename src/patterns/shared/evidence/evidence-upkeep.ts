import { isTableKitError, TableKitError } from "../../../model/index.js";
import type { OperationOptions, Table } from "../../../store/index.js";
import { TransactionJournal } from "../../eventually-consistent-transactions/journal.js";
import { type Evidence, type Mark, type StepRef, withMark } from "./evidence.js";

/** Opens a table of the store by name (the journals marks name). */
export type TableOf = (name: string) => Table;

/** A mark of a transaction with no journal row is dropped after this long: its message has expired (7 days), with a margin. */
const UNJOURNALED_MARK_SECONDS = 8 * 24 * 3600;
/** Marks kept without asking their journals; beyond it, marks of finished transactions are dropped. */
const MARKS_KEPT_UNCHECKED = 8;

/** Transactions known finished (completed, or discarded): their marks may go. Shared by the workers of a process. */
export class FinishedTransactions {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  private static key(journal: string, id: string): string {
    return `${journal.toLowerCase()}\u0000${id}`;
  }

  add(journal: string, id: string): void {
    const key = FinishedTransactions.key(journal, id);
    this.ids.delete(key);
    this.ids.add(key);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }

  has(journal: string, id: string): boolean {
    return this.ids.has(FinishedTransactions.key(journal, id));
  }
}

/** What a transaction's journal says of it, for the marks it made: finished, unfinished, or no row. */
async function journalState(
  tableOf: TableOf,
  mark: Mark,
  call: OperationOptions,
): Promise<"completed" | "open" | "none"> {
  try {
    const entry = await new TransactionJournal(tableOf(mark.journal)).read(mark.id, call);
    return entry.completed || entry.discarded ? "completed" : entry.etag === undefined ? "none" : "open";
  } catch (err) {
    if (isTableKitError(err, "TableNotFound")) return "none";
    throw err;
  }
}

/**
 * `evidence` with the mark of `ref` added, after dropping marks of transactions that finished
 * (known here, or once more than a few marks are kept, asked of their journals). A mark is dropped
 * only once its transaction completed: until then a redelivery may need it. Past `maxChars`
 * (formatted) with no mark left to drop, the write waits: ServerBusy, and the worker tries again.
 */
export async function addMark(
  tableOf: TableOf,
  evidence: Evidence,
  mark: Mark,
  finished: FinishedTransactions,
  fits: (candidate: Evidence) => boolean,
  call: OperationOptions,
): Promise<Evidence> {
  let kept = evidence.marks.filter((m) => !finished.has(m.journal, m.id));
  if (kept.length >= MARKS_KEPT_UNCHECKED || !fits(withMark({ ...evidence, marks: kept }, mark))) {
    const now = Date.now() / 1000;
    const states = await Promise.all(kept.map((m) => journalState(tableOf, m, call)));
    kept = kept.filter((m, i) => {
      if (states[i] === "completed") finished.add(m.journal, m.id);
      return states[i] === "open" || (states[i] === "none" && now - m.at < UNJOURNALED_MARK_SECONDS);
    });
  }
  const next = withMark({ ...evidence, marks: kept }, mark);
  if (!fits(next)) {
    throw new TableKitError(
      "ServerBusy",
      `Too many unfinished transactions have written this target (${kept.length}): the step waits for them`,
      { details: { unfinished: kept.length } },
    );
  }
  return next;
}

/**
 * Before tablekit deletes a target carrying marks: records in the journal of each unfinished
 * transaction that marked it that its step ran (and the lineage deleted), since the evidence
 * leaves with the target. `except` is the deleting transaction's own step.
 */
export async function recordDeletedMarks(
  tableOf: TableOf,
  evidence: Evidence | undefined,
  lineage: string,
  call: OperationOptions,
  except?: StepRef,
): Promise<void> {
  const marks = (evidence?.marks ?? []).filter(
    (m) => !(except && m.id === except.id && m.journal === except.journal),
  );
  const now = Date.now() / 1000;
  await Promise.all(
    marks.map(async (m) => {
      // A transaction with no row this long after its mark can no longer be delivered: leave no row for it.
      const onlyIfRow = now - m.at >= UNJOURNALED_MARK_SECONDS;
      try {
        await new TransactionJournal(tableOf(m.journal)).addEvidence(m.id, "deleted", m.step, lineage, {
          ...call,
          onlyIfRow,
        });
      } catch (err) {
        if (!isTableKitError(err, "TableNotFound")) throw err; // its journal is gone: nothing can redeliver it
      }
    }),
  );
}
