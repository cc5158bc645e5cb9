/**
 * Measures a backend against raw SDK calls on the same server: short rounds that alternate which
 * side goes first, so drift (tables grow, the machine is shared) affects both alike; the first
 * round warms up. Reports median ops/s, the overhead ratio and this process's CPU per operation
 * (the server runs in its own process).
 */

export interface VersusSdkCase {
  readonly name: string;
  /** Operations one call of `raw`/`tablekit` performs. */
  readonly ops: number;
  /** Measured rounds (after one warm-up round). */
  readonly rounds: number;
  readonly raw: (round: number) => Promise<void>;
  readonly tablekit: (round: number) => Promise<void>;
}

/** Wall-clock seconds, and this process's CPU time in µs. */
async function timed(fn: () => Promise<void>): Promise<{ seconds: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - start) / 1000, cpu: used.user + used.system };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs every case and returns one table row each. */
export async function versusSdk(cases: readonly VersusSdkCase[]): Promise<Record<string, string | number>[]> {
  const rows = [];
  for (const c of cases) {
    const raw: number[] = [];
    const tk: number[] = [];
    const rawCpu: number[] = [];
    const tkCpu: number[] = [];
    for (let round = 0; round <= c.rounds; round++) {
      const first = round % 2 === 0 ? c.raw : c.tablekit;
      const second = round % 2 === 0 ? c.tablekit : c.raw;
      const a = await timed(() => first(round));
      const b = await timed(() => second(round));
      if (round > 0) {
        const [r, t] = round % 2 === 0 ? [a, b] : [b, a];
        raw.push(c.ops / r.seconds);
        tk.push(c.ops / t.seconds);
        rawCpu.push(r.cpu / c.ops);
        tkCpu.push(t.cpu / c.ops);
      }
    }
    const rawOps = median(raw);
    const tkOps = median(tk);
    rows.push({
      case: c.name,
      "raw SDK ops/s": Math.round(rawOps).toLocaleString("en-US"),
      "tablekit ops/s": Math.round(tkOps).toLocaleString("en-US"),
      overhead: `${(rawOps / tkOps).toFixed(2)}x`,
      "client CPU µs/op raw": Math.round(median(rawCpu)),
      "client CPU µs/op tablekit": Math.round(median(tkCpu)),
      "CPU ratio": `${(median(tkCpu) / median(rawCpu)).toFixed(2)}x`,
    });
  }
  return rows;
}
