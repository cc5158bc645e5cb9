/**
 * What a key's text says about how it was made: numbers and their widths, .NET ticks, dates and
 * their formats, separators, characters Azure forbids. Pure functions over one key.
 */
import { compoundKey } from "../keys/index.js";
import { MAX_TICKS, UNIX_EPOCH_TICKS } from "../model/index.js";

/** `/ \ # ?` and the control characters Azure forbids in keys (docs/keys/validation.md). */
export const FORBIDDEN_KEY_CHARACTERS = /[/\\#?\u0000-\u001f\u007f-\u009f]/;

/** Key text as an example: JSON-quoted when it holds anything unprintable, and at most 120 characters. */
export function showKey(key: string): string {
  const short = key.length > 120 ? `${key.slice(0, 117)}…` : key;
  return /[\u0000-\u001f\u007f-\u009f"]/.test(short) ? JSON.stringify(short) : short;
}

const MS_PER_YEAR = 365.2425 * 86_400_000;
/** Instants the advisor takes for plausible data: 1970 up to 2200 (ms since the Unix epoch). */
const PLAUSIBLE_FROM = 0;
const PLAUSIBLE_TO = (2200 - 1970) * MS_PER_YEAR;

function plausible(ms: number): boolean {
  return ms >= PLAUSIBLE_FROM && ms < PLAUSIBLE_TO;
}

function ticksToMs(ticks: bigint): number {
  return Number((ticks - UNIX_EPOCH_TICKS) / 10_000n);
}

/** How a run of 18 or 19 digits reads as .NET ticks, if it does (1970–2199). */
export function ticksForm(digits: string): "ticks18" | "ticks19" | "inverted19" | undefined {
  if (digits.length !== 18 && digits.length !== 19) return undefined;
  const n = BigInt(digits);
  if (plausible(ticksToMs(n))) return digits.length === 18 ? "ticks18" : "ticks19";
  if (digits.length === 19 && n <= MAX_TICKS && plausible(ticksToMs(MAX_TICKS - n))) return "inverted19";
  return undefined;
}

const ISO_DATE = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:\.\d+)?)?)?Z?)?)?$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?$/;

function civilMs(y: number, mo: number, d = 1, h = 0, mi = 0, s = 0): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return plausible(ms) ? ms : undefined;
}

/**
 * The instant a whole key stands for, when it is one (ms since the Unix epoch): ISO dates and
 * hours (`2014-07-31`, `2014-07-31T18`), compact dates (`20140731`), 19-digit ticks or inverted
 * ticks, Unix milliseconds (13 digits, from 2000), and the unsortable day-first forms. A constant prefix of
 * letters and one separator (`log_2014-07-31`) is skipped.
 */
