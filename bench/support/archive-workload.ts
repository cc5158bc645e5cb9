/**
 * The transaction the transactions benchmark and its tools measure: the seed's archive — insert
 * the employee into Archive, delete it from Current (its ETag as the guard) — on fresh tables.
 */
import type { Store } from "../../src/index.js";
import { step, TransactionQueue, type TransactionStep } from "../../src/patterns/index.js";

let tables = 0;

/** `n` employees in a fresh Current table (and an empty Archive); the archive steps of each. */
export async function archiveTransactions(
  store: Store,
  n: number,
): Promise<{ tag: string; steps: TransactionStep[][] }> {
  const tag = String(++tables);
  await store.createTable(`Current${tag}`);
  await store.createTable(`Archive${tag}`);
  const current = store.table(`Current${tag}`);
  const steps: TransactionStep[][] = [];
  for (let i = 0; i < n; i++) {
    const entity = {
      partitionKey: `dept${i % 16}`,
      rowKey: String(i).padStart(6, "0"),
      name: `E${i}`,
      age: 30 + (i % 40),
    };
    const { etag } = await current.createEntity(entity);
    steps.push([
      step.insertIfAbsent(`Archive${tag}`, entity),
      step.deleteIfPresent(`Current${tag}`, entity.partitionKey, entity.rowKey, { etag }),
    ]);
  }
  return { tag, steps };
}

/**
 * A queue of `n` archive transactions on tables of their own, every one enqueued, ready to drain;
 * `evidence: false` is the queue's internal switch the comparison uses.
 */
export async function archiveQueue(
  store: Store,
  n: number,
  evidence: boolean,
): Promise<{ tag: string; queue: TransactionQueue }> {
  const { tag, steps } = await archiveTransactions(store, n);
  const queue = new TransactionQueue(store, {
    queue: `txbench${tag}`,
    journalTable: `TxJournal${tag}`,
    payloadContainer: `txbench${tag}`,
    evidence,
  });
  await queue.ensure();
  for (const s of steps) await queue.enqueue(s);
  return { tag, queue };
}
