import type { StringBound, StringRange } from "./ast.js";

/** A total order on strings (compareUtf16 or compareUtf8). */
export type StringOrder = (a: string, b: string) => number;

/** Every string. */
export const FULL: StringRange = Object.freeze({});

/** A range with a lower bound of `''` inclusive is unbounded below (no string sorts before `''`). */
export function range(lower: StringBound | undefined, upper: StringBound | undefined): StringRange {
  const out: { lower?: StringBound; upper?: StringBound } = {};
  if (lower && !(lower.inclusive && lower.value === "")) out.lower = lower;
  if (upper) out.upper = upper;
  return out;
}

export function isFull(r: StringRange): boolean {
  return r.lower === undefined && r.upper === undefined;
}

export function isEmpty(r: StringRange, order: StringOrder): boolean {
  const { lower, upper } = r;
  if (!upper) return false;
  if (upper.value === "" && !upper.inclusive) return true;
  if (!lower) return false;
  const c = order(lower.value, upper.value);
  return c > 0 || (c === 0 && !(lower.inclusive && upper.inclusive));
}

/** The single string a range holds, if it holds exactly one. */
export function pointOf(r: StringRange, order: StringOrder): string | undefined {
  const { lower, upper } = r;
  if (!upper?.inclusive) return undefined;
  if (!lower) return upper.value === "" ? "" : undefined;
  return lower.inclusive && order(lower.value, upper.value) === 0 ? lower.value : undefined;
}

export function contains(r: StringRange, s: string, order: StringOrder): boolean {
  if (r.lower) {
    const c = order(s, r.lower.value);
    if (c < 0 || (c === 0 && !r.lower.inclusive)) return false;
  }
  if (r.upper) {
    const c = order(s, r.upper.value);
    if (c > 0 || (c === 0 && !r.upper.inclusive)) return false;
  }
  return true;
}

/** Orders lower bounds by where they start (absent = before everything). */
export function compareLower(
  a: StringBound | undefined,
  b: StringBound | undefined,
  order: StringOrder,
): number {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  const c = order(a.value, b.value);
  if (c !== 0) return c;
  return a.inclusive === b.inclusive ? 0 : a.inclusive ? -1 : 1;
}

/** Orders upper bounds by where they end (absent = after everything). */
export function compareUpper(
  a: StringBound | undefined,
  b: StringBound | undefined,
  order: StringOrder,
): number {
  if (!a || !b) return a ? -1 : b ? 1 : 0;
  const c = order(a.value, b.value);
  if (c !== 0) return c;
  return a.inclusive === b.inclusive ? 0 : a.inclusive ? 1 : -1;
}

export function intersect(a: StringRange, b: StringRange, order: StringOrder): StringRange {
  return range(
    compareLower(a.lower, b.lower, order) >= 0 ? a.lower : b.lower,
    compareUpper(a.upper, b.upper, order) <= 0 ? a.upper : b.upper,
  );
}

/** The smallest range holding both. */
export function hull(a: StringRange, b: StringRange, order: StringOrder): StringRange {
  return range(
    compareLower(a.lower, b.lower, order) <= 0 ? a.lower : b.lower,
    compareUpper(a.upper, b.upper, order) >= 0 ? a.upper : b.upper,
  );
}

/** True when `outer` holds every string of `inner`. */
export function covers(outer: StringRange, inner: StringRange, order: StringOrder): boolean {
  return (
    compareLower(outer.lower, inner.lower, order) <= 0 && compareUpper(outer.upper, inner.upper, order) >= 0
  );
}

/** True when the union of two non-empty ranges is one range (they overlap or touch). */
export function connected(a: StringRange, b: StringRange, order: StringOrder): boolean {
  const [first, second] = compareLower(a.lower, b.lower, order) <= 0 ? [a, b] : [b, a];
  if (!first.upper || !second.lower) return true;
  const c = order(first.upper.value, second.lower.value);
  return c > 0 || (c === 0 && (first.upper.inclusive || second.lower.inclusive));
}

/** Sorted, pairwise unconnected ranges with the same union as `ranges` (empty ones dropped). */
export function mergeRanges(ranges: readonly StringRange[], order: StringOrder): StringRange[] {
  const sorted = ranges
    .filter((r) => !isEmpty(r, order))
    .sort((a, b) => compareLower(a.lower, b.lower, order));
  const out: StringRange[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && connected(last, r, order)) out[out.length - 1] = hull(last, r, order);
    else out.push(r);
  }
  return out;
}
