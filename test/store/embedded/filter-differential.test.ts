import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CompareOp, FilterNode } from "../../../src/filter/ast.js";
import { evaluateFilter, keyRanges } from "../../../src/filter/index.js";
import { compareUtf16, DateTime, type StoredEntity, type TypedValue } from "../../../src/model/index.js";
import { PROTOTYPE_NAMES } from "../../support/prototype-names.js";
import { keyOf, openMemory, queryAll } from "./helpers.js";

/**
 * Differential test: for random typed entities and random filters, the SQL the embedded engine
 * runs selects exactly the entities `evaluateFilter` accepts, in key order, whatever the page size,
 * time budget and key ranges. Set TABLEKIT_SEED to replay a failure (fast-check prints the seed).
 */

const SEED = Number(process.env.TABLEKIT_SEED ?? Date.now() % 1_000_000);
const RUNS = Number(process.env.TABLEKIT_RUNS ?? 150);

const KEYS = ["", "0", "a", "ab", "b", "é", "\ud7ff", "\ue000", "\uffff", "😀", "\u{10000}", "z z"];
const OPS: CompareOp[] = ["eq", "ne", "gt", "ge", "lt", "le"];
const GUIDS = [
  "00000000-0000-0000-0000-000000000000",
  "0f8fad5b-d9cb-469f-a165-70867728950e",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
];

const stringValue = fc.oneof(
  fc.constantFrom(...KEYS),
  fc.string({ maxLength: 3, unit: fc.constantFrom("a", "B", "\u00e9", "\ue000", "😀", "\u0000", "'", "\\") }),
);

const typedValue: fc.Arbitrary<TypedValue> = fc.oneof(
  stringValue.map((value) => ({ type: "String" as const, value })),
  fc
    .oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(-2147483648, 2147483647))
    .map((value) => ({ type: "Int32" as const, value })),
  fc
    .oneof(
      fc.bigInt({ min: -3n, max: 3n }),
      fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n, 2n ** 53n + 1n),
    )
    .map((value) => ({ type: "Int64" as const, value })),
  fc
    .oneof(fc.double(), fc.constantFrom(0, -0, 1.5, 5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53 + 2))
    .map((value) => ({ type: "Double" as const, value })),
  fc.boolean().map((value) => ({ type: "Boolean" as const, value })),
  fc
    .bigInt({ min: 504_911_232_000_000_000n, max: 504_911_232_000_000_003n })
    .map((ticks) => ({ type: "DateTime" as const, value: DateTime.fromTicks(ticks) })),
  fc.constantFrom(...GUIDS).map((value) => ({ type: "Guid" as const, value })),
  fc.uint8Array({ maxLength: 3, max: 2 }).map((value) => ({ type: "Binary" as const, value })),
);

const NAMES = ["a", "b", "c", ...PROTOTYPE_NAMES];

const entities = fc.uniqueArray(
  fc.record({
    partitionKey: fc.constantFrom(...KEYS),
    rowKey: fc.constantFrom(...KEYS),
    // Values come from a small pool, so literals often equal stored values.
    props: fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.nat(11)), { maxLength: 3 }),
  }),
  { selector: (e) => `${e.partitionKey}\u0001${e.rowKey}`, maxLength: 40 },
);

/** A filter; `pool` indices stand for values of the pool, Timestamp literals for stored timestamps. */
type Shape =
  | { kind: "and" | "or"; left: Shape; right: Shape }
  | { kind: "not"; operand: Shape }
  | {
      kind: "compare";
      op: CompareOp;
      property: string;
      literal:
        | { pool: number }
        | { value: TypedValue }
        | { key: string }
        | { timestampOf: number; delta: bigint };
    };

const shape: fc.Arbitrary<Shape> = fc.letrec<{ node: Shape }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({
      kind: fc.constant("compare" as const),
      op: fc.constantFrom(...OPS),
      property: fc.constantFrom(...NAMES, "missing"),
      literal: fc.oneof(
        fc.nat(11).map((pool) => ({ pool })),
        typedValue.map((value) => ({ value })),
      ),
    }),
    fc.record({
      kind: fc.constant("compare" as const),
      op: fc.constantFrom(...OPS),
      property: fc.constantFrom("PartitionKey", "RowKey"),
      literal: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...KEYS, "\ud800", "a\udc00").map((key) => ({ key })) },
        { weight: 1, arbitrary: typedValue.map((value) => ({ value })) },
      ),
    }),
    fc.record({
      kind: fc.constant("compare" as const),
      op: fc.constantFrom(...OPS),
      property: fc.constant("Timestamp"),
      literal: fc.record({ timestampOf: fc.nat(40), delta: fc.bigInt({ min: -1n, max: 1n }) }),
    }),
    fc.record({
      kind: fc.constantFrom("and" as const, "or" as const),
      left: tie("node"),
      right: tie("node"),
    }),
    fc.record({ kind: fc.constant("not" as const), operand: tie("node") }),
  ),
})).node;

function toFilter(s: Shape, pool: TypedValue[], stored: StoredEntity[]): FilterNode {
  switch (s.kind) {
    case "and":
    case "or":
      return { kind: s.kind, left: toFilter(s.left, pool, stored), right: toFilter(s.right, pool, stored) };
    case "not":
      return { kind: "not", operand: toFilter(s.operand, pool, stored) };
    case "compare": {
      const l = s.literal;
      let value: TypedValue;
      if ("pool" in l) value = pool[l.pool % pool.length]!;
      else if ("value" in l) value = l.value;
      else if ("key" in l) value = { type: "String", value: l.key };
      else {
        const base = stored.length
          ? stored[l.timestampOf % stored.length]!.timestamp.ticks
          : 600_000_000_000_000_000n;
        value = { type: "DateTime", value: DateTime.fromTicks(base + l.delta) };
      }
      return { kind: "compare", op: s.op, property: s.property, value, position: 0 };
    }
  }
}

const byKey = (x: StoredEntity, y: StoredEntity) =>
  compareUtf16(x.partitionKey, y.partitionKey) || compareUtf16(x.rowKey, y.rowKey);

describe(`embedded filter-to-SQL agrees with evaluateFilter (seed ${SEED})`, () => {
  it("for random entities, filters, page sizes and time budgets", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(typedValue, { minLength: 12, maxLength: 12 }),
        entities,
        fc.array(shape, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(1, 2, 3, 1000),
        fc.constantFrom(0, 5000),
        fc.boolean(),
        async (pool, rows, shapes, maxPageSize, timeBudgetMs, useRanges) => {
          const store = await openMemory();
          try {
            await store.createTable("Diff", {});
            const table = store.table("Diff");
            const stored: StoredEntity[] = [];
            for (const r of rows) {
              const properties = new Map(r.props.map(([name, i]) => [name, pool[i]!] as const));
              const e = { partitionKey: r.partitionKey, rowKey: r.rowKey, properties };
              const { etag, timestamp } = (await table.write({ kind: "create", entity: e }, {}))!;
              stored.push({ ...e, etag, timestamp });
            }
            stored.sort(byKey);
            for (const s of shapes) {
              const filter = toFilter(s, pool, stored);
              const expected = stored.filter((e) => evaluateFilter(filter, e)).map(keyOf);
              const ranges = useRanges ? keyRanges(filter) : undefined;
              if (ranges && ranges.length === 0) {
                expect(expected).toEqual([]);
                continue;
              }
              const { entities: found } = await queryAll(table, {
                filter,
                ...(ranges ? { ranges } : {}),
                maxPageSize,
                timeBudgetMs,
              });
              expect(found.map(keyOf)).toEqual(expected);
            }
          } finally {
            await store.close();
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
