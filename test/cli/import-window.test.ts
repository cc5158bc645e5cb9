/**
 * The import's window and resume state in-process, on the embedded engine: interleaved partitions
 * are batched across the window, and an import stopped after ANY commit — before or after its
 * state was recorded — finishes on a rerun with every line written once (only the one transaction
 * committed but not yet recorded is written again). Real SIGKILLs are in resume.test.ts.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { csvField } from "../../src/cli/formats/csv.js";
import { ImportLedger, type ImportPosition, WrittenBefore } from "../../src/cli/transfer/import-ledger.js";
import { type ImportProgress, importRecords } from "../../src/cli/transfer/import-records.js";
import { type InputFormat, inputRecords } from "../../src/cli/transfer/input-records.js";
import { openStore, type Store, type Table } from "../../src/index.js";

const store: Store = await openStore("memory:");
afterAll(() => store.close());
let tables = 0;

async function freshTable(): Promise<Table> {
  const table = store.table(`Window${tables++}`);
  await table.createTable();
  return table;
}

interface Line {
  readonly pk: string;
  readonly rk: string;
  /** Whether the record holds a line break inside a quoted field (CSV only). */
  readonly multiLine: boolean;
}

/** The file's text, and the line each record starts on. */
function fileOf(lines: readonly (Line | null)[], format: InputFormat): { text: string; starts: number[] } {
  const out: string[] = format === "csv" ? ["PartitionKey,RowKey,n@Edm.Int32,note"] : [];
  const starts: number[] = [];
  let n = 0;
  for (const l of lines) {
    if (l === null) {
      out.push(""); // a blank line
      continue;
    }
    starts.push(out.length + 1);
    n++;
    if (format === "ndjson") out.push(JSON.stringify({ PartitionKey: l.pk, RowKey: l.rk, n }));
    else out.push(`${l.pk},${l.rk},${n},${l.multiLine ? csvField(`two\nlines ${n}`) : ""}`);
    if (l.multiLine && format === "csv") out.push(...out.pop()!.split("\n"));
  }
  return { text: `${out.join("\n")}\n`, starts };
}

/** The input in small chunks, as a file stream delivers it. */
async function* chunks(text: string): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0; i < bytes.length; i += 13) yield bytes.subarray(i, i + 13);
}

/** Which `n` each row ends with: the last record of each row wins. */
function expectedRows(lines: readonly (Line | null)[]): Map<string, number> {
  const rows = new Map<string, number>();
  let n = 0;
  for (const l of lines) if (l) rows.set(`${l.pk}/${l.rk}`, ++n);
  return rows;
}

async function rowsOf(table: Table): Promise<Map<string, number>> {
  const rows = new Map<string, number>();
  for await (const e of table.listEntities()) rows.set(`${e.partitionKey}/${e.rowKey}`, e.n as number);
  return rows;
}

class Killed extends Error {}

interface Run {
  /** The lines of each transaction committed, in order. */
  readonly commits: number[][];
  /** The last position recorded. */
  readonly recorded?: ImportPosition & { entities: number };
}

/** Imports the file, stopping at commit `killAt` (1-based), before or after recording it. */
async function run(
  table: Table,
  text: string,
  format: InputFormat,
  options: { batchSize: number; windowLines: number; windowBytes?: number },
  resumed?: ImportPosition & { entities: number },
  kill?: { at: number; recorded: boolean },
): Promise<Run> {
  const commits: number[][] = [];
  let recorded = resumed;
  try {
    await importRecords(inputRecords(chunks(text), format), {
      table,
      limits: store.capabilities.limits,
      mode: "Replace",
      ...options,
      ...(resumed ? { resumed } : {}),
      committed: (progress: ImportProgress) => {
        commits.push([...progress.committedLines]);
        const { committedLines: _, ...position } = progress;
        if (kill?.at === commits.length && !kill.recorded) throw new Killed();
        recorded = position;
        if (kill?.at === commits.length) throw new Killed();
      },
    });
  } catch (error) {
    if (!(error instanceof Killed)) throw error;
  }
  return { commits, ...(recorded ? { recorded } : {}) };
}

const lineArb = (partitions: number): fc.Arbitrary<Line | null> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 9,
      arbitrary: fc.record({
        pk: fc.integer({ min: 0, max: partitions - 1 }).map((p) => `p${p}`),
        rk: fc.integer({ min: 0, max: 11 }).map((r) => `r${r}`),
        multiLine: fc.boolean(),
      }),
    },
  );

const caseArb = fc.integer({ min: 1, max: 5 }).chain((partitions) =>
  fc.record({
    lines: fc.array(lineArb(partitions), { minLength: 1, maxLength: 40 }),
    format: fc.constantFrom<InputFormat>("ndjson", "csv"),
    batchSize: fc.integer({ min: 1, max: 8 }),
    windowLines: fc.integer({ min: 1, max: 30 }),
    windowBytes: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
  }),
);

