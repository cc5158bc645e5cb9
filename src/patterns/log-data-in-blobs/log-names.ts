import { TableKitError } from "../../model/index.js";

/** Periods that divide an hour, so every period starts at a minute the name can show. */
const PERIODS = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60] as const;
export type PeriodMinutes = (typeof PERIODS)[number];

const SOURCE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62})$/;
/** `000001.log` (an append blob shared by writers) or `000001-<writer>.log` (one writer's block blob). */
const FILE = /^(\d{6})(?:-([a-z0-9]{1,32}))?\.log$/;
const MAX_NUMBER = 999_999;

/** The time fields of a log blob's name: yyyy / MM / dd / HH mm, each with what follows it. */
interface TimeField {
  readonly width: number;
  readonly separator: string;
  /** The values the field takes, given the fields before it. */
  readonly domain: (fixed: readonly number[], periodMinutes: number) => readonly [number, number, number];
}

const FIELDS: readonly TimeField[] = [
  { width: 4, separator: "/", domain: () => [0, 9999, 1] },
  { width: 2, separator: "/", domain: () => [1, 12, 1] },
  { width: 2, separator: "/", domain: ([y, m]) => [1, daysInMonth(y!, m!), 1] },
  { width: 2, separator: "", domain: () => [0, 23, 1] },
  { width: 2, separator: "/", domain: (_, period) => [0, 59, period] },
];

/** Milliseconds of the instant a prefix of (year, month, day, hour, minute) starts, in UTC. */
function startOf(values: readonly number[]): number {
  const [y, m = 1, d = 1, h = 0, min = 0] = values;
  const t = new Date(0);
  t.setUTCFullYear(y!, m - 1, d);
  t.setUTCHours(h, min, 0, 0);
  return t.getTime();
}

/** The instant after a value of field `level` ends (the next value's start; overflow rolls over). */
function endOf(values: readonly number[], level: number, periodMinutes: number): number {
  const next = [...values];
  next[level] = next[level]! + (level === 4 ? periodMinutes : 1);
  return startOf(next);
}

function daysInMonth(year: number, month: number): number {
  return new Date(startOf([year, month + 1]) - 1).getUTCDate();
}

/** `n mod m` for negative `n` too (instants before 1970). */
function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/**
 * Names of a log source's blobs, by time: `<source>/<yyyy>/<MM>/<dd>/<HHmm>/<000001>.log`, the
 * period (`periodMinutes`, dividing an hour) as its start, in UTC, as Storage Analytics names its
 * logs (seed 001: `queue/2014/07/31/1800/000001.log`).
 */
export class LogNames {
  /** The last period named: consecutive records mostly share it. */
  private last: { start: number; folder: string } | undefined;

  constructor(
    readonly source: string,
    readonly periodMinutes: PeriodMinutes,
  ) {
    if (typeof source !== "string" || !SOURCE.test(source)) {
      throw new TableKitError(
        "InvalidInput",
        `A log source is 1-63 letters, digits, '_' or '-', starting with a letter or digit; got ${JSON.stringify(source)}`,
      );
    }
    if (!PERIODS.includes(periodMinutes)) {
      throw new TableKitError(
        "InvalidInput",
        `periodMinutes must divide an hour (${PERIODS.join(", ")}), got ${periodMinutes}`,
      );
    }
  }

  /** The folder of the period holding `ms`: `<source>/yyyy/MM/dd/HHmm/`. */
  periodOf(ms: number): string {
    const last = this.last;
    if (last && ms >= last.start && ms < last.start + this.periodMinutes * 60_000) return last.folder;
    const folder = this.folderOf(ms);
    this.last = { start: ms - mod(ms, this.periodMinutes * 60_000), folder };
    return folder;
  }

  private folderOf(ms: number): string {
    const t = new Date(ms);
    const year = t.getUTCFullYear();
    if (!(year >= 0 && year <= 9999)) {
      throw new TableKitError(
        "OutOfRangeInput",
        `A log time must be in the years 0000-9999, got ${t.toISOString()}`,
      );
    }
    const minute = t.getUTCMinutes() - (t.getUTCMinutes() % this.periodMinutes);
    return (
      `${this.source}/${pad(year, 4)}/${pad(t.getUTCMonth() + 1, 2)}/${pad(t.getUTCDate(), 2)}/` +
      `${pad(t.getUTCHours(), 2)}${pad(minute, 2)}/`
    );
  }

  /** A blob of a period: `<period>000001.log`, or `<period>000001-<writer>.log`. */
  blobName(period: string, number: number, writer?: string): string {
    if (number < 1 || number > MAX_NUMBER) {
      throw new TableKitError("OutOfRangeInput", `A period holds at most ${MAX_NUMBER} log blobs`, {
        details: { period },
      });
    }
    return `${period}${pad(number, 6)}${writer === undefined ? "" : `-${writer}`}.log`;
  }

  /** The number and writer of a log blob of this source; undefined for any other name. */
  parse(name: string): { number: number; writer?: string } | undefined {
    const slash = name.lastIndexOf("/");
    const match = FILE.exec(name.slice(slash + 1));
    if (!match || !name.startsWith(`${this.source}/`)) return undefined;
    return { number: Number(match[1]), ...(match[2] === undefined ? {} : { writer: match[2] }) };
  }

  /**
   * The fewest name prefixes whose blobs hold every period overlapping [from, to): a whole year is
   * `src/2014/`, a whole day `src/2014/07/31/`, days 10-19 `src/2014/07/1`, an hour `…/31/15`,
   * minutes 30-39 `…/31/153`. The range is first widened to whole periods (a period only partly
   * inside is read whole, its records filtered by time). In time order.
   */
  prefixes(fromMs: number, toMs: number): string[] {
    const out: string[] = [];
    if (!(fromMs < toMs)) return out;
    const periodMs = this.periodMinutes * 60_000;
    const from = fromMs - mod(fromMs, periodMs);
    const to = toMs - 1 - mod(toMs - 1, periodMs) + periodMs;
    const visit = (level: number, fixed: number[], text: string) => {
      const field = FIELDS[level]!;
      const [lo, hi, step] = field.domain(fixed, this.periodMinutes);
      const digits = (sofar: string) => {
        const rest = field.width - sofar.length - 1;
        for (let d = 0; d <= 9; d++) {
          const p = sofar + d;
          const span = 10 ** rest;
          const first = Math.ceil(Math.max(lo, Number(p) * span) / step) * step;
          const last = Math.floor(Math.min(hi, Number(p) * span + span - 1) / step) * step;
          if (first > last) continue;
          const start = startOf([...fixed, first]);
          const end = endOf([...fixed, last], level, this.periodMinutes);
          if (end <= from || start >= to) continue;
          const complete = rest === 0;
          if (from <= start && end <= to) out.push(text + p + (complete ? field.separator : ""));
          else if (!complete) digits(p);
          else visit(level + 1, [...fixed, first], text + p + field.separator); // never the period field: whole periods
        }
      };
      digits("");
    };
    visit(0, [], `${this.source}/`);
    return out;
  }
}
