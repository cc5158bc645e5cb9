import { compareUtf16 } from "../model/index.js";
import type { CompareOp, FilterNode, KeyRange, ParsedFilter, StringRange } from "./ast.js";
import {
  compareLower,
  connected,
  contains,
  covers,
  FULL,
  hull,
  intersect,
  isEmpty,
  isFull,
  mergeRanges,
  pointOf,
  range,
  type StringOrder,
} from "./intervals.js";

/**
 * Derives the key ranges a filter can match, for a backend to read instead of the whole table.
 *
 * The result is sorted in `order`, pairwise disjoint, and its union holds every entity the filter
 * can match (the filter is still applied to each entity read); `undefined` means the whole table,
 * `[]` means nothing can match (e.g. `PartitionKey eq 'a' and PartitionKey eq 'b'`).
 *
 * Filters always compare strings by UTF-16 code units (the service's rule). `order` is the order
 * the backend stores keys in (its `capabilities.keyOrder`): `compareUtf16` (default, the service's
 * order) or `compareUtf8` (UTF-8 bytes). The two orders agree on any bound without code units from U+D800 up,
 * so under another order a range bound holding such a unit is dropped (the range widens).
 *
 * @example keyRanges(parseFilter("PartitionKey eq 'p' and RowKey ge 'a' and RowKey lt 'b'"))
 * // [{ kind: "rows", pk: "p", rk: { lower: { value: "a", inclusive: true }, upper: { value: "b", inclusive: false } } }]
 */
export function keyRanges(node: ParsedFilter, order: StringOrder = compareUtf16): KeyRange[] | undefined {
  if (node.kind === "constant") return node.value ? undefined : [];
  const boxes = new Planner(order).boxes(node, false);
  const ranges = toKeyRanges(boxes, order);
  const only = ranges[0];
  if (ranges.length === 1 && only!.kind === "partitions" && isFull(only!.pk)) return undefined;
  return ranges;
}

/** True when the entity with these keys lies in `range` (keys compared in `order`). */
export function keyRangeContains(
  range: KeyRange,
  partitionKey: string,
  rowKey: string,
  order: StringOrder = compareUtf16,
): boolean {
  return range.kind === "partitions"
    ? contains(range.pk, partitionKey, order)
    : order(partitionKey, range.pk) === 0 && contains(range.rk, rowKey, order);
}

/** Past this many boxes a union is replaced by the one box that covers it all (coarser, still correct). */
const MAX_BOXES = 64;

/** A set of keys: PartitionKeys in `pk` crossed with RowKeys in `rk`. */
interface Box {
  readonly pk: StringRange;
  readonly rk: StringRange;
}

const EVERYTHING: readonly Box[] = [{ pk: FULL, rk: FULL }];
const NEGATED: Readonly<Record<CompareOp, CompareOp>> = {
  eq: "ne",
  ne: "eq",
  gt: "le",
  ge: "lt",
  lt: "ge",
  le: "gt",
};

/** Over-approximates a filter as a union of boxes, in disjunctive normal form with a size cap. */
class Planner {
  constructor(private readonly order: StringOrder) {}

  boxes(node: FilterNode, negated: boolean): readonly Box[] {
    switch (node.kind) {
      case "not":
        return this.boxes(node.operand, !negated);
      case "and":
      case "or": {
        // De Morgan: under negation `and` becomes `or` and vice versa.
        const left = this.boxes(node.left, negated);
        const right = this.boxes(node.right, negated);
        return (node.kind === "and") !== negated
          ? this.intersectAll(left, right)
          : this.capped([...left, ...right]);
      }
      case "compare": {
        const key = node.property === "PartitionKey" ? "pk" : node.property === "RowKey" ? "rk" : undefined;
        // Any other property may or may not match: it does not narrow the keys, negated or not.
        if (!key) return EVERYTHING;
        // Keys are Strings: another literal type never matches, so the comparison is constantly
        // false, and its negation constantly true (two-valued logic, as evaluateFilter).
        if (node.value.type !== "String") return negated ? EVERYTHING : [];
        const op = negated ? NEGATED[node.op] : node.op;
        return this.stringRanges(op, node.value.value).map((r) =>
          key === "pk" ? { pk: r, rk: FULL } : { pk: FULL, rk: r },
        );
      }
    }
  }

  private stringRanges(op: CompareOp, v: string): StringRange[] {
    const at = (inclusive: boolean) => ({ value: v, inclusive });
    // A point, and the complement of a point, are the same sets in every order.
    if (op === "eq") return [range(at(true), at(true))];
    if (op === "ne") return [range(undefined, at(false)), range(at(false), undefined)];
    if (this.order !== compareUtf16 && /[\ud800-\uffff]/.test(v)) return [FULL];
    switch (op) {
      case "gt":
        return [range(at(false), undefined)];
      case "ge":
        return [range(at(true), undefined)];
      case "lt":
        return [range(undefined, at(false))];
      case "le":
        return [range(undefined, at(true))];
    }
  }

