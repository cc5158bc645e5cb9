/**
 * tablekit/data-tables against tablekit's own API on the embedded engine (issue 36): CPU per
 * operation of the SDK-shaped clients over the `Table` they wrap, for an upsert, a point read, a
 * query of a 1,000-row partition and a 10-upsert transaction, on `memory:` and on `file:`. Goal:
 * the entry point adds at most 10% (ratio ≤ 1.10). Both sides run alternately, each on its own
 * store holding the same rows, in chunks of a tenth of a round so that a burst of load on the shared
 * machine falls on both; a side's cost is the least CPU of its rounds (other processes only ever
 * add CPU time). The ratio judged is the median of the rounds' own ratios (each round's two sides
 * met the same load; the least of each side picks extremes from different rounds), printed with
 * their range. Run: npx tsx bench/data-tables.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDataTablesStores, TableClient, type TransactionAction } from "../src/data-tables/index.js";
import { openStore } from "../src/store/index.js";
import { rounds, SMOKE, sized, verdict } from "./support/bench-mode.js";

const OPS = sized(10_000, 100);
const PARTITION_ROWS = sized(1_000, 50);
const QUERIES = sized(100, 2);
const TRANSACTIONS = sized(1_000, 10);
const BATCH = 10;
const ROUNDS = rounds(7);
const GOAL = 1.1;

const entity = (pk: string, rk: string) => ({
  partitionKey: pk,
  rowKey: rk,
  name: "Claw hammer",
  price: 12.5,
  quantity: 40,
  sku: 9007199254740993n,
  stocked: new Date("2026-03-01T08:30:00.123Z"),
  active: true,
});

/** What both sides do, each through its own client. */
interface Side {
  upsert(pk: string, rk: string): Promise<unknown>;
  read(pk: string, rk: string): Promise<unknown>;
  query(pk: string): Promise<number>;
  transaction(pk: string, first: number): Promise<unknown>;
}

const batchOf = (pk: string, first: number) =>
  Array.from(
    { length: BATCH },
    (_, i) => ["upsert", entity(pk, `t${String(first + i).padStart(8, "0")}`)] as const,
  );

async function count(rows: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of rows) n++;
  return n;
}

const scratch = mkdtempSync(join(tmpdir(), "tablekit-bench-data-tables-"));

/** Tablekit's own Table, and the data-tables TableClient, each on its own store at `url(side)`. */
async function sides(url: (side: string) => string) {
  const store = await openStore(url("ours"));
  const table = store.table("Bench");
  await table.createTable();
  const ours: Side = {
    upsert: (pk, rk) => table.upsertEntity(entity(pk, rk)),
    read: (pk, rk) => table.getEntity(pk, rk),
    query: (pk) => count(table.listEntities({ queryOptions: { filter: `PartitionKey eq '${pk}'` } })),
    transaction: (pk, first) => table.submitTransaction(batchOf(pk, first)),
  };
  const client = TableClient.fromConnectionString(url("shim"), "Bench");
  await client.createTable();
  const shim: Side = {
    upsert: (pk, rk) => client.upsertEntity(entity(pk, rk)),
    read: (pk, rk) => client.getEntity(pk, rk),
    query: (pk) => count(client.listEntities({ queryOptions: { filter: `PartitionKey eq '${pk}'` } })),
    transaction: (pk, first) =>
      client.submitTransaction(batchOf(pk, first) as unknown as TransactionAction[]),
  };
  // The rows both sides read and query.
  for (const side of [ours, shim]) {
    for (let i = 0; i < PARTITION_ROWS; i++) await side.upsert("listed", `r${String(i).padStart(6, "0")}`);
  }
  return { ours, shim, close: () => store.close() };
}

/** CPU microseconds (user + system) of operations `from` to `to` (exclusive). */
async function cpuOf(from: number, to: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = from; i < to; i++) await op(i);
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

const CHUNKS = sized(10, 1);

/**
 * CPU per operation of `n` operations on each side, the sides taking turns a chunk at a time (the
 * first of each pair alternating), so that both meet the same load.
 */
async function perOp(
  n: number,
  op: (side: Side, i: number) => Promise<unknown>,
  sides: [Side, Side],
): Promise<[number, number]> {
  const used = [0, 0];
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    const from = Math.floor((chunk * n) / CHUNKS);
    const to = Math.floor(((chunk + 1) * n) / CHUNKS);
    const first = (round + chunk) % 2;
    for (const s of [first, 1 - first]) used[s]! += await cpuOf(from, to, (i) => op(sides[s]!, i));
  }
  return [used[0]! / n, used[1]! / n];
}

let round = 0;
const rows: Record<string, [number, (side: Side, i: number) => Promise<unknown>]> = {
  upsert: [OPS, (side, i) => side.upsert(`u${i % 100}`, `r${round}-${i}`)],
  "point read": [OPS, (side, i) => side.read("listed", `r${String(i % PARTITION_ROWS).padStart(6, "0")}`)],
  [`query of a ${PARTITION_ROWS}-row partition`]: [QUERIES, (side) => side.query("listed")],
  [`transaction of ${BATCH} upserts`]: [
    TRANSACTIONS,
    (side, i) => side.transaction(`t${i % 50}`, round * TRANSACTIONS * BATCH + i * BATCH),
  ],
};

const results: Record<string, string | number>[] = [];
const targets: [string, (side: string) => string][] = [
  ["memory:", () => "memory:"],
  ["file:", (side) => `file:${join(scratch, `${side}.db`)}`],
];
for (const [engine, url] of targets) {
  const { ours, shim, close } = await sides(url);
  const best: Record<string, { ours: number; shim: number; ratios: number[] }> = {};
  for (const name of Object.keys(rows)) best[name] = { ours: Infinity, shim: Infinity, ratios: [] };
  // One warm-up round, then measured rounds.
  for (round = 0; round <= ROUNDS; round++) {
    for (const [name, [n, op]] of Object.entries(rows)) {
      const [a, b] = await perOp(n, op, [ours, shim]);
      if (round === 0 && !SMOKE) continue;
      const row = best[name]!;
      row.ours = Math.min(row.ours, a);
      row.shim = Math.min(row.shim, b);
      row.ratios.push(b / a);
    }
  }
  for (const [operation, { ours: a, shim: b, ratios }] of Object.entries(best)) {
    ratios.sort((x, y) => x - y);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    results.push({
      engine,
      operation,
      "tablekit µs CPU/op": Number(a.toFixed(2)),
      "data-tables µs CPU/op": Number(b.toFixed(2)),
      ratio: Number(median.toFixed(3)),
      "rounds' ratios": `${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)}`,
      [`goal ≤ ${GOAL}`]: verdict(median <= GOAL),
    });
  }
  await closeDataTablesStores();
  await close();
}
console.log(
  `tablekit/data-tables vs tablekit's Table on the embedded engine (least CPU of ${ROUNDS} rounds; ratio: their median)`,
);
console.table(results);
rmSync(scratch, { recursive: true, force: true });
