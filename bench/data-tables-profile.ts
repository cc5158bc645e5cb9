/**
 * CPU profile of one operation of bench/data-tables.bench.ts, on one side: where the
 * data-tables entry point's time goes against tablekit's own Table.
 * Run: npx tsx bench/data-tables-profile.ts read|upsert|query|transaction ours|shim [memory:|file:]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDataTablesStores, TableClient, type TransactionAction } from "../src/data-tables/index.js";
import { openStore } from "../src/store/index.js";
import { type CpuProfile, printTop } from "./support/cpu-profile.js";

const [operation = "read", side = "shim", engine = "memory:"] = process.argv.slice(2);
const scratch = mkdtempSync(join(tmpdir(), "tablekit-profile-data-tables-"));
const url = engine === "file:" ? `file:${join(scratch, "p.db")}` : "memory:";
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
const store = await openStore(url);
const table = store.table("Bench");
const client = TableClient.fromConnectionString(url, "Bench");
if (side === "ours") await table.createTable();
else await client.createTable();
const api = side === "ours" ? table : client;
const upsert = (pk: string, rk: string) => api.upsertEntity(entity(pk, rk));
for (let i = 0; i < 1000; i++) await upsert("listed", `r${String(i).padStart(6, "0")}`);

const count = async (rows: AsyncIterable<unknown>) => {
  let n = 0;
  for await (const _ of rows) n++;
  return n;
};
const ops: Record<string, [number, (i: number) => Promise<unknown>]> = {
  read: [200_000, (i) => api.getEntity("listed", `r${String(i % 1000).padStart(6, "0")}`)],
  upsert: [100_000, (i) => upsert(`u${i % 100}`, `r${i}`)],
  query: [300, () => count(api.listEntities({ queryOptions: { filter: "PartitionKey eq 'listed'" } }))],
  transaction: [
    20_000,
    (i) =>
      api.submitTransaction(
        Array.from(
          { length: 10 },
          (_, j) => ["upsert", entity(`t${i % 50}`, `t${String(i * 10 + j).padStart(8, "0")}`)] as const,
        ) as unknown as TransactionAction[],
      ),
  ],
};
const [n, op] = ops[operation]!;
for (let i = 0; i < n / 10; i++) await op(i); // warm up
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 50 });
await session.post("Profiler.start");
const start = process.cpuUsage();
for (let i = 0; i < n; i++) await op(i);
const used = process.cpuUsage(start);
const { profile } = await session.post("Profiler.stop");
console.log(`${operation} ${side} ${engine}: ${((used.user + used.system) / n).toFixed(2)} µs CPU/op`);
printTop(profile as CpuProfile, 30, n);
await closeDataTablesStores();
await store.close();
rmSync(scratch, { recursive: true, force: true });
