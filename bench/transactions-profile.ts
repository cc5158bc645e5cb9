/**
 * Runs the worker of bench/transactions.bench.ts once, for a profiler: `workers` workers drain
 * `count` archive transactions on the embedded engine, and with `--top N` the drain alone is
 * profiled (node:inspector) and the N functions with the most self time printed, with the store
 * calls a transaction makes. Three unmeasured drains of 1,000 come first: a cold process spends
 * its time compiling, which hides differences the benchmark (warm) sees.
 *
 *   npx tsx bench/transactions-profile.ts 2000 4 --top 30
 *   npx tsx bench/transactions-profile.ts 2000 4 --no-evidence --top 30
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../src/index.js";
import { archiveQueue } from "./support/archive-workload.js";
import { type CpuProfile, printTop } from "./support/cpu-profile.js";

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt < 0 ? 0 : Number(args.splice(topAt, 2)[1]);
const plainAt = args.indexOf("--no-evidence");
if (plainAt >= 0) args.splice(plainAt, 1);
const [count = 2000, workers = 4] = args.map(Number);

const dir = mkdtempSync(join(tmpdir(), "tablekit-tx-profile-"));
try {
  const store = await openStore(`file:${join(dir, "tx.db")}`);
  /** A queue of `n` archive transactions on tables of their own, ready to drain. */
  const prepare = async (n: number) => (await archiveQueue(store, n, plainAt < 0)).queue;
  for (let warm = 1; warm <= 3; warm++) {
    const queue = await prepare(1000);
    await Promise.all(
      Array.from({ length: workers }, () =>
        queue.worker({ pollIntervalMs: 10 }).drain({ timeoutMs: 600_000 }),
      ),
    );
  }
  const transactions = await prepare(count);
  const session = new Session();
  if (top > 0) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
  }
  const cpu = process.cpuUsage();
  const start = performance.now();
  const pool = Array.from({ length: workers }, () => transactions.worker({ pollIntervalMs: 10 }));
  await Promise.all(pool.map((w) => w.drain({ timeoutMs: 600_000 })));
  const used = process.cpuUsage(cpu);
  const wall = (performance.now() - start) / 1000;
  const cpuS = (used.user + used.system) / 1e6;
  console.log(
    `${count} transactions, ${workers} workers: ${Math.round(count / cpuS)} tx/CPU s, ${Math.round(count / wall)} tx/s wall`,
  );
  if (top > 0) {
    const { profile } = await session.post("Profiler.stop");
    printTop(profile as CpuProfile, top);
    printInclusive(profile as unknown as Tree, top);
  }
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

interface Tree {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples?: number[];
}

/** The `n` functions with the most total (inclusive) time: where a phase's cost goes. */
function printInclusive(profile: Tree, n: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const total = new Map<string, number>();
  for (const id of profile.samples ?? []) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const name = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(src|bench|node_modules)\//, "$1/")}`;
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + 1);
    }
  }
  const all = profile.samples?.length ?? 0;
  const rows = [...total].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.table(rows.map(([frame, samples]) => ({ "total %": ((100 * samples) / all).toFixed(1), frame })));
}
