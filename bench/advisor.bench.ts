/**
 * The key-design advisor against a plain listing of the same table (the same pages, in key order,
 * on the embedded engine): what the advisor's per-entity work costs on top of reading. Entities
 * carry a few typed properties and padded numeric keys, so every collector has work to do (the
 * bulk load makes every partition hot: one finding, as a real report would carry).
 * Run: npx tsx bench/advisor.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adviseTable } from "../src/advisor/index.js";
import { openStore, type TableEntity } from "../src/index.js";
import { rounds, sized } from "./support/bench-mode.js";

const ENTITIES = sized(200_000, 2_000);
const PARTITIONS = 200;
const ROUNDS = rounds(3);

const dir = mkdtempSync(join(tmpdir(), "tablekit-advisor-bench-"));
const store = await openStore(`file:${join(dir, "advisor.db")}`);
await store.createTable("Orders");
const table = store.table("Orders");
const perPartition = ENTITIES / PARTITIONS;
for (let p = 0; p < PARTITIONS; p++) {
  const partitionKey = `customer_${String(p).padStart(5, "0")}`;
  for (let i = 0; i < perPartition; i += 100) {
    const batch: ["create", TableEntity<Record<string, unknown>>][] = [];
    for (let j = i; j < Math.min(i + 100, perPartition); j++) {
      batch.push([
        "create",
        {
          partitionKey,
          rowKey: `order_${String(j).padStart(8, "0")}`,
          Price: j % 97,
          Total: BigInt(j) * 100n,
          Shipped: j % 3 === 0,
          Note: `order ${j} of ${partitionKey}`,
        },
      ]);
    }
    await table.submitTransaction(batch);
  }
}

async function plainListing(): Promise<number> {
  let n = 0;
  for await (const page of table.listEntities().byPage({ maxPageSize: 1000 })) n += page.length;
  return n;
}

async function advisor(): Promise<number> {
  const report = await adviseTable(store, "Orders", { maxEntities: ENTITIES + 1 });
  return report.read!.entities;
}

/** Best of ROUNDS after one warm-up: entities per second. */
async function measure(fn: () => Promise<number>): Promise<number> {
  await fn();
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    const n = await fn();
    if (n !== ENTITIES) throw new Error(`read ${n} of ${ENTITIES}`);
    best = Math.max(best, n / ((performance.now() - start) / 1000));
  }
  return best;
}

try {
  const baseline = await measure(plainListing);
  const advised = await measure(advisor);
  console.log(`\nadvisor over ${ENTITIES.toLocaleString("en-US")} entities in ${PARTITIONS} partitions`);
  console.table(
    [
      { name: "plain listing, key order (baseline)", ops: baseline },
      { name: "adviseTable (every collector)", ops: advised },
    ].map((r) => ({
      case: r.name,
      "entities/s": Math.round(r.ops).toLocaleString("en-US"),
      "vs baseline": `${(r.ops / baseline).toFixed(2)}x`,
    })),
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