  private intersectAll(left: readonly Box[], right: readonly Box[]): readonly Box[] {
    let a = left;
    let b = right;
    if (a.length * b.length > MAX_BOXES)
      [a, b] = a.length >= b.length ? [this.hullOf(a), b] : [a, this.hullOf(b)];
    if (a.length * b.length > MAX_BOXES) [a, b] = [this.hullOf(a), this.hullOf(b)];
    const out: Box[] = [];
    for (const x of a) {
      for (const y of b)
        out.push({ pk: intersect(x.pk, y.pk, this.order), rk: intersect(x.rk, y.rk, this.order) });
    }
    return this.capped(out);
  }

  private capped(boxes: Box[]): readonly Box[] {
    const simple = this.simplify(boxes);
    return simple.length > MAX_BOXES ? this.hullOf(simple) : simple;
  }

  private hullOf(boxes: readonly Box[]): Box[] {
    if (boxes.length === 0) return [];
    let pk = boxes[0]!.pk;
    let rk = boxes[0]!.rk;
    for (const b of boxes) {
      pk = hull(pk, b.pk, this.order);
      rk = hull(rk, b.rk, this.order);
    }
    return [{ pk, rk }];
  }

  /** Drops empty and covered boxes and joins boxes that share one side and touch on the other. */
  private simplify(boxes: Box[]): Box[] {
    const order = this.order;
    let out = boxes.filter((b) => !isEmpty(b.pk, order) && !isEmpty(b.rk, order));
    for (let changed = true; changed; ) {
      changed = false;
      search: for (let i = 0; i < out.length; i++) {
        for (let j = 0; j < out.length; j++) {
          if (i === j) continue;
          const a = out[i]!;
          const b = out[j]!;
          let joined: Box | undefined;
          if (covers(a.pk, b.pk, order) && covers(a.rk, b.rk, order)) joined = a;
          else if (sameRange(a.pk, b.pk, order) && connected(a.rk, b.rk, order))
            joined = { pk: a.pk, rk: hull(a.rk, b.rk, order) };
          else if (sameRange(a.rk, b.rk, order) && connected(a.pk, b.pk, order))
            joined = { pk: hull(a.pk, b.pk, order), rk: a.rk };
          if (joined) {
            out = out.filter((_, k) => k !== i && k !== j);
            out.push(joined);
            changed = true;
            break search;
          }
        }
      }
    }
    return out;
  }
}

function sameRange(a: StringRange, b: StringRange, order: StringOrder): boolean {
  return covers(a, b, order) && covers(b, a, order);
}

/** Turns boxes into sorted, disjoint KeyRanges: one partition keeps its RowKey bounds, several do not. */
function toKeyRanges(boxes: readonly Box[], order: StringOrder): KeyRange[] {
  const partitionRanges: StringRange[] = [];
  const rowsByPartition = new Map<string, StringRange[]>();
  for (const box of boxes) {
    const pk = pointOf(box.pk, order);
    if (pk === undefined) partitionRanges.push(box.pk);
    else rowsByPartition.set(pk, [...(rowsByPartition.get(pk) ?? []), box.rk]);
  }
  const rows: { pk: string; rk: StringRange }[] = [];
  for (const [pk, rks] of rowsByPartition) {
    for (const rk of mergeRanges(rks, order)) {
      // A whole partition joins the partition ranges, where it may touch its neighbours.
      if (isFull(rk))
        partitionRanges.push(range({ value: pk, inclusive: true }, { value: pk, inclusive: true }));
      else rows.push({ pk, rk });
    }
  }
  const partitions = mergeRanges(partitionRanges, order);
  const out: KeyRange[] = [];
  for (const pk of partitions) {
    const point = pointOf(pk, order);
    out.push(point === undefined ? { kind: "partitions", pk } : { kind: "rows", pk: point, rk: FULL });
  }
  for (const r of rows) {
    if (!partitions.some((p) => contains(p, r.pk, order))) out.push({ kind: "rows", pk: r.pk, rk: r.rk });
  }
  return out.sort((a, b) => compareStarts(a, b, order));
}

/** Orders disjoint ranges by where they start in (PartitionKey, RowKey) order. */
function compareStarts(a: KeyRange, b: KeyRange, order: StringOrder): number {
  const pa = startPartition(a);
  const pb = startPartition(b);
  if (pa === undefined || pb === undefined) return pa === undefined ? (pb === undefined ? 0 : -1) : 1;
  const c = order(pa, pb);
  if (c !== 0) return c;
  const ra = startRank(a);
  const rb = startRank(b);
  if (ra !== rb) return ra - rb;
  return a.kind === "rows" && b.kind === "rows" ? compareLower(a.rk.lower, b.rk.lower, order) : 0;
}

function startPartition(r: KeyRange): string | undefined {
  return r.kind === "rows" ? r.pk : r.pk.lower?.value;
}

/** Within one PartitionKey: a range from its first row, from some row, or from after its last row. */
function startRank(r: KeyRange): number {
  if (r.kind === "rows") return 1;
  return r.pk.lower?.inclusive ? 0 : 2;
}
