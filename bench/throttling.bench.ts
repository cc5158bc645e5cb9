/**
 * The throttling emulator (docs/throttling.md) against the prepend/append anti-pattern: writes/s
 * of log entries of one hour appended to one hot partition, against the same appends spread over
 * 16 hash buckets (`HashPartitionedTable`), on the embedded engine with Azure's targets enforced
 * (2,000 entities/s a partition, 20,000 an account). Writers retry ServerBusy with backoff, as the
 * Azure SDKs do. Baseline in the same run: the same writes with no emulator. Prints writes/s,
 * ServerBusy answers and the ratio buckets / hot.
 * Run: npx tsx bench/throttling.bench.ts [seconds per case, default 3]; smoke: --smoke or TABLEKIT_BENCH_SMOKE=1.
 */
import { openStore } from "../src/index.js";
import { HashPartitionedTable } from "../src/patterns/index.js";
import { SMOKE, sized } from "./support/bench-mode.js";

const SECONDS = sized(Number(process.argv.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 3), 0.3);
const WRITERS = 32;
const HOUR = "2014-07-31T18";

interface Result {
  readonly writes: number;
  readonly perSecond: number;
  readonly busy: number;
}

/** WRITERS concurrent writers append single entities for SECONDS; each insert is one request. */
async function run(buckets: number, throttle: boolean): Promise<Result> {
  let busy = 0;
  const store = await openStore(
    "memory:",
    throttle ? { throttle: { profile: "azure", onThrottle: () => busy++ } } : {},
  );
  const table = store.table("AccessLog");
  await table.createTable();
  const hashed = new HashPartitionedTable(store, table, {
    buckets,
    busyRetry: { maxAttempts: 1000, baseDelayMs: 2, maxDelayMs: 100 },
  });
  let writes = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (performance.now() < deadline) {
        const i = next++;
        await hashed.create({
          partitionKey: HOUR,
          rowKey: `event${String(i).padStart(9, "0")}`,
          employee: i % 500,
        });
        writes++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const stored = await table
    .listEntities({ queryOptions: { select: ["RowKey"] } })
    .byPage({ maxPageSize: 1 })
    .next();
  if (writes > 0 && (stored.done || stored.value.length === 0)) throw new Error("nothing was written");
  await store.close();
  return { writes, perSecond: writes / elapsed, busy };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const rows: Record<string, string | number>[] = [];
const measured: Record<string, Result> = {};
for (const [label, buckets, throttle] of [
  ["hot partition, no emulator", 1, false],
  ["hot partition, emulator", 1, true],
  ["16 buckets, no emulator", 16, false],
  ["16 buckets, emulator", 16, true],
] as const) {
  const result = await run(buckets, throttle);
  measured[label] = result;
  rows.push({ design: label, "writes/s": fmt(result.perSecond), ServerBusy: result.busy });
}
console.log(
  `\nAppends of one hour's log, ${WRITERS} writers, ${SECONDS} s per case, Azure targets${SMOKE ? " — smoke run" : ""}`,
);
console.table(rows);
const ratio = measured["16 buckets, emulator"]!.perSecond / measured["hot partition, emulator"]!.perSecond;
console.log(`under the emulator, 16 buckets / hot partition: ${ratio.toFixed(1)}x`);
