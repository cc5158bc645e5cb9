/**
 * Runs every benchmark (`bench/*.bench.ts`), each in its own process so one cannot warm or slow
 * another. `npm run bench -- keys store` runs only the named ones.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ["--import", "tsx", join(dir, file)], { stdio: "inherit" });
  if (run.status !== 0) {
    failed++;
    console.error(`${file} exited with ${run.status ?? run.signal}`);
  }
}
if (benches.length === 0) console.log("no benchmarks matched");
process.exitCode = failed ? 1 : 0;
