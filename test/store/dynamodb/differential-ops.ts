import {
  type CompareOp,
  DateTime,
  type FilterNode,
  filterToString,
  type TypedValue,
} from "../../../src/index.js";

/**
 * Random operations for the DynamoDB differential test: entities whose properties change type
 * from row to row (so typed filter semantics matter), filters over keys and properties, ETag
 * choices for conditional writes. Keys are ASCII, where UTF-8 and UTF-16 orders agree.
 * Deterministic per seed.
 */

/** mulberry32: a small, fast, seedable PRNG. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Partitions include the empty key, which DynamoDB cannot store as is. */
export const PARTITIONS = ["", "p0", "p1", "p2"];
export const ROWS = ["", ...Array.from({ length: 11 }, (_, i) => `r${String(i).padStart(2, "0")}`)];
export const PROPERTY_NAMES = ["a", "b", "c", "d", "e"];

const BASE = DateTime.parse("2026-03-04T05:06:07.0000000Z").ticks;
const TICK_OFFSETS = [0n, 1n, 9_999n, 10_000n, 10_001n, -1n];

/** A value of a random EDM type, from small pools so filters hit stored values. */
export function randomValue(r: Random): TypedValue {
  switch (r.int(8)) {
    case 0:
      return { type: "String", value: r.pick(["", "5", "a", "b", "ab", "O'Brien", "é", "😀", "\ue000"]) };
    case 1:
      return { type: "Int32", value: r.pick([0, 5, -7, 2147483647, -2147483648, 42]) };
    case 2:
      return { type: "Int64", value: r.pick([0n, 5n, -7n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)]) };
    case 3:
      return {
        type: "Double",
        value: r.pick([
          5,
          1.5,
          -2.25,
          0,
          -0,
          1e300,
          5e-324,
          Number.NaN,
          Number.POSITIVE_INFINITY,
          Number.NEGATIVE_INFINITY,
        ]),
      };
    case 4:
      return { type: "Boolean", value: r.chance(0.5) };
    case 5:
      return { type: "DateTime", value: DateTime.fromTicks(BASE + r.pick(TICK_OFFSETS)) };
    case 6:
      return {
        type: "Guid",
        value: r.pick([
          "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
          "00000000-0000-0000-0000-000000000000",
          "ffffffff-0000-0000-0000-000000000001",
        ]),
      };
    default:
      return { type: "Binary", value: new Uint8Array(r.pick([[], [0], [0, 1], [1], [255, 0]])) };
  }
}

export type RandomEntity = { partitionKey: string; rowKey: string } & Record<string, unknown>;

/** A caller's entity: keys plus 0..4 properties in the annotated `{ value, type }` form. */
export function randomEntity(r: Random, partitionKey: string, rowKey: string): RandomEntity {
  const entity: RandomEntity = { partitionKey, rowKey };
  const count = r.int(5);
  for (let i = 0; i < count; i++) {
    const tv = randomValue(r);
    entity[r.pick(PROPERTY_NAMES)] = {
      type: tv.type,
      value: tv.type === "Int64" ? tv.value.toString() : tv.value,
    };
  }
  return entity;
}

const OPS: CompareOp[] = ["eq", "ne", "gt", "ge", "lt", "le"];

function randomComparison(r: Random): FilterNode {
  if (r.chance(0.35)) {
    const property = r.pick(["PartitionKey", "RowKey"]);
    const value = property === "PartitionKey" ? r.pick([...PARTITIONS, "p"]) : r.pick([...ROWS, "r0"]);
    return { kind: "compare", op: r.pick(OPS), property, value: { type: "String", value }, position: -1 };
  }
  return {
    kind: "compare",
    op: r.pick(OPS),
    property: r.pick(PROPERTY_NAMES),
    value: randomValue(r),
    position: -1,
  };
}

function randomNode(r: Random, depth: number): FilterNode {
  if (depth === 0 || r.chance(0.4)) return randomComparison(r);
  if (r.int(3) === 0) return { kind: "not", operand: randomNode(r, depth - 1) };
  return {
    kind: r.chance(0.5) ? "and" : "or",
    left: randomNode(r, depth - 1),
    right: randomNode(r, depth - 1),
  };
}

/** A random `$filter` text (at most 8 comparisons); often pinned to one partition, as real queries are. */
export function randomFilter(r: Random): string {
  const node = randomNode(r, 3);
  if (!r.chance(0.4)) return filterToString(node);
  const pk: FilterNode = {
    kind: "compare",
    op: "eq",
    property: "PartitionKey",
    value: { type: "String", value: r.pick(PARTITIONS) },
    position: -1,
  };
  return filterToString({ kind: "and", left: pk, right: node });
}
