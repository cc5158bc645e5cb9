import fc from "fast-check";
import { expect, it } from "vitest";
import { evaluateFilter, type FilterNode } from "../../../src/filter/index.js";
import type { Store } from "../../../src/index.js";
import { DateTime, normalizeEntity, type TypedValue } from "../../../src/model/index.js";
import { CATALOGUE_PARTITION_KEY } from "../../../src/store/backends/dynamodb/dynamodb-tables.js";
import { fromItem } from "../../../src/store/backends/dynamodb/table-entity-codec.js";
import { DynamoDbExpressionBuilder } from "../../../src/store/backends/dynamodb/table-expression-builder.js";
import { toDynamoFilter } from "../../../src/store/backends/dynamodb/table-filter-translator.js";
import { PARTITION_CATALOGUE_KEY } from "../../../src/store/backends/dynamodb/table-partition-catalogue.js";
import type { AttributeMap } from "../../../src/store/backends/dynamodb/table-sdk.js";
import { filterTree, OPS } from "../../filter/arbitraries.js";

/** Values that border and collide with each other, of every EDM type. */
const POOL: readonly TypedValue[] = [
  { type: "Int32", value: -1 },
  { type: "Int32", value: 0 },
  { type: "Int32", value: 1 },
  { type: "Int64", value: -1n },
  { type: "Int64", value: 0n },
  { type: "Int64", value: 2n ** 60n + 1n },
  { type: "Double", value: -0 },
  { type: "Double", value: 0 },
  { type: "Double", value: 1 },
  { type: "Double", value: 1.5 },
  { type: "Double", value: Number.NaN },
  { type: "Double", value: Number.POSITIVE_INFINITY },
  { type: "Double", value: Number.NEGATIVE_INFINITY },
  // Either side of what a DynamoDB number holds (1e-129..1e125 in magnitude here).
  { type: "Double", value: 1e125 },
  { type: "Double", value: 1e126 },
  { type: "Double", value: -1e200 },
  { type: "Double", value: 1e-129 },
  { type: "Double", value: 5e-324 },
  { type: "Double", value: -1e-130 },
  { type: "Double", value: 1e21 },
  { type: "String", value: "" },
  { type: "String", value: "a" },
  { type: "String", value: "b" },
  { type: "String", value: "\ue000" },
  { type: "String", value: "😀" },
  { type: "Boolean", value: false },
  { type: "Boolean", value: true },
  { type: "DateTime", value: DateTime.parse("2020-01-01T00:00:00.0000001Z") },
  { type: "DateTime", value: DateTime.parse("2020-01-01T00:00:00.0000002Z") },
  { type: "Guid", value: "00000000-0000-0000-0000-00000000000a" },
  { type: "Guid", value: "00000000-0000-0000-0000-00000000000b" },
  { type: "Binary", value: new Uint8Array() },
  { type: "Binary", value: new Uint8Array([0]) },
  { type: "Binary", value: new Uint8Array([1, 2]) },
];
const KEYS = ["", "a", "b", "\ue000", "😀"];
const PROPERTIES = ["p", "q"];

const comparison: fc.Arbitrary<FilterNode> = fc.oneof(
  fc
    .tuple(fc.constantFrom(...PROPERTIES), fc.constantFrom(...OPS), fc.constantFrom(...POOL))
    .map(([property, op, value]) => ({ kind: "compare", op, property, value, position: 0 }) as const),
  fc
    .tuple(fc.constantFrom("PartitionKey", "RowKey"), fc.constantFrom(...OPS), fc.constantFrom(...KEYS))
    .map(
      ([property, op, value]) =>
        ({ kind: "compare", op, property, value: { type: "String", value }, position: 0 }) as const,
    ),
);

/**
 * The translation checked against the real server: for random filters, a Scan with the
 * translated FilterExpression returns exactly the entities `evaluateFilter` accepts, or a superset
 * of them when the translation says it is not exact.
 */
export function filterOnServerTests(ref: () => { store: Store; rawScan: RawScan }): void {
  it("a Scan with the translated filter returns what evaluateFilter accepts (a superset when inexact)", async () => {
    const { store, rawScan } = ref();
    const table = store.table("FilterOnServer");
    await table.createTable();
    const random = fc.sample(fc.tuple(fc.constantFrom(...POOL), fc.constantFrom(...POOL)), {
      numRuns: 60,
      seed: 5,
    });
    const entities = random.map(([p, q], i) =>
      normalizeEntity(
        {
          partitionKey: KEYS[i % KEYS.length]!,
          rowKey: `${KEYS[(i * 7) % KEYS.length]}${i}`,
          p,
          q: i % 4 === 0 ? undefined : q,
        },
        store.capabilities.limits,
      ),
    );
    for (const e of entities) {
      await table.createEntity({
        partitionKey: e.partitionKey,
        rowKey: e.rowKey,
        ...Object.fromEntries(e.properties),
      });
    }
    const id = (e: { partitionKey: string; rowKey: string }) => JSON.stringify([e.partitionKey, e.rowKey]);
    await fc.assert(
      fc.asyncProperty(filterTree(comparison, 3), async (filter) => {
        const b = new DynamoDbExpressionBuilder();
        const { condition, exact } = toDynamoFilter(filter, b);
        const expression = typeof condition === "string" ? condition : undefined;
        const found =
          condition === false
            ? []
            : (await rawScan("tk_filteronserver", expression, b.used(expression)))
                .filter((item) => !RESERVED.has((item.PartitionKey as { S: string }).S))
                .map((item) => id(fromItem(item as AttributeMap)));
        const truth = entities.filter((e) => evaluateFilter(filter, e)).map(id);
        if (exact) expect(new Set(found)).toEqual(new Set(truth));
        else for (const t of truth) expect(found).toContain(t);
      }),
      { numRuns: 250, seed: 11 },
    );
  });
}

/** The partitions of tablekit's own items (the table's name, the partition catalogue), not entities. */
const RESERVED = new Set([CATALOGUE_PARTITION_KEY, PARTITION_CATALOGUE_KEY]);

export type RawScan = (
  tableName: string,
  filterExpression: string | undefined,
  placeholders: object,
) => Promise<Record<string, unknown>[]>;
