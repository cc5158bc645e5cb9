/** fast-check generators for filters, typed values and entities, shared by the filter tests. */
import fc from "fast-check";
import type { CompareOp, FilterNode } from "../../src/filter/index.js";
import { DateTime, type TypedValue } from "../../src/model/index.js";

export const OPS: readonly CompareOp[] = ["eq", "ne", "gt", "ge", "lt", "le"];

/** Any UTF-16 string, lone surrogates included. */
export const anyString = (maxLength = 12) =>
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });

/** Every typed value the model allows (all Doubles, all Int64s, any DateTime, …). */
export const typedValue: fc.Arbitrary<TypedValue> = fc.oneof(
  anyString().map((value) => ({ type: "String", value }) as const),
  fc.integer().map((value) => ({ type: "Int32", value: value === 0 ? 0 : value }) as const),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((value) => ({ type: "Int64", value }) as const),
  fc.double().map((value) => ({ type: "Double", value }) as const),
  fc.boolean().map((value) => ({ type: "Boolean", value }) as const),
  fc
    .bigInt({ min: 0n, max: DateTime.MAX.ticks })
    .map((t) => ({ type: "DateTime", value: DateTime.fromTicks(t) }) as const),
  fc.uuid().map((value) => ({ type: "Guid", value }) as const),
  fc.uint8Array({ maxLength: 8 }).map((value) => ({ type: "Binary", value }) as const),
);

/** A small alphabet, so that random keys and literals collide and border each other often. */
export const KEY_ALPHABET = ["", "a", "b", "c", "\ue000", "😀"];
export const smallKey = fc
  .array(fc.constantFrom("a", "b", "c", "\ue000", "😀"), { maxLength: 2 })
  .map((parts) => parts.join(""));

/** A value for property `n` (Int32, Double or String) or for a key/other property. */
const smallValue: fc.Arbitrary<TypedValue> = fc.oneof(
  fc.integer({ min: -2, max: 2 }).map((value) => ({ type: "Int32", value }) as const),
  fc.constantFrom(-1, 0, 1.5, Number.NaN).map((value) => ({ type: "Double", value }) as const),
  smallKey.map((value) => ({ type: "String", value }) as const),
);

/** Comparisons over PartitionKey, RowKey and two ordinary properties, mostly with String literals. */
const smallComparison: fc.Arbitrary<FilterNode> = fc
  .tuple(
    fc.constantFrom("PartitionKey", "PartitionKey", "RowKey", "RowKey", "n", "s"),
    fc.constantFrom(...OPS),
    fc.oneof(
      { weight: 4, arbitrary: smallKey.map((value) => ({ type: "String", value }) as const) },
      smallValue,
    ),
  )
  .map(([property, op, value]) => ({ kind: "compare", op, property, value, position: 0 }) as const);

/** Random filter trees of and/or/not over `leaf`. */
export function filterTree(leaf: fc.Arbitrary<FilterNode>, maxDepth = 4): fc.Arbitrary<FilterNode> {
  const { tree } = fc.letrec<{ tree: FilterNode }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", maxDepth, withCrossShrink: true },
      leaf,
      fc.record({
        kind: fc.constantFrom("and" as const, "or" as const),
        left: tie("tree"),
        right: tie("tree"),
      }),
      fc.record({ kind: fc.constant("not" as const), operand: tie("tree") }),
    ),
  }));
  return tree;
}

export const smallFilter = filterTree(smallComparison);

/** Filters over any property name with any literal, for printing and parsing. */
export const anyFilter = filterTree(
  fc
    .tuple(
      fc
        .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/)
        .filter((s) => !/^(and|or|not|eq|ne|gt|ge|lt|le|true|false|null|NaN|INF)$/.test(s)),
      fc.constantFrom(...OPS),
      typedValue,
    )
    .map(([property, op, value]) => ({ kind: "compare", op, property, value, position: 0 }) as const),
);

/** Entities whose keys and properties `n`, `s` collide with the small filters' literals. */
export const smallEntity = fc.record({
  partitionKey: smallKey,
  rowKey: smallKey,
  n: fc.option(smallValue, { nil: undefined }),
  s: fc.option(smallValue, { nil: undefined }),
});

export function toFilterable(e: { partitionKey: string; rowKey: string; n?: TypedValue; s?: TypedValue }) {
  const properties = new Map<string, TypedValue>();
  if (e.n) properties.set("n", e.n);
  if (e.s) properties.set("s", e.s);
  return { partitionKey: e.partitionKey, rowKey: e.rowKey, properties };
}
