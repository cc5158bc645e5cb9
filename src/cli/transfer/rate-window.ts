/**
 * Rates and an ETA smoothed over a time window: the amount done per second over the last
 * `windowMs`, so a burst (a partition's window flushed at once) or a pause moves the estimate a
 * little, not from hours to a second and back.
 */
export class RateWindow {
  private readonly samples: { at: number; done: number; entities: number }[] = [];

  constructor(private readonly windowMs = 10_000) {}

  /** Records the amounts done at `at` (milliseconds, any monotonic clock). */
  add(at: number, done: number, entities: number): void {
    this.samples.push({ at, done, entities });
    // Keep one sample at or before the window's start, so the window is always fully covered.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  /** Units of `done` per second over the window; undefined before a second of data. */
  get rate(): number | undefined {
    return this.perSecond((s) => s.done);
  }

  /** Entities per second over the window; undefined before a second of data. */
  get entityRate(): number | undefined {
    return this.perSecond((s) => s.entities);
  }

  /** Seconds left to reach `total` at the window's rate; undefined while unknown. */
  eta(total: number): number | undefined {
    const rate = this.rate;
    const last = this.samples.at(-1);
    if (rate === undefined || rate <= 0 || !last) return undefined;
    return Math.max(0, (total - last.done) / rate);
  }

  private perSecond(amount: (s: { done: number; entities: number }) => number): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 1000) return undefined;
    return ((amount(last) - amount(first)) * 1000) / (last.at - first.at);
  }
}

/** 12.3 MB, 980 kB, 512 B: decimal units, as rates in MB/s are read. */
export function humanBytes(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ${units[unit]}`;
}

/** 8,120 or 4.2M: a count, grouped, and compact past ten million. */
export function humanCount(n: number): string {
  const whole = Math.round(n);
  if (whole < 10_000_000) return whole.toLocaleString("en-US");
  return new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(whole);
}

/** 7s, 4m05s, 2h03m; `…` while unknown. */
export function humanDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return "…";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
