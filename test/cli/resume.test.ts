/** Interrupted and failed imports and exports, and how a rerun finishes them. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { type CliResult, cli, finished, ndjson, startCli, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const run = (args: string[]) => cli(args, { cwd: dir });
const ok = async (args: string[]) => {
  const r = await run(args);
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r;
};

function entityLines(count: number, partitions: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      PartitionKey: `p${Math.floor((i * partitions) / count)}`,
      RowKey: String(i).padStart(4, "0"),
      line: i + 1,
    }),
  );
}

/** Starts `args`, waits until the state file records `ready`, then kills the process with SIGKILL. */
async function killWhen(
  args: string[],
  statePath: string,
  ready: (state: Record<string, number>) => boolean,
): Promise<CliResult> {
  const child = startCli(args, { cwd: dir });
  const done = finished(child);
  let exited = false;
  void done.then(() => (exited = true));
  while (!exited) {
    if (existsSync(statePath)) {
      try {
        if (ready(JSON.parse(readFileSync(statePath, "utf8")))) child.kill("SIGKILL");
      } catch {
        // the state file is replaced by rename, but a read may still race its creation: look again
      }
    }
    await sleep(20);
  }
  return done;
}

async function keysOf(table: string): Promise<string[]> {
  return ndjson((await ok(["query", table, "-o", "ndjson", "--select", "line"])).stdout).map((e) =>
    String(e.RowKey),
  );
}

