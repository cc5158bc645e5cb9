/**
 * `tablekit import` of NDJSON whose partitions are interleaved (lines cycling over 50 partitions,
 * as exports of other systems come) against the same lines sorted by partition, in the same run,
 * each import a child process of its own writing a fresh file: store. Target: interleaved at least
 * 0.7x the speed of sorted. Also the memory each import peaked at, for 100,000 and 1,000,000
 * lines: the import's window bounds it whatever the file size. CPU seconds (user + system, the
 * import's process) are shown beside wall-clock seconds: a busy machine disturbs them less.
 * Run: npx tsx bench/import.bench.ts
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rounds, sized } from "./support/bench-mode.js";

const LINES = sized(100_000, 2_000);
const BIG = sized(1_000_000, 5_000);
const PARTITIONS = 50;
const ROUNDS = rounds(3);

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tablekit-import-bench-"));

interface Measured {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly maxRssMiB: number;
  readonly peakHeapMiB: number;
}

/** Writes `count` entity lines cycling over the partitions, or the same lines sorted by partition. */
function writeInput(name: string, count: number, order: "interleaved" | "sorted"): string {
  const line = (i: number) =>
    JSON.stringify({
      PartitionKey: `customer${String(i % PARTITIONS).padStart(3, "0")}`,
      RowKey: String(i).padStart(10, "0"),
      name: `Customer number ${i}`,
      email: `customer${i}@example.com`,
      age: 20 + (i % 60),
      score: i * 0.5 + 0.25,
      active: i % 2 === 0,
    });
  const order_ =
    order === "interleaved"
      ? Array.from({ length: count }, (_, i) => i)
      : Array.from({ length: count }, (_, i) => i).sort(
          (a, b) => (a % PARTITIONS) - (b % PARTITIONS) || a - b,
        );
  const path = join(dir, name);
  const chunk = 10_000;
  writeFileSync(path, "");
  for (let at = 0; at < count; at += chunk) {
    writeFileSync(
      path,
      `${order_
        .slice(at, at + chunk)
        .map(line)
        .join("\n")}\n`,
      { flag: "a" },
    );
  }
  return path;
}

let runs = 0;
/** Imports `file` into a fresh store in a child process. */
function importFile(file: string, extra: string[] = []): Measured {
  const store = `file:${join(dir, `store${runs++}.db`)}`;
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      join(here, "support", "cli-child.ts"),
      "import",
      "Bench",
      file,
      "--store",
      store,
      "--no-progress",
      ...extra,
    ],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`import of ${file} failed: ${child.stderr}`);
  rmSync(store.slice(5), { force: true });
  rmSync(`${store.slice(5)}-wal`, { force: true });
  rmSync(`${store.slice(5)}-shm`, { force: true });
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Measured;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (n: number) => `${n.toFixed(0)} MiB`;
const rate = (count: number, seconds: number) => Math.round(count / seconds).toLocaleString("en-US");

try {
  const sorted = writeInput("sorted.ndjson", LINES, "sorted");
  const interleaved = writeInput("interleaved.ndjson", LINES, "interleaved");
  const cases = [
    { name: "sorted by partition", file: sorted, extra: [] as string[] },
    { name: "interleaved (50 partitions in turn)", file: interleaved, extra: [] as string[] },
    { name: "interleaved, --window 1000", file: interleaved, extra: ["--window", "1000"] },
  ];
  const results = cases.map(() => [] as Measured[]);
  // Rounds alternate the cases, so a busy machine slows all of them alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of cases.entries()) results[i]!.push(importFile(c.file, c.extra));
  }
  const sortedSeconds = median(results[0]!.map((r) => r.seconds));
  const sortedCpu = median(results[0]!.map((r) => r.cpuSeconds));
  console.log(
    `\nimport of ${LINES.toLocaleString("en-US")} NDJSON lines (median of ${ROUNDS}; target: interleaved >= 0.7x sorted)`,
  );
  console.table(
    cases.map((c, i) => {
      const seconds = median(results[i]!.map((r) => r.seconds));
      const cpu = median(results[i]!.map((r) => r.cpuSeconds));
      return {
        input: c.name,
        seconds: seconds.toFixed(2),
        "entities/s": rate(LINES, seconds),
        "vs sorted": `${(sortedSeconds / seconds).toFixed(2)}x`,
        "CPU s": cpu.toFixed(2),
        "CPU vs sorted": `${(sortedCpu / cpu).toFixed(2)}x`,
        "peak RSS": mib(Math.max(...results[i]!.map((r) => r.maxRssMiB))),
        "peak heap": mib(Math.max(...results[i]!.map((r) => r.peakHeapMiB))),
      };
    }),
  );

  // Memory against file size: the same interleaved and sorted imports, ten times the lines.
  const big = [
    { name: "interleaved", file: writeInput("big-interleaved.ndjson", BIG, "interleaved") },
    { name: "sorted", file: writeInput("big-sorted.ndjson", BIG, "sorted") },
  ];
  const small = { interleaved: results[1]!, sorted: results[0]! };
  const bigRows = big.map((b) => {
    const m = importFile(b.file);
    const s = small[b.name as keyof typeof small];
    return {
      input: b.name,
      [`${LINES.toLocaleString("en-US")} lines: peak RSS`]: mib(Math.max(...s.map((r) => r.maxRssMiB))),
      [`${BIG.toLocaleString("en-US")} lines: peak RSS`]: mib(m.maxRssMiB),
      [`${LINES.toLocaleString("en-US")} lines: peak heap`]: mib(Math.max(...s.map((r) => r.peakHeapMiB))),
      [`${BIG.toLocaleString("en-US")} lines: peak heap`]: mib(m.peakHeapMiB),
      [`${BIG.toLocaleString("en-US")} lines: entities/s`]: rate(BIG, m.seconds),
    };
  });
  console.log("\nmemory against file size (the window bounds it)");
  console.table(bigRows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
