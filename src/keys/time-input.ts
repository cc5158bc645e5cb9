import { DateTime, MAX_TICKS } from "../model/index.js";
import { invalidInput, isDigits, requireString } from "./errors.js";

/** An instant a time key accepts: tablekit's 100 ns `DateTime` or a JS `Date` (milliseconds). */
export type TimeInput = DateTime | Date;

/** The width of `{0:D19}`: `DateTime.MaxValue.Ticks` has 19 digits. */
export const TICKS_DIGITS = 19;

/** The DateTime of a time input; throws InvalidInput for other values, OutOfRangeInput outside years 1..9999. */
export function toDateTime(codec: string, value: TimeInput): DateTime {
  if (value instanceof DateTime) return value;
  if (value instanceof Date) return DateTime.fromDate(value);
  throw invalidInput(codec, `expected a DateTime or a Date, got ${value === null ? "null" : typeof value}`);
}

/** `{0:D19}` of a tick count (0 .. MAX_TICKS + 1). */
export function formatTicks(ticks: bigint): string {
  return ticks.toString().padStart(TICKS_DIGITS, "0");
}

/** The tick count of a 19-digit key part, checked against 0..MAX_TICKS. */
export function parseTicks(codec: string, digits: string, whole: string): bigint {
  requireString(codec, digits);
  if (digits.length !== TICKS_DIGITS || !isDigits(digits)) {
    throw invalidInput(codec, `expected ${TICKS_DIGITS} digits of ticks, got ${JSON.stringify(whole)}`);
  }
  const ticks = BigInt(digits);
  if (ticks > MAX_TICKS) throw invalidInput(codec, `${digits} is above DateTime.MaxValue.Ticks`);
  return ticks;
}
