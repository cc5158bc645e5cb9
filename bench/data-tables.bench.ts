/**
 * tablekit/data-tables against tablekit's own API on the embedded engine (issue 36): CPU per
 * operation of the SDK-shaped clients over the `Table` they wrap, for an insert, a point read and
 * a 1,000-row listing. Goal: the entry point adds at most 10% (ratio ≤ 1.10). Both sides run
 * alternately, each on its own `memory:` store holding the same rows; a side's cost is the least
 * CPU of its rounds (other processes only ever add CPU time). Run: npx tsx bench/data-tables.bench.ts
 */
import { closeDataTablesStores, TableClient } from "../src/data-tables/index.js";
import { openStore } from "../src/store/index.js";
import { rounds, SMOKE, sized, verdict } from "./support/bench-mode.js";

const OPS = sized(20_000, 200);
const LIST_ROWS = sized(1_000, 50);
const LISTINGS = sized(200, 2);
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
  create(pk: string, rk: string): Promise<unknown>;
  read(pk: string, rk: string): Promise<unknown>;
  list(pk: string): Promise<number>;
}

const store = await openStore("memory:");
const table = store.table("Bench");
await table.createTable();
const ours: Side = {
  create: (pk, rk) => table.createEntity(entity(pk, rk)),
  read: (pk, rk) => table.getEntity(pk, rk),
  list: async (pk) => {
    let n = 0;
    for await (const _ of table.listEntities({ queryOptions: { filter: `PartitionKey eq '${pk}'` } })) n++;
    return n;
  },
};

const client = TableClient.fromConnectionString("memory:", "Bench");
await client.createTable();
const shim: Side = {
  create: (pk, rk) => client.createEntity(entity(pk, rk)),
  read: (pk, rk) => client.getEntity(pk, rk),
  list: async (pk) => {
    let n = 0;
    for await (const _ of client.listEntities({ queryOptions: { filter: `PartitionKey eq '${pk}'` } })) n++;
    return n;
  },
};

// The rows both sides read and list.
for (const side of [ours, shim]) {
  for (let i = 0; i < LIST_ROWS; i++) await side.create("listed", `r${String(i).padStart(6, "0")}`);
}

/** CPU microseconds (user + system) of `count` operations. */
async function cpuPerOp(count: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await op(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

let round = 0;
const rows = {
  create: (side: Side, tag: string) =>
    cpuPerOp(OPS, (i) => side.create(`c${tag}${round}`, `r${String(i).padStart(7, "0")}`)),
  "point read": (side: Side) =>
    cpuPerOp(OPS, (i) => side.read("listed", `r${String(i % LIST_ROWS).padStart(6, "0")}`)),
  [`listing of ${LIST_ROWS} rows`]: (side: Side) => cpuPerOp(LISTINGS, () => side.list("listed")),
};

const best: Record<string, { ours: number; shim: number }> = {};
for (const name of Object.keys(rows)) best[name] = { ours: Infinity, shim: Infinity };
// One warm-up round, then measured rounds; the sides take turns going first.
for (round = 0; round <= ROUNDS; round++) {
  for (const [name, run] of Object.entries(rows)) {
    const order: ["ours" | "shim", Side][] =
      round % 2 === 0
        ? [
            ["ours", ours],
            ["shim", shim],
          ]
        : [
            ["shim", shim],
            ["ours", ours],
          ];
    for (const [label, side] of order) {
      const cost = await run(side, label);
      if (round > 0 || SMOKE) best[name]![label] = Math.min(best[name]![label], cost);
    }
  }
}

const results = Object.entries(best).map(([operation, { ours: a, shim: b }]) => ({
  operation,
  "tablekit µs CPU/op": Number(a.toFixed(2)),
  "data-tables µs CPU/op": Number(b.toFixed(2)),
  ratio: Number((b / a).toFixed(3)),
  [`goal ≤ ${GOAL}`]: verdict(b / a <= GOAL),
}));
console.log(`tablekit/data-tables vs tablekit's Table on memory: (least CPU of ${ROUNDS} rounds)`);
console.table(results);
await closeDataTablesStores();
await store.close();
