import { TableKitError } from "./errors.js";

/** 100 ns ticks in one millisecond, one second and one day. */
const TICKS_PER_MS = 10_000n;
const TICKS_PER_SECOND = 10_000_000n;
const TICKS_PER_DAY = 864_000_000_000n;
/** .NET ticks at 1970-01-01T00:00:00Z. */
export const UNIX_EPOCH_TICKS = 621_355_968_000_000_000n;
/** .NET `DateTime.MaxValue.Ticks`: 9999-12-31T23:59:59.9999999Z. */
export const MAX_TICKS = 3_155_378_975_999_999_999n;

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Days from 0001-01-01 to the given proleptic Gregorian date (Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  // 719162 = days from 0001-01-01 to 1970-01-01; Hinnant's epoch is 1970-01-01 minus 719468 days.
  return era * 146097 + doe - 719468 + 719162;
}

const pad = (n: number | bigint, width: number) => n.toString().padStart(width, "0");
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** Year, month, day of a day count since 1970-01-01 (Hinnant's civil_from_days). */
function civilFromUnixDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - Math.floor((153 * mp + 2) / 5) + 1];
}

let lastNowTicks = 0n;

/** Milliseconds from 0001-01-01 to the Unix epoch. */
const UNIX_EPOCH_MS = 62_135_596_800_000;

/**
 * `epochMilliseconds` of ticks written in decimal (as stores keep them), without a BigInt: ticks
 * are never negative, so dropping the last four digits is the floor, and at most ~3.2e14 is exact.
 */
export function epochMillisecondsOfTicks(ticks: string): number {
  return Number(ticks.slice(0, -4)) - UNIX_EPOCH_MS;
}

/** Set by DateTime's static block: a DateTime with its text (`dateTimeWithText`). */
let withKnownText: (ticks: bigint, iso: string) => DateTime;

/** The second (since the Unix epoch) whose text `formatISO` made last, and that text. */
let lastSecond = Number.NaN;
let lastSecondText = "";

/** `yyyy-mm-ddThh:mm:ss` of a second since the Unix epoch. */
function formatSecond(second: number): string {
  const days = Math.floor(second / 86_400);
  let rest = second - days * 86_400;
  const [year, month, day] = civilFromUnixDays(days);
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  return `${pad(year, 4)}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(rest - minute * 60)}`;
}

/**
 * Date's read-only methods, which a DateTime answers as its `toDate()` would: code written for the
 * `Date` that `@azure/data-tables` returns keeps working (`when.getUTCFullYear()`). Date's setters
 * are absent (a DateTime is immutable), and so is its local-time `toString`.
 */
const DATE_READ_METHODS = [
  "getDate",
  "getDay",
  "getFullYear",
  "getHours",
  "getMilliseconds",
  "getMinutes",
  "getMonth",
  "getSeconds",
  "getTimezoneOffset",
  "getUTCDate",
  "getUTCDay",
  "getUTCFullYear",
  "getUTCHours",
  "getUTCMilliseconds",
  "getUTCMinutes",
  "getUTCMonth",
  "getUTCSeconds",
  "toDateString",
  "toLocaleDateString",
  "toLocaleString",
  "toLocaleTimeString",
  "toTimeString",
  "toUTCString",
] as const satisfies readonly (keyof Date)[];

type DateReadMethods = Pick<Date, (typeof DATE_READ_METHODS)[number]>;

