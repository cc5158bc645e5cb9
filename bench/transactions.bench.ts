/**
 * The eventually consistent transactions worker (docs/patterns/eventually-consistent-transactions.md):
 * transactions/s with 1, 4 and 16 workers, on the embedded engine (file:) and on Azurite (tables +
 * queues + blobs), each against a baseline in the same run: the same steps written directly by as
 * many concurrent writers, without queue, journal or recovery. The transaction is the seed's
 * archive: insert the employee into Archive, delete it from Current (its ETag as the guard).
 * Run: npx tsx bench/transactions.bench.ts (or npm run bench -- transactions; --smoke for tiny sizes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../src/index.js";
import { step, TransactionQueue, type TransactionStep } from "../src/patterns/index.js";
import { startAzurite } from "../test/support/azurite.js";
import { SMOKE, sized } from "./support/bench-mode.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-tx-bench-"));
const WORKERS = [1, 4, 16] as const;

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

const rate = (n: number, s: number) => Math.round(n / s).toLocaleString("en-US");

/** `n` employees in a fresh Current table (and an empty Archive); the archive steps of each. */
async function employees(store: Store, tag: string, n: number): Promise<TransactionStep[][]> {
  await store.createTable(`Current${tag}`);
  await store.createTable(`Archive${tag}`);
  const current = store.table(`Current${tag}`);
  const out: TransactionStep[][] = [];
  for (let i = 0; i < n; i++) {
    const entity = {
      partitionKey: `dept${i % 16}`,
      rowKey: String(i).padStart(6, "0"),
      name: `E${i}`,
      age: 30 + (i % 40),
    };
    const { etag } = await current.createEntity(entity);
    out.push([
      step.insertIfAbsent(`Archive${tag}`, entity),
      step.deleteIfPresent(`Current${tag}`, entity.partitionKey, entity.rowKey, { etag }),
    ]);
  }
  return out;
}

/** The baseline: `writers` concurrent loops writing each transaction's two steps directly. */
async function direct(store: Store, transactions: TransactionStep[][], writers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = next++; i < transactions.length; i = next++) {
        const [insert, remove] = transactions[i]! as [
          Extract<TransactionStep, { kind: "insertIfAbsent" }>,
          Extract<TransactionStep, { kind: "deleteIfPresent" }>,
        ];
        await store.table(insert.table).createEntity(insert.entity);
        await store
          .table(remove.table)
          .deleteEntity(remove.partitionKey, remove.rowKey, { etag: remove.etag! });
      }
    }),
  );
}

/** One world: for each worker count, the direct baseline and the queue's worker on fresh tables. */
async function world(name: string, store: Store, n: number): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for (const workers of WORKERS) {
    const baseline = await employees(store, `d${workers}`, n);
    const directSeconds = await seconds(() => direct(store, baseline, workers));

    const planned = await employees(store, `q${workers}`, n);
    const transactions = new TransactionQueue(store, {
      queue: `txbench${workers}`,
      journalTable: `TxJournal${workers}`,
      payloadContainer: `txbench${workers}`,
    });
    await transactions.ensure();
    const enqueueSeconds = await seconds(async () => {
      for (const steps of planned) await transactions.enqueue(steps);
    });
    const pool = Array.from({ length: workers }, () => transactions.worker({ pollIntervalMs: 10 }));
    const workerSeconds = await seconds(() => Promise.all(pool.map((w) => w.drain({ timeoutMs: 600_000 }))));
    const processed = pool.reduce((sum, w) => sum + w.stats.processed, 0);
    if (processed !== n) throw new Error(`${name}: ${processed} of ${n} transactions processed`);
    for await (const _ of store.table(`Currentq${workers}`).listEntities())
      throw new Error(`${name}: Current is not empty after the drain`);
    rows.push({
      world: name,
      workers: String(workers),
      transactions: n.toLocaleString("en-US"),
      "direct tx/s": rate(n, directSeconds),
      "enqueue tx/s": rate(n, enqueueSeconds),
      "worker tx/s": rate(n, workerSeconds),
      "worker / direct": `${(directSeconds / workerSeconds).toFixed(2)}x`,
    });
  }
  return rows;
}

try {
  const rows: Record<string, string>[] = [];
  const embedded = await openStore(`file:${join(dir, "tx.db")}`);
  try {
    rows.push(...(await world("embedded (file)", embedded, sized(2000, 16))));
  } finally {
    await embedded.close();
  }
  const azurite = await startAzurite();
  try {
    const store = await openStore(`azure:${azurite.connectionString}`);
    try {
      rows.push(...(await world("Azurite", store, sized(400, 16))));
    } finally {
      await store.close();
    }
  } finally {
    await azurite.stop();
  }
  console.log(
    "\neventually consistent transactions (2 steps: insert into Archive, ETag-guarded delete from Current):\n" +
      "worker transactions/s by workers vs the same steps written directly by as many writers",
  );
  console.table(rows);
  if (SMOKE) console.log("(smoke run: the numbers mean nothing)");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