describe("import ledger", () => {
  it("records the low-water mark and the written ranges after it, whatever the commit order", () => {
    const ledger = new ImportLedger();
    // Records on lines 1-6 (ten bytes each), then a blank line 7, then a record on lines 8-9.
    const slots = [1, 2, 3, 4, 5, 6].map((line) =>
      ledger.open({ line, endLine: line, offset: (line - 1) * 10, endOffset: line * 10 }),
    );
    ledger.reach(8, 70);
    slots.push(ledger.open({ line: 8, endLine: 9, offset: 70, endOffset: 90 }));
    const at = (...lines: number[]) => ledger.written(lines.map((l) => slots.find((s) => s.line === l)!));
    const written = () => ledger.position().written.map(([a, b]) => `${a}-${b}`);
    expect(ledger.position()).toEqual({ line: 0, offset: 0, written: [] });
    at(5);
    expect(written()).toEqual(["5-5"]);
    at(3);
    expect(written()).toEqual(["3-3", "5-5"]);
    at(8);
    expect(written()).toEqual(["3-3", "5-5", "8-9"]);
    at(4); // joins the ranges on both sides
    expect(written()).toEqual(["3-5", "8-9"]);
    at(2); // joins the range after it
    expect(written()).toEqual(["2-5", "8-9"]);
    at(6); // joins the range before it
    expect(written()).toEqual(["2-6", "8-9"]);
    at(1); // the low-water mark passes every range it reaches
    expect(ledger.position()).toEqual({ line: 9, offset: 90, written: [] });
  });

  it("tells which records an earlier run wrote", () => {
    const before = new WrittenBefore({
      line: 3,
      offset: 30,
      written: [
        [5, 6],
        [9, 9],
      ],
    });
    const covered = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((l) => before.covers(l, l));
    expect(covered).toEqual([1, 2, 3, 5, 6, 9]);
    expect(new WrittenBefore(undefined).covers(1, 1)).toBe(false);
  });
});

describe("import window and exact resume", () => {
  it("an import killed after any commit, recorded or not, finishes on a rerun writing every line once", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const { text, starts } = fileOf(c.lines, c.format);
        const options = {
          batchSize: c.batchSize,
          windowLines: c.windowLines,
          ...(c.windowBytes === undefined ? {} : { windowBytes: c.windowBytes }),
        };
        const expected = expectedRows(c.lines);
        const whole = await run(await freshTable(), text, c.format, options);
        expect(whole.commits.flat().sort((a, b) => a - b)).toEqual(starts);
        const points = whole.commits.length;
        for (let at = 1; at <= points; at++) {
          for (const recorded of [false, true]) {
            const table = await freshTable();
            const first = await run(table, text, c.format, options, undefined, { at, recorded });
            // The recorded state never lists more out-of-order lines than the window holds.
            const ahead = (first.recorded?.written ?? []).reduce((n, [a, b]) => n + b - a + 1, 0);
            expect(ahead).toBeLessThanOrEqual(c.windowLines * 2);
            // Its byte offset is where the line after the low-water mark starts.
            if (first.recorded) {
              const before = text.split("\n").slice(0, first.recorded.line);
              expect(first.recorded.offset).toBe(Buffer.byteLength(before.map((l) => `${l}\n`).join("")));
            }
            const second = await run(table, text, c.format, options, first.recorded);
            expect(await rowsOf(table)).toEqual(expected);
            const written = [...first.commits.flat(), ...second.commits.flat()].sort((a, b) => a - b);
            const twice = written.filter((line, i) => written[i - 1] === line);
            expect([...new Set(written)]).toEqual(starts);
            // Written twice: nothing, or the lines of the transaction the kill left unrecorded.
            expect(twice).toEqual(recorded ? [] : [...first.commits[at - 1]!].sort((a, b) => a - b));
          }
        }
      }),
      { numRuns: 100 },
    );
    // 100 generated files, each killed at every commit: 5 s alone, past 30 s beside the tarball test's compiles.
  }, 120_000);

  it("interleaved partitions fill whole transactions inside the window", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => ({ pk: `p${i % 5}`, rk: `r${i}`, multiLine: false }));
    const { text } = fileOf(lines, "ndjson");
    const { commits } = await run(await freshTable(), text, "ndjson", { batchSize: 100, windowLines: 1000 });
    expect(commits.map((c) => c.length)).toEqual([100, 100, 100, 100, 100]);
    // A window of 50 lines holds about 10 lines of each of the 5 partitions: transactions of 10-11.
    const small = await run(await freshTable(), text, "ndjson", { batchSize: 100, windowLines: 50 });
    expect(Math.max(...small.commits.map((c) => c.length))).toBe(11);
    expect(small.commits.slice(0, -5).every((c) => c.length >= 10)).toBe(true);
    expect(small.commits.flat()).toHaveLength(500);
    // A 2,000-byte cap (entity sizes by the service's formula) keeps fewer.
    const capped = await run(await freshTable(), text, "ndjson", {
      batchSize: 100,
      windowLines: 1000,
      windowBytes: 2000,
    });
    expect(Math.max(...capped.commits.map((c) => c.length))).toBeLessThan(100);
    expect(capped.commits.flat()).toHaveLength(500);
  });
});