/**
 * An instant in UTC with the Table service's full 100 ns precision (a JS `Date` keeps only
 * milliseconds). Immutable; stored as .NET ticks (100 ns units since 0001-01-01T00:00:00Z).
 *
 * @example DateTime.parse("2026-11-22T02:49:12.9327936Z").ticks // 639_... exact
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: DateReadMethods are installed on the prototype below
export class DateTime {
  static readonly MIN = new DateTime(0n);
  static readonly MAX = new DateTime(MAX_TICKS);

  private constructor(readonly ticks: bigint) {}

  /** From .NET ticks; throws OutOfRangeInput outside 0001-01-01 .. 9999-12-31T23:59:59.9999999Z. */
  static fromTicks(ticks: bigint): DateTime {
    if (typeof ticks !== "bigint" || ticks < 0n || ticks > MAX_TICKS) {
      throw new TableKitError(
        "OutOfRangeInput",
        `DateTime ticks ${String(ticks)} are outside 0..${MAX_TICKS}`,
      );
    }
    return new DateTime(ticks);
  }

  static fromDate(date: Date): DateTime {
    const ms = date.getTime();
    if (!Number.isFinite(ms)) throw new TableKitError("InvalidInput", "Invalid Date");
    return DateTime.fromTicks(UNIX_EPOCH_TICKS + BigInt(ms) * TICKS_PER_MS);
  }

  /** From milliseconds since the Unix epoch, fractional milliseconds included (to 100 ns). */
  static fromEpochMilliseconds(ms: number): DateTime {
    if (!Number.isFinite(ms)) throw new TableKitError("InvalidInput", `Invalid epoch milliseconds ${ms}`);
    const whole = Math.floor(ms);
    const frac = Math.round((ms - whole) * 10_000);
    return DateTime.fromTicks(UNIX_EPOCH_TICKS + BigInt(whole) * TICKS_PER_MS + BigInt(frac));
  }

  /**
   * Parses ISO 8601 (`2026-11-22T02:49:12.9327936Z`, up to 7 fractional digits, `Z` or `±hh:mm`;
   * no zone means UTC). Throws InvalidInput on anything else.
   */
  static parse(text: string): DateTime {
    const canonical =
      typeof text === "string" && text.length === 28 ? DateTime.parseCanonical(text) : undefined;
    if (canonical) return canonical;
    const m = typeof text === "string" ? ISO_PATTERN.exec(text) : null;
    if (!m) throw new TableKitError("InvalidInput", `Not an ISO 8601 date-time: ${JSON.stringify(text)}`);
    const [, ys, mos, ds, hs, mis, ss, fs, zone] = m;
    const year = Number(ys);
    const month = Number(mos);
    const day = Number(ds);
    const hour = Number(hs);
    const minute = Number(mis);
    const second = ss === undefined ? 0 : Number(ss);
    const daysInMonth = month >= 1 && month <= 12 ? civilDaysInMonth(year, month) : 0;
    if (year < 1 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) {
      throw new TableKitError("InvalidInput", `Not a valid date-time: ${JSON.stringify(text)}`);
    }
    let ticks =
      BigInt(daysFromCivil(year, month, day)) * TICKS_PER_DAY +
      BigInt(hour * 3600 + minute * 60 + second) * TICKS_PER_SECOND +
      BigInt((fs ?? "").padEnd(7, "0"));
    if (zone && zone !== "Z") {
      const sign = zone[0] === "-" ? -1n : 1n;
      const offsetMinutes = BigInt(Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
      ticks -= sign * offsetMinutes * 60n * TICKS_PER_SECOND;
    }
    return DateTime.fromTicks(ticks);
  }

  /** The current instant, strictly increasing within this process (sub-millisecond resolution). */
  static now(): DateTime {
    const ms = performance.timeOrigin + performance.now();
    let ticks = UNIX_EPOCH_TICKS + BigInt(Math.floor(ms * 10_000));
    if (ticks <= lastNowTicks) ticks = lastNowTicks + 1n;
    lastNowTicks = ticks;
    return new DateTime(ticks);
  }

  /**
   * `DateTime.parse` of the text `toISOString` makes (`2026-11-22T02:49:12.9327936Z`), which every
   * backend stores or receives for each entity's Timestamp: digits read by char code, one BigInt
   * multiplication, and the text kept as the instance's ISO form. Undefined when the text is not in
   * that exact form (the general parser then decides).
   */
  private static parseCanonical(text: string): DateTime | undefined {
    if (
      text.charCodeAt(4) !== 45 || // -
      text.charCodeAt(7) !== 45 ||
      text.charCodeAt(10) !== 84 || // T
      text.charCodeAt(13) !== 58 || // :
      text.charCodeAt(16) !== 58 ||
      text.charCodeAt(19) !== 46 || // .
      text.charCodeAt(27) !== 90 // Z
    ) {
      return undefined;
    }
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 7);
    const day = digits(text, 8, 10);
    const hour = digits(text, 11, 13);
    const minute = digits(text, 14, 16);
    const second = digits(text, 17, 19);
    const fraction = digits(text, 20, 27);
    // NaN (a non-digit) fails every comparison below, so it falls through to the general parser.
    if (
      !(year >= 1 && month >= 1 && month <= 12 && day >= 1 && hour <= 23 && minute <= 59) ||
      !(second <= 59 && fraction >= 0 && day <= civilDaysInMonth(year, month))
    ) {
      return undefined;
    }
    const seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    const dt = new DateTime(BigInt(seconds) * TICKS_PER_SECOND + BigInt(fraction));
    dt.#iso = text;
    return dt;
  }

  static {
    withKnownText = (ticks, iso) => {
      const dt = new DateTime(ticks);
      dt.#iso = iso;
      return dt;
    };
  }

  /** Milliseconds since the Unix epoch, truncated toward earlier instants. */
  get epochMilliseconds(): number {
    const t = this.ticks - UNIX_EPOCH_TICKS;
    const q = t / TICKS_PER_MS;
    return Number(t < 0n && t % TICKS_PER_MS !== 0n ? q - 1n : q);
  }

  /** The 100 ns units after the whole millisecond (0..9999), lost by `toDate()`. */
  get subMillisecondTicks(): number {
    const r = (this.ticks - UNIX_EPOCH_TICKS) % TICKS_PER_MS;
    return Number(r < 0n ? r + TICKS_PER_MS : r);
  }

  /** A JS Date (millisecond precision: the sub-millisecond part is dropped). */
  toDate(): Date {
    return new Date(this.epochMilliseconds);
  }

  /** Milliseconds since the Unix epoch, as `Date#getTime` (`epochMilliseconds`). */
  getTime(): number {
    return this.epochMilliseconds;
  }

  /**
   * Milliseconds since the Unix epoch, as `Date#valueOf`: `a < b`, `+a` and `a - b` work as on
   * Dates, at millisecond precision (`compare` and `equals` are exact to 100 ns).
   */
  valueOf(): number {
    return this.epochMilliseconds;
  }

  /** As a Date's: a number where a number is wanted (`<`, `+`), else the ISO text (`${dt}`, `new Date(dt)`). */
  [Symbol.toPrimitive](hint: string): string | number {
    return hint === "number" ? this.epochMilliseconds : this.toISOString();
  }

  /** ISO 8601 in UTC with exactly seven fractional digits, as the Table service writes it. */
  toISOString(): string {
    // Immutable, so the text can be kept: reads format every entity's Timestamp.
    // A #private field: invisible to structural equality (toEqual, deepEqual) of two instances.
    this.#iso ??= this.formatISO();
    return this.#iso;
  }

  #iso: string | undefined;

  private formatISO(): string {
    // One BigInt split, then Number arithmetic: reads and writes format Timestamps all the time,
    // and this is several times faster than Date#toISOString or BigInt calendar math. Timestamps
    // made close together share their second, whose text is kept.
    const sinceEpoch = this.ticks - UNIX_EPOCH_TICKS;
    let second = Number(sinceEpoch / TICKS_PER_SECOND);
    let fraction = Number(sinceEpoch % TICKS_PER_SECOND);
    if (fraction < 0) {
      fraction += 10_000_000;
      second -= 1;
    }
    if (second !== lastSecond) {
      lastSecondText = formatSecond(second);
      lastSecond = second;
    }
    return `${lastSecondText}.${String(fraction).padStart(7, "0")}Z`;
  }

  toJSON(): string {
    return this.toISOString();
  }

  toString(): string {
    return this.toISOString();
  }

  compare(other: DateTime): -1 | 0 | 1 {
    return this.ticks < other.ticks ? -1 : this.ticks > other.ticks ? 1 : 0;
  }

  equals(other: unknown): boolean {
    return other instanceof DateTime && other.ticks === this.ticks;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `DateTime(${this.toISOString()})`;
  }
}

/** Date's read-only methods, installed on the prototype below. */
export interface DateTime extends DateReadMethods {}

for (const name of DATE_READ_METHODS) {
  Object.defineProperty(DateTime.prototype, name, {
    value: function (this: DateTime, ...args: unknown[]) {
      return Reflect.apply(Date.prototype[name], this.toDate(), args);
    },
    writable: true,
    configurable: true,
  });
}

/**
 * The DateTime of `ticks` whose `toISOString()` text is already known, for a backend that stored
 * both when it wrote them (the embedded engine's rows hold the ticks and the ETag, which holds the
 * text): reading a Timestamp back then formats nothing. `iso` must be exactly what `toISOString`
 * gives for these ticks; ticks must be in range (they were, when they were written).
 */
export function dateTimeWithText(ticks: bigint, iso: string): DateTime {
  return withKnownText(ticks, iso);
}

/** The decimal number in `text[start..end)`; NaN when a character is not a digit. */
function digits(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

function civilDaysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
