/**
 * The progress bar: human units, rates per second, and an ETA smoothed over a window that does
 * not jump with each burst of commits; and the real bar of `tablekit import` on a terminal.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { progressText } from "../../src/cli/transfer/progress.js";
import { humanBytes, humanCount, humanDuration, RateWindow } from "../../src/cli/transfer/rate-window.js";
import { LAUNCH, STORE_VARIABLES, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

describe("progress units", () => {
  it("bytes in decimal units, counts grouped, durations as 7s, 4m05s, 2h03m", () => {
    expect([512, 980_000, 12_345_678, 2.5e9].map(humanBytes)).toEqual([
      "512 B",
      "980 kB",
      "12.3 MB",
      "2.50 GB",
    ]);
    expect([8120, 1_234_567, 42_000_000].map(humanCount)).toEqual(["8,120", "1,234,567", "42M"]);
    expect([7.4, 245, 7380, undefined].map(humanDuration)).toEqual(["7s", "4m05s", "2h03m", "…"]);
  });

  it("an import's bar shows bytes of the total, entities, both rates and the ETA", () => {
    const window = new RateWindow();
    window.add(0, 0, 0);
    window.add(2000, 4_200_000, 8_400);
    const text = progressText(
      { unit: "bytes", countsEntities: true, total: 27_400_000 },
      4_200_000,
      8_400,
      window,
    );
    expect(text).toBe("4.20 MB of 27.4 MB | 8,400 entities | 4,200 entities/s, 2.10 MB/s | ETA 11s");
  });

  it("says the ETA is unknown until a second of work has been seen", () => {
    const window = new RateWindow();
    window.add(0, 0, 0);
    window.add(400, 1_000_000, 10);
    expect(progressText({ unit: "entities", total: 100 }, 10, 10, window)).toBe("10 of 100 entities | ETA …");
  });
});

describe("a smoothed ETA", () => {
  /**
   * A 60 s import at 1 MB/s on average, committed in bursts: nothing for 2.5 s, then 2.5 MB at
   * once (a partition's window flushed), with progress reported every 100 ms.
   */
  function burstyRun(): { at: number; done: number }[] {
    const samples: { at: number; done: number }[] = [];
    for (let at = 0; at <= 60_000; at += 100) samples.push({ at, done: Math.floor(at / 2500) * 2_500_000 });
    return samples;
  }
  const total = 60_000_000;

  it("stays near the truth and moves little between updates, where a one-second rate swings wildly", () => {
    const window = new RateWindow(10_000);
    // What an ETA from the last second alone would say (cli-progress's ten-update buffer comes close).
    const shortWindow = new RateWindow(1000);
    let previous: number | undefined;
    let largestStep = 0;
    const shortEtas: number[] = [];
    for (const s of burstyRun()) {
      window.add(s.at, s.done, 0);
      shortWindow.add(s.at, s.done, 0);
      const eta = window.eta(total);
      const truth = (60_000 - s.at) / 1000;
      if (s.at >= 12_000 && s.at <= 55_000) {
        expect(eta, `at ${s.at} ms`).toBeGreaterThan(truth * 0.7 - 3);
        expect(eta, `at ${s.at} ms`).toBeLessThan(truth * 1.3 + 3);
        if (previous !== undefined) largestStep = Math.max(largestStep, Math.abs(eta! - previous));
        shortEtas.push(shortWindow.eta(total) ?? Number.POSITIVE_INFINITY);
      }
      previous = eta;
    }
    // A burst moves it by about its own size (2.5 s of work), never by hours.
    expect(largestStep).toBeLessThanOrEqual(3);
    expect(Math.max(...shortEtas) / Math.min(...shortEtas)).toBeGreaterThan(10);
  });
});

describe("tablekit import on a terminal", { timeout: 60_000 }, () => {
  it("draws the bar with entities/s, MB/s (or kB/s) and an ETA", () => {
    const lines = Array.from({ length: 400 }, (_, i) =>
      JSON.stringify({
        PartitionKey: `p${i % 4}`,
        RowKey: String(i).padStart(4, "0"),
        text: "x".repeat(200),
      }),
    );
    writeFileSync(join(dir, "rows.ndjson"), `${lines.join("\n")}\n`);
    const command = [
      process.execPath,
      ...LAUNCH,
      "import",
      "Rows",
      "rows.ndjson",
      "--store",
      "file:./p.db",
      "--batch-size",
      "50",
      "--pause",
      "300",
    ]
      .map((w) => `'${w}'`)
      .join(" ");
    const env = { ...process.env };
    for (const name of STORE_VARIABLES) delete env[name];
    // `script` gives the command a terminal, so the bar is drawn as a user sees it.
    const screen = execFileSync("script", ["-qec", command, "/dev/null"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...env, COLUMNS: "200", NO_COLOR: "1" },
    });
    expect(screen).toContain("imported 400 entities into Rows");
    expect(screen).toMatch(
      /import Rows \[[█░]+\] \d+% \| [\d.]+ kB of [\d.]+ kB \| [\d,]+ entities \| [\d,]+ entities\/s, [\d.]+ (kB|MB)\/s \| ETA (…|\d+s)/,
    );
  });
});
