import type { KeyRange } from "../../../filter/ast.js";
import { compareUtf16 } from "../../../model/index.js";
import { toStoredKey } from "./table-key-order.js";

/**
 * A position between two keys of the (PartitionKey, RowKey) space. Without `rk` it lies before
 * (`side` -1) or after (`side` 1) the whole partition `pk`; with `rk`, just before or after that key.
 */
export interface Cut {
  readonly pk: string;
  readonly rk?: string;
  readonly side: -1 | 1;
}

/** The keys between two cuts; an absent cut is unbounded. */
export interface Interval {
  readonly lower?: Cut;
  readonly upper?: Cut;
}

export const beforeKey = (pk: string, rk: string): Cut => ({ pk, rk, side: -1 });
export const afterKey = (pk: string, rk: string): Cut => ({ pk, rk, side: 1 });
export const afterPartition = (pk: string): Cut => ({ pk, side: 1 });

/** Orders cuts by position (keys in UTF-16 code-unit order). */
export function compareCuts(a: Cut, b: Cut): number {
  const c = compareUtf16(a.pk, b.pk);
  if (c !== 0) return c;
  if (a.rk === undefined) return b.rk === undefined ? a.side - b.side : a.side;
  if (b.rk === undefined) return -b.side;
  return compareUtf16(a.rk, b.rk) || a.side - b.side;
}

/** The keys a KeyRange covers. */
export function intervalOf(range: KeyRange): Interval {
  if (range.kind === "partitions") {
    const { lower, upper } = range.pk;
    return {
      lower: lower && { pk: lower.value, side: lower.inclusive ? -1 : 1 },
      upper: upper && { pk: upper.value, side: upper.inclusive ? 1 : -1 },
    };
  }
  const { lower, upper } = range.rk;
  return {
    lower: lower
      ? { pk: range.pk, rk: lower.value, side: lower.inclusive ? -1 : 1 }
      : { pk: range.pk, side: -1 },
    upper: upper
      ? { pk: range.pk, rk: upper.value, side: upper.inclusive ? 1 : -1 }
      : { pk: range.pk, side: 1 },
  };
}

/** The later of two lower cuts (absent = unbounded). */
export function laterCut(a: Cut | undefined, b: Cut | undefined): Cut | undefined {
  if (!a) return b;
  if (!b) return a;
  return compareCuts(a, b) >= 0 ? a : b;
}

/** The earlier of two upper cuts (absent = unbounded). */
export function earlierCut(a: Cut | undefined, b: Cut | undefined): Cut | undefined {
  if (!a) return b;
  if (!b) return a;
  return compareCuts(a, b) <= 0 ? a : b;
}

export function intersectIntervals(a: Interval, b: Interval): Interval {
  return { lower: laterCut(a.lower, b.lower), upper: earlierCut(a.upper, b.upper) };
}

/** True when no key lies between the cuts. */
export function isEmptyInterval(i: Interval): boolean {
  return i.lower !== undefined && i.upper !== undefined && compareCuts(i.lower, i.upper) >= 0;
}

/** The interval of one whole partition. */
export function partitionInterval(pk: string): Interval {
  return { lower: { pk, side: -1 }, upper: { pk, side: 1 } };
}

/**
 * The interval's bounds as statement parameters, and its shape: a number from 0 to 24 naming which
 * bounds it has and how they compare (`intervalWhere` gives the SQL of a shape). Queries look their
 * statements up by shape, so the SQL text is built only when a statement is prepared.
 */
export function intervalBounds(i: Interval): { shape: number; params: string[] } {
  const params: string[] = [];
  let lower = 0;
  let upper = 0;
  if (i.lower) {
    params.push(toStoredKey(i.lower.pk));
    if (i.lower.rk !== undefined) params.push(toStoredKey(i.lower.rk));
    lower = (i.lower.rk === undefined ? 1 : 3) + (i.lower.side < 0 ? 0 : 1);
  }
  if (i.upper) {
    params.push(toStoredKey(i.upper.pk));
    if (i.upper.rk !== undefined) params.push(toStoredKey(i.upper.rk));
    upper = (i.upper.rk === undefined ? 1 : 3) + (i.upper.side > 0 ? 0 : 1);
  }
  return { shape: lower * 5 + upper, params };
}

/** Bound kinds by the numbers of `intervalBounds`' shape: none, partition (>=, >), key (>=, >). */
const LOWER_SQL = ["", "pk >= ?", "pk > ?", "(pk, rk) >= (?, ?)", "(pk, rk) > (?, ?)"];
const UPPER_SQL = ["", "pk <= ?", "pk < ?", "(pk, rk) <= (?, ?)", "(pk, rk) < (?, ?)"];

/** The WHERE fragment of an interval shape: index range scans between its bounds. */
export function intervalWhere(shape: number): string {
  const parts = [LOWER_SQL[Math.floor(shape / 5)]!, UPPER_SQL[shape % 5]!].filter((p) => p !== "");
  return parts.length ? parts.join(" AND ") : "1";
}
