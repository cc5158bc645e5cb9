/**
 * Runs one `tablekit` command in this process and prints, as the last line of stdout, how long it
 * took (wall clock, and this process's CPU) and the most memory it used:
 * `{"seconds":…,"cpuSeconds":…,"maxRssMiB":…,"peakHeapMiB":…}`. Benchmarks of
 * CLI commands start it as a child, so each measurement has a process of its own.
 * Usage: node --import tsx bench/support/cli-child.ts import Orders orders.ndjson …
 */
import { buildProgram } from "../../src/cli/program.js";

let peakHeap = 0;
const sample = () => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};
const sampler = setInterval(sample, 10);
const start = performance.now();
const cpu = process.cpuUsage();
await buildProgram("bench").parseAsync(["node", "tablekit", ...process.argv.slice(2)]);
const seconds = (performance.now() - start) / 1000;
const used = process.cpuUsage(cpu);
clearInterval(sampler);
sample();
const MiB = 1024 * 1024;
console.log(
  JSON.stringify({
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    maxRssMiB: (process.resourceUsage().maxRSS * 1024) / MiB,
    peakHeapMiB: peakHeap / MiB,
  }),
);
