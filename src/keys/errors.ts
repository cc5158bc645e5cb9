import { TableKitError } from "../model/index.js";

/** A value the codec cannot take at all (wrong type, not an integer, malformed key string). */
export function invalidInput(
  codec: string,
  message: string,
  details?: Record<string, unknown>,
): TableKitError {
  return new TableKitError("InvalidInput", `${codec}: ${message}`, { details: { codec, ...details } });
}

/** A value of the right kind outside the codec's declared range. */
export function outOfRange(codec: string, message: string, details?: Record<string, unknown>): TableKitError {
  return new TableKitError("OutOfRangeInput", `${codec}: ${message}`, { details: { codec, ...details } });
}

/** Throws InvalidInput unless `key` is a string (decode's first check). */
export function requireString(codec: string, key: unknown): asserts key is string {
  if (typeof key !== "string") throw invalidInput(codec, `expected a key string, got ${typeof key}`);
}

const DIGITS = /^[0-9]+$/;

/** True when `s` is made only of ASCII digits (and is non-empty). */
export function isDigits(s: string): boolean {
  return DIGITS.test(s);
}