describe("resumable import and export", { timeout: 180_000 }, () => {
  it("a killed import resumes from its last committed line: every line present exactly once", async () => {
    const lines = entityLines(300, 3);
    writeFileSync(join(dir, "big.ndjson"), `${lines.join("\n")}\n`);
    const state = join(dir, "big.ndjson.tablekit-import.json");
    const args = ["import", "Big", "big.ndjson", "--batch-size", "10", "--pause", "50"];
    const killed = await killWhen(args, state, (s) => s.line! >= 60);
    expect(killed.signal).toBe("SIGKILL");
    const recorded = JSON.parse(readFileSync(state, "utf8"));
    expect(recorded.line).toBeGreaterThanOrEqual(60);
    expect(recorded.line).toBeLessThan(300);
    const partial = await keysOf("Big");
    // every committed line is there; nothing past the batch being written when killed
    expect(partial.length).toBeGreaterThanOrEqual(recorded.line);
    expect(partial.length).toBeLessThanOrEqual(recorded.line + 10);

    const resumed = await ok(["import", "Big", "big.ndjson", "--batch-size", "10"]);
    expect(resumed.stderr).toContain(`resuming after line ${recorded.line}`);
    expect(existsSync(state)).toBe(false);
    const all = await keysOf("Big");
    expect(all).toEqual(lines.map((_, i) => String(i).padStart(4, "0")));
    const entities = ndjson((await ok(["export", "Big"])).stdout);
    expect(entities.map((e) => e.line)).toEqual(lines.map((_, i) => i + 1));
  });

  it("an import of interleaved partitions killed three times finishes with every line written once", async () => {
    // 7 partitions in turn, rows repeating: transactions commit out of line order.
    const lines = Array.from({ length: 420 }, (_, i) =>
      JSON.stringify({ PartitionKey: `p${i % 7}`, RowKey: String(i % 140).padStart(3, "0"), line: i + 1 }),
    );
    writeFileSync(join(dir, "mixed.ndjson"), `${lines.join("\n")}\n`);
    const state = join(dir, "mixed.ndjson.tablekit-import.json");
    const args = ["import", "Mixed", "mixed.ndjson", "--batch-size", "10", "--window", "60", "--pause", "40"];
    /** Entities a recorded state counts as written: their line and Timestamp when the run was killed. */
    const recordedStamps = new Map<string, { line: unknown; stamp: unknown }>();
    for (const atLeast of [60, 150, 260]) {
      const killed = await killWhen(
        args,
        state,
        // Killed while the state records lines written out of order.
        (s) => s.entities! >= atLeast && (s.written as unknown as unknown[]).length > 0,
      );
      expect(killed.signal).toBe("SIGKILL");
      const recorded = JSON.parse(readFileSync(state, "utf8")) as {
        line: number;
        written: [number, number][];
      };
      const isRecorded = (line: number) =>
        line <= recorded.line || recorded.written.some(([a, b]) => a <= line && line <= b);
      for (const e of ndjson((await ok(["export", "Mixed"])).stdout)) {
        if (isRecorded(e.line as number))
          recordedStamps.set(`${e.PartitionKey}/${e.RowKey}`, { line: e.line, stamp: e.Timestamp });
      }
    }
    const resumed = await ok(["import", "Mixed", "mixed.ndjson", "--batch-size", "10", "--window", "60"]);
    expect(resumed.stderr).toMatch(/^resuming after line \d+ and \d+ lines written beyond it/m);
    expect(existsSync(state)).toBe(false);
    const final = ndjson((await ok(["export", "Mixed"])).stdout);
    // Every row holds its last line, and no line a state recorded as written was written again.
    const expected = new Map(
      lines.map((l) => JSON.parse(l)).map((e) => [`${e.PartitionKey}/${e.RowKey}`, e.line]),
    );
    expect(new Map(final.map((e) => [`${e.PartitionKey}/${e.RowKey}`, e.line]))).toEqual(expected);
    let unchanged = 0;
    for (const e of final) {
      const before = recordedStamps.get(`${e.PartitionKey}/${e.RowKey}`);
      if (before === undefined || before.line !== e.line) continue;
      expect(e.Timestamp, `line ${e.line}`).toBe(before.stamp);
      unchanged++;
    }
    expect(unchanged).toBeGreaterThan(0);
  });

  it("a bad line N stops the import with exactly lines 1..N-1 written; fixing it and rerunning finishes", async () => {
    const lines = entityLines(20, 2);
    const bad = [...lines];
    bad[12] = '{"PartitionKey":"p1","RowKey":"0012","line":"13","n@odata.type":"Edm.Int64","n":"12.5"}';
    writeFileSync(join(dir, "bad.ndjson"), `${bad.join("\n")}\n`);
    const check = await run(["import", "Bad", "bad.ndjson", "--check"]);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^error InvalidValueType: line 13: Property 'n'/m);
    expect((await run(["query", "Bad"])).stderr).toMatch(/^error TableNotFound/m);

    const r = await run(["import", "Bad", "bad.ndjson", "--batch-size", "5"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error InvalidValueType: line 13: /m);
    expect(await keysOf("Bad")).toEqual(lines.slice(0, 12).map((_, i) => String(i).padStart(4, "0")));
    expect(JSON.parse(readFileSync(join(dir, "bad.ndjson.tablekit-import.json"), "utf8")).line).toBe(12);

    writeFileSync(join(dir, "bad.ndjson"), `${lines.join("\n")}\n`);
    const fixed = await ok(["import", "Bad", "bad.ndjson", "--batch-size", "5"]);
    expect(fixed.stderr).toContain("resuming after line 12");
    expect(await keysOf("Bad")).toEqual(lines.map((_, i) => String(i).padStart(4, "0")));
  });

  it("reports a malformed CSV record by line and writes nothing past it", async () => {
    writeFileSync(join(dir, "bad.csv"), 'PartitionKey,RowKey,n@Edm.Int32\na,1,1\na,2,"2\na,3,3\n');
    const r = await run(["import", "BadCsv", "bad.csv"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error InvalidInput: line 3: a quoted field is not closed/m);
    expect(await keysOf("BadCsv")).toEqual(["1"]);
    writeFileSync(join(dir, "nokey.csv"), "PartitionKey,n\na,1\n");
    const noKey = await run(["import", "BadCsv", "nokey.csv", "--restart"]);
    expect(noKey.stderr).toMatch(/^error InvalidInput: line 1: the header has no RowKey column/m);
  });

  it("refuses to resume another job's state, and --restart starts afresh", async () => {
    writeFileSync(join(dir, "other.ndjson"), `${entityLines(4, 1).join("\n")}\n{bad\n`);
    expect((await run(["import", "Other", "other.ndjson"])).code).toBe(1);
    const mismatch = await run(["import", "Another", "other.ndjson"]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toMatch(
      /^error InvalidInput: .*other\.ndjson\.tablekit-import\.json records an unfinished import/m,
    );
    expect((await run(["import", "Another", "other.ndjson", "--restart"])).stderr).toMatch(
      /line 5: not valid JSON/,
    );
    expect(await keysOf("Another")).toHaveLength(4);
  });

  it("a killed export resumes from its last page and produces the same file as an uninterrupted one", async () => {
    writeFileSync(join(dir, "ex.ndjson"), `${entityLines(120, 4).join("\n")}\n`);
    await ok(["import", "Exported", "ex.ndjson"]);
    await ok(["export", "Exported", "--out", "whole.ndjson"]);
    const state = join(dir, "part.ndjson.tablekit-export.json");
    const args = ["export", "Exported", "--out", "part.ndjson", "--page-size", "10", "--pause", "100"];
    const killed = await killWhen(args, state, (s) => s.entities! >= 30);
    expect(killed.signal).toBe("SIGKILL");
    const resumed = await ok(["export", "Exported", "--out", "part.ndjson", "--page-size", "10"]);
    expect(resumed.stderr).toMatch(/^resuming after \d+ entities/m);
    expect(existsSync(state)).toBe(false);
    expect(readFileSync(join(dir, "part.ndjson"), "utf8")).toBe(
      readFileSync(join(dir, "whole.ndjson"), "utf8"),
    );
  });
});
