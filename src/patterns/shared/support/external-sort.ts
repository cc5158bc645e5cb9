import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/**
 * Sorts more items than memory should hold: items collect in a run of at most `runSize`; a full
 * run is sorted and written to a temporary file (one JSON line per item); `sorted()` merges the
 * runs, reading one line of each at a time. Memory: one run, plus one item per run while merging.
 */
export class ExternalSorter<T> {
  private run: T[] = [];
  private readonly files: string[] = [];
  private dir: string | undefined;
  /** How many runs went to disk (for reports and tests). */
  spilledRuns = 0;

  constructor(
    private readonly compare: (a: T, b: T) => number,
    private readonly runSize: number,
  ) {}

  add(item: T): void {
    this.run.push(item);
    if (this.run.length >= this.runSize) this.spill();
  }

  private spill(): void {
    if (this.run.length === 0) return;
    this.run.sort(this.compare);
    this.dir ??= mkdtempSync(join(tmpdir(), "tablekit-sort-"));
    const file = join(this.dir, `run-${this.files.length}.ndjson`);
    writeFileSync(file, `${this.run.map((item) => JSON.stringify(item)).join("\n")}\n`);
    this.files.push(file);
    this.spilledRuns++;
    this.run = [];
  }

  /** Every item added, in order; the temporary files are removed when the iteration ends. */
  async *sorted(): AsyncGenerator<T> {
    this.run.sort(this.compare);
    const sources: AsyncIterator<T>[] = [
      ...this.files.map((f) => readLines<T>(f)),
      (async function* (items: T[]) {
        yield* items;
      })(this.run),
    ];
    try {
      const heads = await Promise.all(sources.map((s) => s.next()));
      for (;;) {
        let best = -1;
        for (let i = 0; i < heads.length; i++) {
          const h = heads[i]!;
          if (h.done) continue;
          if (best < 0 || this.compare(h.value, (heads[best] as IteratorYieldResult<T>).value) < 0) best = i;
        }
        if (best < 0) return;
        yield (heads[best] as IteratorYieldResult<T>).value;
        heads[best] = await sources[best]!.next();
      }
    } finally {
      for (const s of sources) await s.return?.();
      if (this.dir) rmSync(this.dir, { recursive: true, force: true });
      this.dir = undefined;
    }
  }
}

async function* readLines<T>(file: string): AsyncGenerator<T> {
  const lines = createInterface({
    input: createReadStream(file, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  try {
    for await (const line of lines) if (line !== "") yield JSON.parse(line) as T;
  } finally {
    lines.close();
  }
}
