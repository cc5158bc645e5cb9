/**
 * What the steps' evidence costs the transactions worker, measured as an A/B in one process: the
 * archive transaction of bench/transactions.bench.ts drained by `workers` workers with the evidence
 * on and off (the queue's internal switch), in adjacent pairs whose order alternates, after one
 * unmeasured drain of each. Prints the mean of the pairs' costs with a 90% bootstrap interval, the
 * median, and user µs per transaction on / off. Two sides only, always adjacent: tighter than the
 * benchmark's three-sided rounds, for comparing two versions of the code (run it in each).
 *
 *   npx tsx bench/transactions-evidence.ts [workers=4] [pairs=20] [transactions=4000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { openStore, type Store } from "../src/index.js";
import { archiveQueue } from "./support/archive-workload.js";
import { bootstrapInterval, mean } from "./support/paired-cost.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const [workers = 4, pairs = 20, count = 4000] = process.argv.slice(2).map(Number);
const dir = mkdtempSync(join(tmpdir(), "tablekit-tx-evidence-"));

/** One drain of `count` fresh archive transactions: CPU and user µs per transaction. */
async function drain(store: Store, evidence: boolean): Promise<{ cpu: number; user: number }> {
  const { queue } = await archiveQueue(store, count, evidence);
  const pool = Array.from({ length: workers }, () => queue.worker({ pollIntervalMs: 10 }));
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 1));
  const start = process.cpuUsage();
  await Promise.all(pool.map((w) => w.drain({ timeoutMs: 600_000 })));
  const used = process.cpuUsage(start);
  return { cpu: (used.user + used.system) / count, user: used.user / count };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

try {
  const store = await openStore(`file:${join(dir, "tx.db")}`);
  await drain(store, true);
  await drain(store, false);
  const costs: number[] = [];
  const userOn: number[] = [];
  const userOff: number[] = [];
  for (let p = 0; p < pairs; p++) {
    const on = p % 2 === 0 ? await drain(store, true) : undefined;
    const off = await drain(store, false);
    const onAfter = on ?? (await drain(store, true));
    costs.push(1 - off.cpu / onAfter.cpu);
    userOn.push(onAfter.user);
    userOff.push(off.user);
  }
  await store.close();
  const [low, high] = bootstrapInterval(costs);
  console.log(
    `${workers} worker(s), ${pairs} pairs of ${count} transactions: the evidence costs ${percent(mean(costs))} ` +
      `(90% interval ${percent(low)} to ${percent(high)}; median ${percent(median(costs))}); ` +
      `user µs per transaction on / off ${median(userOn).toFixed(1)} / ${median(userOff).toFixed(1)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
