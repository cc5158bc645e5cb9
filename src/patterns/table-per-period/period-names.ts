import { type PaddedIntCodec, paddedInt, type TimeInput } from "../../keys/index.js";
import { DateTime, TableKitError } from "../../model/index.js";
import { epochMsOf } from "../shared/support/time.js";

/** How long each table's period is (UTC). */
export type PeriodUnit = "hour" | "day" | "month";

const DIGITS: Record<PeriodUnit, number> = { month: 6, day: 8, hour: 10 };
const year = paddedInt({ max: 9999 });
const month = paddedInt({ max: 12, width: 2 });
const day = paddedInt({ max: 31 });
const hour = paddedInt({ max: 23 });
const HOUR_MS = 3_600_000;

/**
 * Table names by period: `<prefix><yyyy><mm>[<dd>[<hh>]]` in UTC (`LoginAttempts20240131`), the
 * digits written with padded-integer codecs, so names sort by period and stay valid table names.
 * Periods are numbered (months since year 0, or days/hours since the Unix epoch) to compare them.
 */
export class PeriodNames {
  private readonly pattern: RegExp;

  constructor(
    readonly prefix: string,
    readonly unit: PeriodUnit,
  ) {
    if (!Object.hasOwn(DIGITS, unit))
      throw new TableKitError("InvalidInput", `period must be "hour", "day" or "month"`);
    if (
      typeof prefix !== "string" ||
      !/^[A-Za-z][A-Za-z0-9]*$/.test(prefix) ||
      prefix.length + DIGITS[unit] > 63
    ) {
      throw new TableKitError(
        "InvalidResourceName",
        `The prefix must be a letter then letters or digits, at most ${63 - (DIGITS[unit] ?? 0)} characters, got ${JSON.stringify(prefix)}`,
      );
    }
    this.pattern = new RegExp(`^${prefix}(\\d{${DIGITS[unit]}})$`, "i");
  }

  /** The period number of an instant. */
  periodOf(at: TimeInput): number {
    const ms = epochMsOf(at);
    if (this.unit === "month") {
      const d = new Date(ms);
      return d.getUTCFullYear() * 12 + d.getUTCMonth();
    }
    return Math.floor(ms / (this.unit === "day" ? 24 * HOUR_MS : HOUR_MS));
  }

  /** When a period starts. */
  startOf(period: number): DateTime {
    if (this.unit === "month")
      return DateTime.fromEpochMilliseconds(Date.UTC(Math.floor(period / 12), period % 12, 1));
    return DateTime.fromEpochMilliseconds(period * (this.unit === "day" ? 24 * HOUR_MS : HOUR_MS));
  }

  /** The table name of a period. */
  nameOf(period: number): string {
    const d = this.startOf(period).toDate();
    let name = this.prefix + year.encode(d.getUTCFullYear()) + month.encode(d.getUTCMonth() + 1);
    if (this.unit !== "month") name += day.encode(d.getUTCDate());
    if (this.unit === "hour") name += hour.encode(d.getUTCHours());
    return name;
  }

  /** The period a table name stands for, or undefined for a name this scheme never makes. */
  parse(name: string): number | undefined {
    const digits = this.pattern.exec(name)?.[1];
    if (digits === undefined) return undefined;
    try {
      const part = (codec: PaddedIntCodec<number>, from: number) =>
        codec.decode(digits.slice(from, from + codec.width));
      const y = part(year, 0);
      const m = part(month, 4) - 1;
      const dd = this.unit === "month" ? 1 : part(day, 6);
      const hh = this.unit === "hour" ? part(hour, 8) : 0;
      const ms = Date.UTC(y, m, dd, hh);
      const period = this.periodOf(DateTime.fromEpochMilliseconds(ms));
      // 20240231 is not a day: it must name itself exactly.
      return this.nameOf(period).toLowerCase() === name.toLowerCase() ? period : undefined;
    } catch {
      return undefined;
    }
  }
}
