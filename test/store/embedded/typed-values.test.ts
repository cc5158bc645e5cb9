import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FilterNode } from "../../../src/filter/ast.js";
import { DateTime, type TypedValue, typedValuesEqual } from "../../../src/model/index.js";
import type { TableBackend } from "../../../src/store/tables/table-backend.js";
import { entity, freshTable, openFile, queryAll, type TestStore, tempDir } from "./helpers.js";

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);

/** Edge values of every EDM type, each stored as property `v` of its own row. */
const CASES: Record<string, TypedValue> = {
  s_empty: { type: "String", value: "" },
  s_unicode: { type: "String", value: 'é\u2028"\\\n\t😀\ue000\uffff\u0000x' },
  s_long: { type: "String", value: "ab".repeat(16_000) },
  i_zero: { type: "Int32", value: 0 },
  i_min: { type: "Int32", value: -2147483648 },
  i_max: { type: "Int32", value: 2147483647 },
  l_min: { type: "Int64", value: -(2n ** 63n) },
  l_max: { type: "Int64", value: 2n ** 63n - 1n },
  l_2p53p1: { type: "Int64", value: 2n ** 53n + 1n },
  d_integral: { type: "Double", value: 5 },
  d_big_integral: { type: "Double", value: 132485911247283150 },
  d_fraction: { type: "Double", value: 0.1 },
  d_neg_zero: { type: "Double", value: -0 },
  d_zero: { type: "Double", value: 0 },
  d_nan: { type: "Double", value: Number.NaN },
  d_inf: { type: "Double", value: Number.POSITIVE_INFINITY },
  d_neg_inf: { type: "Double", value: Number.NEGATIVE_INFINITY },
  d_max: { type: "Double", value: Number.MAX_VALUE },
  d_min_subnormal: { type: "Double", value: 5e-324 },
  d_1e21: { type: "Double", value: 1e21 },
  b_true: { type: "Boolean", value: true },
  b_false: { type: "Boolean", value: false },
  t_min: { type: "DateTime", value: DateTime.parse("1601-01-01T00:00:00Z") },
  t_max: { type: "DateTime", value: DateTime.parse("9999-12-31T23:59:59.9999999Z") },
  t_7digits: { type: "DateTime", value: DateTime.parse("2026-11-22T02:49:12.9327936Z") },
  g: { type: "Guid", value: "0f8fad5b-d9cb-469f-a165-70867728950e" },
  x_empty: { type: "Binary", value: new Uint8Array() },
  x_all_bytes: { type: "Binary", value: bytes(256) },
  x_64k: { type: "Binary", value: bytes(65536) },
};

const eq = (value: TypedValue, op: "eq" | "ne" = "eq"): FilterNode => ({
  kind: "compare",
  op,
  property: "v",
  value,
  position: 0,
});

describe("embedded engine: every EDM value round-trips exactly", () => {
  const { dir, cleanup } = tempDir();
  let store: TestStore;
  let table: TableBackend;

  beforeAll(async () => {
    store = await openFile(`${dir}/values.db`);
    table = await freshTable(store);
    for (const [rk, v] of Object.entries(CASES)) {
      await table.write(
        {
          kind: "create",
          entity: {
            partitionKey: "p",
            rowKey: rk,
            properties: new Map([
              ["v", v],
              ["other", { type: "Int32", value: 1 }],
            ]),
          },
        },
        {},
      );
    }
  });
  afterAll(async () => {
    await store.close();
    cleanup();
  });

  it("through a point read", async () => {
    for (const [rk, v] of Object.entries(CASES)) {
      const got = await table.get("p", rk, {});
      expect(typedValuesEqual(got!.properties.get("v")!, v), rk).toBe(true);
    }
  });

  it("through a query, after closing and reopening the file", async () => {
    await store.close();
    store = await openFile(`${dir}/values.db`);
    table = store.table("Things");
    const { entities } = await queryAll(table);
    expect(entities.map((e) => e.rowKey).sort()).toEqual(Object.keys(CASES).sort());
    for (const e of entities) {
      expect(typedValuesEqual(e.properties.get("v")!, CASES[e.rowKey]!), e.rowKey).toBe(true);
    }
  });

  it("through a Merge that rewrites the stored properties", async () => {
    for (const rk of Object.keys(CASES)) {
      await table.write(
        {
          kind: "update",
          entity: entity({ partitionKey: "p", rowKey: rk, other: 2 }),
          mode: "Merge",
          etag: "*",
        },
        {},
      );
      const got = await table.get("p", rk, {});
      expect(typedValuesEqual(got!.properties.get("v")!, CASES[rk]!), rk).toBe(true);
      expect(got!.properties.get("other")).toEqual({ type: "Int32", value: 2 });
    }
  });

  it("and a filter on each value finds exactly its row (NaN: only ne)", async () => {
    for (const [rk, v] of Object.entries(CASES)) {
      const { entities } = await queryAll(table, { filter: eq(v) });
      const found = entities.map((e) => e.rowKey);
      if (v.type === "Double" && Number.isNaN(v.value)) {
        expect(found, rk).toEqual([]);
        const ne = (await queryAll(table, { filter: eq(v, "ne") })).entities.map((e) => e.rowKey);
        expect(ne.sort(), rk).toEqual(
          Object.keys(CASES)
            .filter((k) => CASES[k]!.type === "Double")
            .sort(),
        );
      } else if (v.type === "Double" && v.value === 0) {
        // -0 equals 0 under IEEE 754.
        expect(found.sort(), rk).toEqual(["d_neg_zero", "d_zero"]);
      } else {
        expect(found, rk).toEqual([rk]);
      }
    }
  });

  it("keeps the property order of the write", async () => {
    const props = new Map<string, TypedValue>([
      ["z", { type: "Int32", value: 1 }],
      ["a", { type: "String", value: "x" }],
      ["m", { type: "Boolean", value: true }],
    ]);
    await table.write(
      { kind: "create", entity: { partitionKey: "order", rowKey: "1", properties: props } },
      {},
    );
    expect([...(await table.get("order", "1", {}))!.properties.keys()]).toEqual(["z", "a", "m"]);
  });
});