export function keyInstant(key: string): number | undefined {
  const text = key.replace(/^[A-Za-z]{1,16}[_\-:.!|]/, "");
  let m = ISO_DATE.exec(text) ?? COMPACT_DATE.exec(text);
  if (m) return civilMs(+m[1]!, +m[2]!, m[3] ? +m[3] : 1, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  if (/^\d+$/.test(text)) {
    const form = ticksForm(text);
    if (form === "inverted19") return ticksToMs(MAX_TICKS - BigInt(text));
    if (form) return ticksToMs(BigInt(text));
    if (text.length === 13 && plausible(Number(text)) && Number(text) >= 946_684_800_000) return Number(text);
    return undefined;
  }
  m = DAY_FIRST.exec(text);
  if (m && m.index === 0 && m[0].length === text.length) return unsortableDate(m) ? 0 : undefined;
  return undefined;
}

const MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec";
/** `dd-MM-yyyy`, `MM/dd/yyyy`, `d.M.yyyy`: the year last. */
const DAY_FIRST = /(?<![\d])(\d{1,2})([-./ ])(\d{1,2})\2(\d{4})(?!\d)/;
/** `yyyy-M-d`: the year first, but a part without its leading zero. */
const UNPADDED_ISO = /(?<![\d])(\d{4})([-./])(\d{1,2})\2(\d{1,2})(?!\d)/;
/** `28-May-2010`, `May 28 2010`. */
const MONTH_NAME = new RegExp(
  `(?<![A-Za-z\\d])(?:\\d{1,2}[- ]?(?:${MONTHS})[a-z]*[- ,]*\\d{2,4}|(?:${MONTHS})[a-z]*[- ]\\d{1,2}[-, ]+\\d{4})(?![\\d])`,
  "i",
);
/** Eight digits alone: `ddMMyyyy` when they are no `yyyyMMdd`. */
const EIGHT_DIGITS = /(?<!\d)(\d{2})(\d{2})(\d{4})(?!\d)/;

function unsortableDate(m: RegExpExecArray): boolean {
  const a = +m[1]!;
  const b = +m[3]!;
  const year = +m[4]!;
  return year >= 1900 && year < 2200 && a >= 1 && b >= 1 && a <= 31 && b <= 31 && (a <= 12 || b <= 12);
}

/** The date inside a key written in a format whose string order is not time order, if any. */
export function unsortableDateIn(key: string): { text: string; format: string } | undefined {
  let m = DAY_FIRST.exec(key);
  if (m && unsortableDate(m)) {
    return { text: m[0], format: `${+m[1]! > 12 ? "dd" : "MM or dd"}${m[2]}…${m[2]}yyyy (year last)` };
  }
  m = UNPADDED_ISO.exec(key);
  if (m && (m[3]!.length === 1 || m[4]!.length === 1)) {
    const year = +m[1]!;
    const month = +m[3]!;
    const day = +m[4]!;
    if (year >= 1900 && year < 2200 && month >= 1 && month <= 12 && day >= 1 && day <= 31) {
      return { text: m[0], format: "yyyy-M-d (month or day without its leading zero)" };
    }
  }
  m = MONTH_NAME.exec(key);
  if (m) return { text: m[0], format: "a month name (alphabetical, not chronological)" };
  m = EIGHT_DIGITS.exec(key);
  if (m && civilMs(+m[3]!, +m[2]!, +m[1]!) !== undefined) {
    const asIso = civilMs(+`${m[1]}${m[2]}`, +m[3]!.slice(0, 2), +m[3]!.slice(2));
    if (asIso === undefined) return { text: m[0], format: "ddMMyyyy (year last)" };
  }
  return undefined;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlphanumeric = (c: number) => isDigit(c) || isLetter(c);

/** Characters taken for separators of hand-made compound keys. */
const SEPARATORS = new Set(["_", "-", "|", ":", "~", ".", ";", ",", "!", "+", "=", "#", "/", "\\", "$", "@"]);

/** The leading letters of a key and the separator after them (`empid_000123` → `empid`, `_`). */
export function familyOf(key: string): { family: string; separator: string } | undefined {
  const m = /^([A-Za-z]{0,32})[A-Za-z0-9]*?([^A-Za-z0-9])/.exec(key);
  if (!m || !SEPARATORS.has(m[2]!)) return undefined;
  return { family: m[1]!, separator: m[2]! };
}

const COMPOUND = compoundKey();

/**
 * True when the key is (a literal prefix plus) a tablekit compound key: components escaped and
 * terminated by `!`, so separators inside components cannot occur.
 */
export function isCompoundEncoded(key: string): boolean {
  if (!key.endsWith("!")) return false;
  for (let i = 0; i < key.length && i <= 64; i++) {
    if (i > 0 && /[A-Za-z0-9]/.test(key[i - 1]!)) continue;
    try {
      COMPOUND.decode(key.slice(i));
      return true;
    } catch {
      // not from here: try after the next separator
    }
  }
  return false;
}

/**
 * A key's shape for numeric analysis: each alphanumeric segment that is digits (`#`) or letters
 * then digits (`v#`, `empid#`) keeps its place; other segments are `*`; separators stay. Runs are
 * the digits of those segments, in order, and `runAt` the token index of each. Keys without digit
 * segments have no shape.
 */
export function numericShape(key: string): { tokens: string[]; runs: string[]; runAt: number[] } | undefined {
  if (key.length > 256) return undefined;
  const tokens: string[] = [];
  const runs: string[] = [];
  const runAt: number[] = [];
  // One pass over char codes (the advisor calls this for every key it reads).
  for (let i = 0; i < key.length; ) {
    if (!isAlphanumeric(key.charCodeAt(i))) {
      tokens.push(key[i]!);
      i++;
      continue;
    }
    const start = i;
    while (i < key.length && isLetter(key.charCodeAt(i))) i++;
    const digits = i;
    while (i < key.length && isDigit(key.charCodeAt(i))) i++;
    if (i > digits && (i === key.length || !isAlphanumeric(key.charCodeAt(i)))) {
      runAt.push(tokens.length);
      tokens.push(`${key.slice(start, digits)}#`);
      runs.push(key.slice(digits, i));
      continue;
    }
    while (i < key.length && isAlphanumeric(key.charCodeAt(i))) i++;
    tokens.push("*");
  }
  return runs.length === 0 ? undefined : { tokens, runs, runAt };
}
