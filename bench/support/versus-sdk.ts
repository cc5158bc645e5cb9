/**
 * Measures a backend against raw SDK calls on the same server: short rounds that alternate which
 * side goes first, so drift (tables grow, the machine is shared) affects both alike; the first
 * round warms up. Reports medians: ops/s and the overhead ratio (wall clock), this process's CPU
 * per operation, and — when the server's CPU can be read — the server's CPU per operation and the
 * ratio of client plus server CPU. On a shared, loaded machine wall-clock ratios swing with the
 * load; CPU time does not, and client plus server CPU is what the wall clock of a quiet machine
 * adds up to (the two take turns: one request at a time).
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

export interface VersusSdkOptions {
  /** The server's CPU time so far in µs (undefined when it cannot be read). */
  readonly serverCpu?: () => number | undefined;
}

interface Sample {
  readonly seconds: number;
  /** This process's CPU time, µs. */
  readonly cpu: number;
  /** The server's CPU time, µs. */
  readonly server: number | undefined;
}

async function timed(fn: () => Promise<void>, serverCpu: () => number | undefined): Promise<Sample> {
  const server = serverCpu();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - start) / 1000;
  const serverAfter = serverCpu();
  return {
    seconds,
    cpu: used.user + used.system,
    server: server === undefined || serverAfter === undefined ? undefined : serverAfter - server,
  };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const micros = (x: number) => (x < 100 ? Number(x.toFixed(1)) : Math.round(x));

/** Runs every case and returns one table row each. */
export async function versusSdk(
  cases: readonly VersusSdkCase[],
  options: VersusSdkOptions = {},
): Promise<Record<string, string | number>[]> {
  const serverCpu = options.serverCpu ?? (() => undefined);
  const rows = [];
  for (const c of cases) {
    const raw: Sample[] = [];
    const tk: Sample[] = [];
    for (let round = 0; round <= c.rounds; round++) {
      const first = round % 2 === 0 ? c.raw : c.tablekit;
      const second = round % 2 === 0 ? c.tablekit : c.raw;
      const a = await timed(() => first(round), serverCpu);
      const b = await timed(() => second(round), serverCpu);
      if (round > 0) {
        raw.push(round % 2 === 0 ? a : b);
        tk.push(round % 2 === 0 ? b : a);
      }
    }
    const opsPerSecond = (xs: Sample[]) => median(xs.map((x) => c.ops / x.seconds));
    const clientCpu = (xs: Sample[]) => median(xs.map((x) => x.cpu / c.ops));
    const rawOps = opsPerSecond(raw);
    const tkOps = opsPerSecond(tk);
    const row: Record<string, string | number> = {
      case: c.name,
      "raw ops/s": Math.round(rawOps).toLocaleString("en-US"),
      "tablekit ops/s": Math.round(tkOps).toLocaleString("en-US"),
      overhead: ratio(rawOps, tkOps),
      "client CPU µs/op raw": micros(clientCpu(raw)),
      "client CPU µs/op tablekit": micros(clientCpu(tk)),
      "client CPU ratio": ratio(clientCpu(tk), clientCpu(raw)),
    };
    if (raw.every((x) => x.server !== undefined) && tk.every((x) => x.server !== undefined)) {
      const serverCpuPerOp = (xs: Sample[]) => median(xs.map((x) => x.server! / c.ops));
      const totalCpu = (xs: Sample[]) => median(xs.map((x) => (x.cpu + x.server!) / c.ops));
      row["server CPU µs/op raw"] = micros(serverCpuPerOp(raw));
      row["server CPU µs/op tablekit"] = micros(serverCpuPerOp(tk));
      row["client+server CPU ratio"] = ratio(totalCpu(tk), totalCpu(raw));
    }
    rows.push(row);
  }
  return rows;
}
