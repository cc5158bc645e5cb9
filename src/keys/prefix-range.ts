import type { KeyInterval, KeyOrder } from "./codec.js";
import { invalidInput } from "./errors.js";

/** Options of the range helpers. */
export interface RangeOptions {
  /** The backend's key order (`Capabilities.keyOrder`); default "utf16" (Azure, embedded engine). */
  readonly order?: KeyOrder;
}

/**
 * The character after `cp` in a backend's order, or undefined for the last one. By UTF-16 code
 * units the characters run U+0000..U+D7FF, then U+10000..U+10FFFF (surrogates D800-DFFF), then
 * U+E000..U+FFFF; by UTF-8 bytes they run in code point order up to U+10FFFF.
 */
function nextCharacter(cp: number, order: KeyOrder): number | undefined {
  if (cp === 0xd7ff) return order === "utf16" ? 0x10000 : 0xe000;
  if (cp === 0x10ffff) return order === "utf16" ? 0xe000 : undefined;
  if (cp === 0xffff) return order === "utf16" ? undefined : 0x10000;
  return cp + 1;
}

/**
 * The least well-formed string above every string that starts with `prefix`, in the given order;
 * undefined when there is none (the empty prefix, or a prefix made only of the last character).
 * Trailing last characters are dropped and the character before them is replaced by its successor,
 * stepping over the surrogate range so the result never holds an unpaired surrogate.
 *
 * @example prefixSuccessor("email_a") // "email_b"
 */
export function prefixSuccessor(prefix: string, options: RangeOptions = {}): string | undefined {
  const order = options.order ?? "utf16";
  if (order !== "utf16" && order !== "utf8")
    throw invalidInput("prefixRange", `order must be "utf16" or "utf8"`);
  if (typeof prefix !== "string" || !prefix.isWellFormed()) {
    throw invalidInput("prefixRange", "the prefix must be a well-formed string (no unpaired surrogates)");
  }
  let end = prefix.length;
  while (end > 0) {
    const low = prefix.charCodeAt(end - 1);
    const width = low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
    const cp = prefix.codePointAt(end - width)!;
    const next = nextCharacter(cp, order);
    if (next !== undefined) return prefix.slice(0, end - width) + String.fromCodePoint(next);
    end -= width;
  }
  return undefined;
}

/**
 * The half-open range `[prefix, successor(prefix))` of every key that starts with `prefix` (the
 * starts-with query pattern); the empty prefix is the whole key space (no upper bound).
 *
 * @example prefixRange("email_a") // { lower: "email_a", upper: "email_b" }
 */
export function prefixRange(prefix: string, options: RangeOptions = {}): KeyInterval {
  const upper = prefixSuccessor(prefix, options);
  return upper === undefined ? { lower: prefix } : { lower: prefix, upper };
}

/**
 * The keys from `first` through `last` inclusive, and every key that starts with `last`:
 * `[first, successor(last))`. For fixed-width keys (padded numbers, ticks) this is "between the two
 * values", the `RowKey ge 'empid_000100' and RowKey le 'empid_000199'` query of seed 001.
 */
export function keysBetween(first: string, last: string, options: RangeOptions = {}): KeyInterval {
  if (typeof first !== "string" || !first.isWellFormed()) {
    throw invalidInput("keysBetween", "`first` must be a well-formed string");
  }
  const upper = prefixSuccessor(last, options);
  return upper === undefined ? { lower: first } : { lower: first, upper };
}
