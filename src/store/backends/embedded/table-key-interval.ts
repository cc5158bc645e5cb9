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

/** A WHERE fragment selecting the interval's keys with index range scans; `shape` names the SQL text. */
export function intervalSql(i: Interval): { sql: string; params: string[]; shape: string } {
  const parts: string[] = [];
  const params: string[] = [];
  let shape = "";
  if (i.lower) {
    const op = i.lower.side < 0 ? ">=" : ">";
    shape += i.lower.rk === undefined ? `p${op}` : `k${op}`;
    parts.push(cutSql(i.lower, op, params));
  }
  if (i.upper) {
    const op = i.upper.side > 0 ? "<=" : "<";
    shape += i.upper.rk === undefined ? `p${op}` : `k${op}`;
    parts.push(cutSql(i.upper, op, params));
  }
  return { sql: parts.length ? parts.join(" AND ") : "1", params, shape };
}

function cutSql(cut: Cut, op: string, params: string[]): string {
  params.push(toStoredKey(cut.pk));
  if (cut.rk === undefined) return `pk ${op} ?`;
  params.push(toStoredKey(cut.rk));
  return `(pk, rk) ${op} (?, ?)`;
}
