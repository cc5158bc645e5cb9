/**
 * Runs every benchmark (`bench/*.bench.ts`), each in its own process so one cannot warm or slow
 * another. `npm run bench -- keys store` runs only the named ones; `npm run bench -- --smoke` runs
 * them all at tiny sizes (bench/support/bench-mode.ts) and fails unless each one exits cleanly and
 * prints a result table.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes("--smoke") || process.env.TABLEKIT_BENCH_SMOKE === "1";
const wanted = args.filter((a) => a !== "--smoke");
const benches = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

/** What console.table draws: the smoke run's evidence that a benchmark reached its results. */
const TABLE = /┌─.*\n│.*│/;
const SMOKE_TIMEOUT_MS = 120_000;

let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ["--import", "tsx", join(dir, file)], {
    stdio: smoke ? ["ignore", "pipe", "inherit"] : "inherit",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: smoke ? { ...process.env, TABLEKIT_BENCH_SMOKE: "1" } : process.env,
    ...(smoke ? { timeout: SMOKE_TIMEOUT_MS, killSignal: "SIGKILL" as const } : {}),
  });
  if (smoke) process.stdout.write(run.stdout ?? "");
  if (run.status !== 0) {
    failed++;
    console.error(`FAILED ${file}: exited with ${run.status ?? run.signal}`);
  } else if (smoke && !TABLE.test(run.stdout ?? "")) {
    failed++;
    console.error(`FAILED ${file}: printed no result table (console.table)`);
  }
}
if (benches.length === 0) console.log("no benchmarks matched");
if (smoke) console.log(`\nsmoke run: ${benches.length - failed} of ${benches.length} benchmarks passed`);
process.exitCode = failed ? 1 : 0;
