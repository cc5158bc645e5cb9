/** Seed 001: an employee moved to an archive table by an eventually consistent transaction. */
import { odata } from "../../filter/index.js";
import { TableKitError } from "../../model/index.js";
import { step, TransactionQueue } from "../../patterns/index.js";
import type { Store, Table } from "../../store/index.js";
import type { Channel } from "../output/terminal.js";
import { Employee } from "./employees.js";
import { heading, readResult, storedKeys } from "./show.js";

export const ARCHIVE_TABLE = "DemoArchive";
export const JOURNAL_TABLE = "DemoJournal";
/** Kept between runs and emptied (a deleted Azure queue cannot be re-created for a while). */
export const TRANSACTION_QUEUE = "demo-transactions";
const WORKER_WAIT_MS = 30_000;

async function has(table: Table, partitionKey: string, rowKey: string): Promise<string> {
  for await (const _ of table.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${partitionKey} and RowKey eq ${rowKey}` },
  })) {
    return "yes";
  }
  return "no";
}

export async function archiveDemo(store: Store, out: Channel): Promise<void> {
  heading(
    out,
    "Eventually consistent transaction: archiving an employee",
    "seed 001",
    "Moving an employee to another table cannot be one entity group transaction. The move is sent as\none queue message of idempotent steps (insert into the archive if absent, delete the original and\nits email copy if present); a worker runs them and deletes the message. A crash in between leaves\nthe message to reappear after its visibility timeout, and running a step twice changes nothing.",
  );
  const employees = Employee.on(store);
  const archive = store.table(ARCHIVE_TABLE);
  await archive.createTable();
  const transactions = new TransactionQueue(store, {
    queue: TRANSACTION_QUEUE,
    poisonQueue: `${TRANSACTION_QUEUE}-poison`,
    journalTable: JOURNAL_TABLE,
    payloadContainer: TRANSACTION_QUEUE,
  });
  await transactions.ensure();
  await transactions.queue.clearMessages();

  const kim = await employees.get({ department: "Marketing", id: 7 });
  const { partitionKey, rowKey } = Employee.keys(kim);
  const { etag, timestamp: _t, ...fields } = kim;
  await transactions.enqueue(
    [
      step.insertIfAbsent(ARCHIVE_TABLE, { ...fields, partitionKey, rowKey }),
      step.deleteIfPresent(employees.table.tableName, partitionKey, rowKey, { etag }),
      step.deleteIfPresent(employees.table.tableName, partitionKey, `email_${kim.email}`),
    ],
    { id: "archive-Marketing-7" },
  );
  const [message] = (await transactions.queue.peekMessages()).peekedMessageItems;
  out.line(`  ${out.style.dim(`one message in queue ${TRANSACTION_QUEUE}:`)}`);
  out.line(`  ${message!.messageText.slice(0, 96)}…`);
  out.line();

  // A worker that stops right after the first step, as if it crashed there: the seed's in-between state.
  const seen: string[][] = [];
  const failures: unknown[] = [];
  const crashing = transactions.worker({
    visibilityTimeout: 1,
    onError: (err) => failures.push(err),
    onBoundary: async ({ point, step: index }) => {
      if (point !== "applied" || index !== 0) return;
      seen.push([
        "after step 0 (worker stopped)",
        await has(employees.table, partitionKey, rowKey),
        await has(archive, partitionKey, rowKey),
      ]);
      crashing.halt();
    },
  });
  crashing.start();
  // Bounded: a worker that cannot apply the step (a store error) must end the demo, not hang it.
  const deadline = Date.now() + WORKER_WAIT_MS;
  while (seen.length === 0) {
    if (Date.now() > deadline) {
      crashing.halt();
      const last = failures.at(-1);
      throw new TableKitError(
        "OperationTimedOut",
        `The demo's worker applied no step in ${WORKER_WAIT_MS / 1000} s${last ? `: ${String(last)}` : ""}`,
        last === undefined ? {} : { cause: last },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await crashing.stop();
  const stats = await transactions.worker().drain();
  seen.push([
    `after a second worker (${stats.processed} processed, ${stats.stepsApplied} steps)`,
    await has(employees.table, partitionKey, rowKey),
    await has(archive, partitionKey, rowKey),
  ]);
  readResult(
    out,
    `where Min Kim (${partitionKey}, ${rowKey}) is`,
    ["When", "DemoEmployees", ARCHIVE_TABLE],
    seen,
  );
  await storedKeys(out, archive, () => "archived employee");
}
