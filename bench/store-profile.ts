/**
 * Runs one row of bench/store.bench.ts on one side, `count` times, for a profiler: the work of
 * the benchmark without its timing loop, so the profile holds nothing else.
 *
 *   node --import tsx --cpu-prof bench/store-profile.ts read ours 200000
 *   valgrind --tool=callgrind node --import tsx bench/store-profile.ts read raw 20000
 *
 * Rows: insert, read, scan, newest10, transaction. Sides: ours (the store through the public API),
 * raw (better-sqlite3), backend (the embedded backend without the core; read and scan only).
 * Instruction counts do not depend on the machine's load: run a row at `count` and `2·count` under
 * callgrind, and the difference divided by `count` is the cost of one operation, set-up excluded.
 * The set-up (inserts for reads, a partition of 10,000 for scans and newest-10) runs either way.
 * With `--top N` it profiles only the measured loop itself (node:inspector) and prints the N
 * functions with the most self time: what docs/embedded.md shows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { printTop } from "./support/cpu-profile.js";
import { loadPartition, type Op, openSides } from "./support/store-workload.js";

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt < 0 ? 0 : Number(args.splice(topAt, 2)[1]);
const allocAt = args.indexOf("--alloc");
const alloc = allocAt < 0 ? 0 : Number(args.splice(allocAt, 2)[1]);
const [row = "", side = "", countText = ""] = args;
const count = Number(countText);
const ROWS = ["insert", "read", "scan", "newest10", "transaction"];
if (!ROWS.includes(row) || !["ours", "raw", "backend"].includes(side) || !(count > 0)) {
  console.error(`usage: store-profile.ts <${ROWS.join("|")}> <ours|raw|backend> <count>`);
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), "tablekit-store-profile-"));
const { raw, table, backendTable, work, close } = await openSides(dir);

let op: Op;
if (row === "insert") op = work.insert[side === "raw" ? "raw" : "ours"];
else if (row === "transaction") op = work.transaction[side === "raw" ? "raw" : "ours"];
else if (row === "read") {
  for (let i = 0; i < 1000; i++) {
    await work.insert.ours();
    work.insert.raw();
  }
  op =
    side === "backend"
      ? () => backendTable.get("ins", work.nextKey(), {})
      : work.pointRead[side as "raw" | "ours"];
} else {
  await loadPartition(table, raw, "small", 10_000);
  const ranges = [{ kind: "rows" as const, pk: "small", rk: {} }];
  op =
    side === "backend"
      ? () =>
          backendTable.query(
            { ranges, filterProperties: [], maxPageSize: row === "scan" ? 1000 : 10, timeBudgetMs: 5000 },
            {},
          )
      : work[row === "scan" ? "scan" : "newest10"]("small")[side as "raw" | "ours"];
}

// Warm up first, so the measured loop runs optimised code as the benchmark's rounds do.
for (let i = 0; i < Math.min(count, 200); i++) await op();
const session = new Session();
if (top > 0 || alloc > 0) session.connect();
if (alloc > 0) {
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 64,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}
if (top > 0) {
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
}
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (let i = 0; i < count; i++) await op();
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
console.log(
  `${row} ${side}: ${count} in ${ms.toFixed(0)} ms, ${((ms * 1000) / count).toFixed(2)} µs each (${((cpu.user + cpu.system) / count).toFixed(2)} µs of CPU)`,
);
if (top > 0) {
  const { profile } = await session.post("Profiler.stop");
  printTop(profile, top);
}
if (alloc > 0) {
  const { profile } = await session.post("HeapProfiler.stopSampling");
  printAllocations(profile.head as AllocationNode, alloc, count);
}
session.disconnect();

await close();
rmSync(dir, { recursive: true, force: true });

/** The `n` functions that allocate the most bytes per operation (sampled: an estimate). */
function printAllocations(head: AllocationNode, n: number, ops: number): void {
  const bytes = new Map<string, number>();
  const visit = (node: AllocationNode) => {
    const file = node.callFrame.url.replace(/^.*\/(src|bench|node_modules)\//, "$1/");
    const name = `${node.callFrame.functionName || "(anonymous)"} ${file}`;
    bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(head);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  console.log(`about ${Math.round(total / ops)} bytes allocated per operation`);
  const rows = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.table(rows.map(([frame, size]) => ({ "bytes/op": Math.round(size / ops), frame })));
}

interface AllocationNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: AllocationNode[];
}
