/**
 * High-volume delete (seed 001): deleting 1,000,000 entities by dropping their period's table
 * (`PeriodTables.applyRetention`, one `deleteTable`) against deleting them the other way the seed
 * describes — read every key page by page and delete in entity group transactions of 100 — on the
 * embedded engine (a file: store). Prints each time and the ratio batches / drop.
 * Run: npx tsx bench/periods.bench.ts [entities, default 1000000]; smoke: --smoke or TABLEKIT_BENCH_SMOKE=1.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Table, type TransactionAction } from "../src/index.js";
import { PeriodTables } from "../src/patterns/index.js";
import { SMOKE, sized } from "./support/bench-mode.js";

const ENTITIES = sized(Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1_000_000), 2_000);
const PER_PARTITION = 1_000; // login attempts of one user in one day

/** Fills a table with ENTITIES login attempts in transactions of 100. */
async function fill(table: Table): Promise<void> {
  for (let n = 0; n < ENTITIES; n += 100) {
    const actions: TransactionAction[] = [];
    for (let i = n; i < Math.min(n + 100, ENTITIES); i++) {
      const user = `user${String(Math.floor(i / PER_PARTITION)).padStart(6, "0")}`;
      actions.push(["create", { partitionKey: user, rowKey: String(i).padStart(9, "0"), ok: i % 7 !== 0 }]);
    }
    await table.submitTransaction(actions);
  }
}

/** The seed's costly way: scan every key, delete in transactions of 100 (a partition each). */
async function deleteByBatches(table: Table): Promise<number> {
  let deleted = 0;
  for (;;) {
    // Re-read from the start each round: deleting what a page returned invalidates nothing we still need.
    const page = await table
      .listEntities({ queryOptions: { select: ["PartitionKey", "RowKey"] } })
      .byPage({ maxPageSize: 1000 })
      .next();
    const keys = page.done ? [] : page.value;
    if (keys.length === 0) return deleted;
    const byPartition = new Map<string, TransactionAction[]>();
    for (const e of keys) {
      const list = byPartition.get(e.partitionKey!) ?? [];
      list.push(["delete", { partitionKey: e.partitionKey!, rowKey: e.rowKey! }]);
      byPartition.set(e.partitionKey!, list);
    }
    for (const actions of byPartition.values()) {
      for (let i = 0; i < actions.length; i += 100) await table.submitTransaction(actions.slice(i, i + 100));
    }
    deleted += keys.length;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 1000 ? 3 : 1)} s`;
const dir = mkdtempSync(join(tmpdir(), "tablekit-bench-periods-"));
try {
  const store = await openStore(`file:${join(dir, "periods.db")}`);
  let now = new Date(Date.UTC(2024, 0, 1, 12));
  const logins = new PeriodTables(store, { prefix: "LoginAttempts", retain: 1, now: () => now });
  const day = logins.tableFor(now);
  await day.createTable();
  const batches = store.table("LoginAttemptsByBatches");
  await batches.createTable();
  let started = performance.now();
  await fill(day);
  await fill(batches);
  const fillMs = performance.now() - started;

  now = new Date(Date.UTC(2024, 0, 2, 12)); // the next day: yesterday's table is past retention
  started = performance.now();
  const dropped = await logins.applyRetention();
  const dropMs = performance.now() - started;
  if (dropped.length !== 1 || (await logins.tables()).length !== 0)
    throw new Error("the period table was not dropped");

  started = performance.now();
  const deleted = await deleteByBatches(batches);
  const batchMs = performance.now() - started;
  if (deleted !== ENTITIES) throw new Error(`deleted ${deleted} of ${ENTITIES}`);
  await store.close();

  console.log(
    `\nDeleting ${ENTITIES.toLocaleString("en-US")} entities on the embedded engine (file:)${SMOKE ? " — smoke run" : ""}`,
  );
  console.table([
    { way: "drop the period's table (applyRetention)", time: seconds(dropMs), requests: 2 }, // list, delete
    {
      way: "read keys + delete in transactions of 100",
      time: seconds(batchMs),
      requests: Math.ceil(ENTITIES / 1000) + Math.ceil(ENTITIES / 100),
    },
  ]);
  console.log(
    `batches / drop: ${(batchMs / dropMs).toFixed(0)}x (filling both tables took ${seconds(fillMs)})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
