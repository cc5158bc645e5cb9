import {
  type Capabilities,
  type CompareOp,
  DateTime,
  type FilterNode,
  filterToString,
  type TypedValue,
} from "../../../src/index.js";
import { PROTOTYPE_NAMES } from "../prototype-names.js";
import type { Random } from "./random.js";

/**
 * Random data for the differential tests: entities whose properties change type from row to row
 * (so typed filter semantics matter), and filters over keys and properties. Deterministic per seed.
 */

/** What a backend's test varies in the generated data; the rest is shared or read from capabilities. */
export interface DataOptions {
  /** PartitionKey pool (an empty key exercises backends that cannot store it as is). */
  readonly partitions: readonly string[];
  /** RowKey pool; transactions draw their rows from it too. */
  readonly rows: readonly string[];
  /** DateTime offsets in 100 ns ticks from a fixed base, around a millisecond boundary. */
  readonly tickOffsets: readonly bigint[];
  /** Chance that a comparison is on PartitionKey or RowKey rather than on a property. */
  readonly keyComparisonChance: number;
  /** Key values absent from the pools, compared against to probe range edges. */
  readonly absentKeys: { readonly partitions: readonly string[]; readonly rows: readonly string[] };
  /** Chance that a query filter is pinned to one partition (`PartitionKey eq … and (…)`). */
  readonly pinnedPartitionChance: number;
}

/**
 * Property names of generated entities; selects add "zz", which no entity has. The names of
 * Object.prototype's members are there because plain-object lookups once found them by inheritance.
 */
export const PROPERTY_NAMES = ["a", "b", "c", "d", ...PROTOTYPE_NAMES];

const BASE = DateTime.parse("2026-03-04T05:06:07.0000000Z").ticks;
const OPS: CompareOp[] = ["eq", "ne", "gt", "ge", "lt", "le"];
const ALL_DOUBLES = [
  5,
  1.5,
  -2.25,
  0,
  -0,
  0.1,
  1e300,
  5e-324,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];

export type RandomEntity = { partitionKey: string; rowKey: string } & Record<string, unknown>;

/** Draws values, entities and filters from small pools, so filters hit stored values. */
export class RandomData {
  private readonly doubles: readonly number[];
  /** PROPERTY_NAMES less those the backend declares it cannot store. */
  private readonly propertyNames: readonly string[];

  constructor(
    private readonly r: Random,
    readonly options: DataOptions,
    capabilities: Capabilities,
  ) {
    // A backend that declares it loses -0 would fail on it for a known, documented reason.
    const losesNegativeZero = capabilities.divergences.some((d) => d.id === "double-negative-zero");
    this.doubles = losesNegativeZero ? ALL_DOUBLES.filter((d) => !Object.is(d, -0)) : ALL_DOUBLES;
    const unstorable = capabilities.limits.unstorablePropertyNames ?? [];
    this.propertyNames = PROPERTY_NAMES.filter((n) => !unstorable.includes(n));
  }

  /** A value of a random EDM type. */
  value(): TypedValue {
    const r = this.r;
    switch (r.int(8)) {
      case 0:
        return { type: "String", value: r.pick(["", "5", "a", "b", "ab", "O'Brien", "é", "😀", "\ue000"]) };
      case 1:
        return { type: "Int32", value: r.pick([0, 5, -7, 2147483647, -2147483648, 42]) };
      case 2:
        return { type: "Int64", value: r.pick([0n, 5n, -7n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)]) };
      case 3:
        return { type: "Double", value: r.pick(this.doubles) };
      case 4:
        return { type: "Boolean", value: r.chance(0.5) };
      case 5:
        return { type: "DateTime", value: DateTime.fromTicks(BASE + r.pick(this.options.tickOffsets)) };
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

  /** A caller's entity: keys plus 0..4 properties in the annotated `{ value, type }` form. */
  entity(partitionKey: string, rowKey: string): RandomEntity {
    const entity: RandomEntity = { partitionKey, rowKey };
    const count = this.r.int(5);
    for (let i = 0; i < count; i++) {
      const tv = this.value();
      // Int64 as text, as the SDK's annotated form has it.
      // defineProperty: `entity["__proto__"] = …` would replace the prototype instead.
      Object.defineProperty(entity, this.r.pick(this.propertyNames), {
        value: { type: tv.type, value: tv.type === "Int64" ? tv.value.toString() : tv.value },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return entity;
  }

  /** A random `$filter` text (at most 8 comparisons, sometimes pinned to one partition). */
  filter(): string {
    const node = this.node(3);
    if (this.options.pinnedPartitionChance === 0 || !this.r.chance(this.options.pinnedPartitionChance)) {
      return filterToString(node);
    }
    const pk: FilterNode = {
      kind: "compare",
      op: "eq",
      property: "PartitionKey",
      value: { type: "String", value: this.r.pick(this.options.partitions) },
      position: -1,
    };
    return filterToString({ kind: "and", left: pk, right: node });
  }

  private node(depth: number): FilterNode {
    const r = this.r;
    if (depth === 0 || r.chance(0.4)) return this.comparison();
    if (r.int(3) === 0) return { kind: "not", operand: this.node(depth - 1) };
    return { kind: r.chance(0.5) ? "and" : "or", left: this.node(depth - 1), right: this.node(depth - 1) };
  }

  private comparison(): FilterNode {
    const r = this.r;
    const { partitions, rows, absentKeys } = this.options;
    if (r.chance(this.options.keyComparisonChance)) {
      const property = r.pick(["PartitionKey", "RowKey"]);
      const value =
        property === "PartitionKey"
          ? r.pick([...partitions, ...absentKeys.partitions])
          : r.pick([...rows, ...absentKeys.rows]);
      return { kind: "compare", op: r.pick(OPS), property, value: { type: "String", value }, position: -1 };
    }
    return {
      kind: "compare",
      op: r.pick(OPS),
      property: r.pick(PROPERTY_NAMES),
      value: this.value(),
      position: -1,
    };
  }
}
