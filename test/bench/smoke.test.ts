/**
 * Every benchmark runs in smoke mode (tiny sizes, one round) and prints its result table, so a
 * benchmark that breaks fails CI instead of waiting for the next measuring run.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkIds, IdRuns } from "../../bench/support/id-runs.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Runs a script of bench/ through tsx: its exit code and everything it printed. */
function runBench(
  file: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "bench", file), ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => done({ code, output }));
  });
}

describe("benchmarks", () => {
  it("npm run bench -- --smoke runs every benchmark to its result table", { timeout: 600_000 }, async () => {
    const benches = readdirSync(join(root, "bench")).filter((f) => f.endsWith(".bench.ts"));
    expect(benches.length).toBeGreaterThan(0);
    const { code, output } = await runBench("run.ts", ["--smoke"]);
    expect(code, output).toBe(0);
    for (const file of benches) expect(output).toContain(`=== ${file} ===`);
    expect(output).toContain(`smoke run: ${benches.length} of ${benches.length} benchmarks passed`);
  });

  it("the data-tables benchmark runs its four rows on both engines at smoke size", {
    timeout: 120_000,
  }, async () => {
    const { code, output } = await runBench("data-tables.bench.ts", ["--smoke"]);
    expect(code, output).toBe(0);
    const rows = ["'upsert'", "'point read'", "'query of a 50-row partition'", "'transaction of 10 upserts'"];
    for (const row of rows) expect(output.split(row).length - 1, row).toBe(2);
    for (const engine of ["'memory:'", "'file:'"]) expect(output).toContain(engine);
    expect(output).toContain("not judged (smoke run)");
  });

  it("the storage-queue benchmark runs its two rows on both engines at smoke size", {
    timeout: 120_000,
  }, async () => {
    const { code, output } = await runBench("storage-queue.bench.ts", ["--smoke"]);
    expect(code, output).toBe(0);
    for (const row of ["'sendMessage'", "'receiveMessages + deleteMessage'"]) {
      expect(output.split(row).length - 1, row).toBe(2);
    }
    expect(output).toContain("not judged (smoke run)");
  });

  it("the evidence A/B tool runs to its line", { timeout: 120_000 }, async () => {
    const { code, output } = await runBench("transactions-evidence.ts", ["2", "2", "20"]);
    expect(code, output).toBe(0);
    expect(output).toMatch(/^2 worker\(s\), 2 pairs of 20 transactions: the evidence costs -?\d+\.\d%/);
  });

  it("the blob-listing row of the server benchmark runs to its rows and goals", {
    timeout: 300_000,
  }, async () => {
    const { code, output } = await runBench("server.bench.ts", [], {
      TABLEKIT_BENCH_SMOKE: "1",
      TABLEKIT_SERVER_BENCH_ONLY: "listing",
    });
    expect(code, output).toBe(0);
    for (const row of [
      "list 400 blobs flat: whole listing ms (pages)",
      "list 400 blobs delimiter=.: median / slowest page ms",
      "list 400 blobs delimiter=.: longest wait of another client ms (probes)",
      "listing 400 blobs: another client waits < 50 ms",
    ])
      expect(output).toContain(row);
  });

  it("checks more ids for duplicates than a Set can hold", () => {
    // 2^24 + 1 ids: one past what a Set holds (the RangeError the ids benchmark used to hit).
    const count = 2 ** 24 + 1;
    const a = new IdRuns();
    const b = new IdRuns();
    for (let id = 1; id <= count; id++) (id % 1000 < 500 ? a : b).add(id);
    expect(a.count + b.count).toBe(count);
    expect(checkIds([a, b], count)).toEqual({ duplicates: 0, inRange: true });
    expect(checkIds([a, b], count - 1)).toEqual({ duplicates: 0, inRange: false });
    b.add(7);
    b.add(8);
    expect(checkIds([a, b], count)).toEqual({ duplicates: 2, inRange: true });
  });
});
