/**
 * Runs every benchmark (`bench/*.bench.ts`), each in its own process so one cannot warm or slow
 * another. `npm run bench -- keys store` runs only the named ones; `npm run bench -- --smoke` runs
 * them all at tiny sizes (bench/support/bench-mode.ts), three at a time since their numbers do not
 * matter, and fails unless each one exits cleanly and prints a result table.
 */
import { spawn, spawnSync } from "node:child_process";
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
// The server benchmark starts Azurite and serve twice over (tables, then queues and blobs): minutes on a loaded machine.
const SMOKE_TIMEOUT_MS = 300_000;
const SMOKE_CONCURRENCY = 3;

/** Runs one benchmark in smoke mode; resolves with its output and what went wrong, if anything. */
function smokeRun(file: string): Promise<{ output: string; failure?: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(dir, file)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, TABLEKIT_BENCH_SMOKE: "1" },
  });
  let stdout = "";
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
    output += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), SMOKE_TIMEOUT_MS);
  return new Promise((done) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) done({ output, failure: `exited with ${code ?? signal}` });
      else if (!TABLE.test(stdout)) done({ output, failure: "printed no result table (console.table)" });
      else done({ output });
    });
  });
}

let failed = 0;
if (smoke) {
  const results = new Map<string, Promise<{ output: string; failure?: string }>>();
  let next = 0;
  const startNext = (): Promise<void> | undefined => {
    const file = benches[next++];
    if (file === undefined) return undefined;
    const result = smokeRun(file);
    results.set(file, result);
    return result.then(() => startNext());
  };
  await Promise.all(Array.from({ length: SMOKE_CONCURRENCY }, startNext));
  for (const file of benches) {
    const { output, failure } = await results.get(file)!;
    console.log(`\n=== ${file} ===\n${output}`);
    if (failure) {
      failed++;
      console.error(`FAILED ${file}: ${failure}`);
    }
  }
  console.log(`\nsmoke run: ${benches.length - failed} of ${benches.length} benchmarks passed`);
} else {
  for (const file of benches) {
    console.log(`\n=== ${file} ===`);
    const run = spawnSync(process.execPath, ["--import", "tsx", join(dir, file)], { stdio: "inherit" });
    if (run.status !== 0) {
      failed++;
      console.error(`${file} exited with ${run.status ?? run.signal}`);
    }
  }
}
if (benches.length === 0) console.log("no benchmarks matched");
process.exitCode = failed ? 1 : 0;
