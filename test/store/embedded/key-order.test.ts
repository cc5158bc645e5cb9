import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareUtf8, compareUtf16 } from "../../../src/model/index.js";
import { fromStoredKey, toStoredKey } from "../../../src/store/backends/embedded/table-key-order.js";
import { freshTable, openMemory, queryAll } from "./helpers.js";

/** Keys on both sides of the place where UTF-16 and code-point (UTF-8) order disagree. */
const KEYS = [
  "\ue000",
  "\uffff",
  "😀",
  "\ud7ff",
  "z",
  "\u{10000}",
  "\u{10ffff}",
  "é",
  "a\ue000",
  "a😀",
  "",
  "\ufffd",
];

describe("embedded key order: UTF-16 code units (compareUtf16)", () => {
  it("the keys of this test really are ordered differently by UTF-8", () => {
    expect([...KEYS].sort(compareUtf16)).not.toEqual([...KEYS].sort(compareUtf8));
  });

  it("PartitionKeys and RowKeys come back in compareUtf16 order", async () => {
    const store = await openMemory();
    const table = await freshTable(store);
    for (const k of KEYS) {
      await table.write(
        { kind: "create", entity: { partitionKey: k, rowKey: "r", properties: new Map() } },
        {},
      );
      await table.write(
        { kind: "create", entity: { partitionKey: "same", rowKey: k, properties: new Map() } },
        {},
      );
    }
    const { entities } = await queryAll(table);
    const partitions = entities
      .filter((e) => e.rowKey === "r" && e.partitionKey !== "same")
      .map((e) => e.partitionKey);
    expect(partitions).toEqual([...KEYS].sort(compareUtf16));
    const rows = entities.filter((e) => e.partitionKey === "same").map((e) => e.rowKey);
    expect(rows).toEqual([...KEYS].sort(compareUtf16));
    // Point reads find every key under its own spelling.
    for (const k of KEYS) expect((await table.get("same", k, {}))?.rowKey).toBe(k);
    await store.close();
  });

  it("key ranges and key filters use the same order", async () => {
    const store = await openMemory();
    const table = await freshTable(store);
    for (const k of KEYS)
      await table.write(
        { kind: "create", entity: { partitionKey: "p", rowKey: k, properties: new Map() } },
        {},
      );
    for (const bound of KEYS) {
      const { entities } = await queryAll(table, {
        ranges: [{ kind: "rows", pk: "p", rk: { lower: { value: bound, inclusive: false } } }],
        filter: {
          kind: "compare",
          op: "gt",
          property: "RowKey",
          value: { type: "String", value: bound },
          position: 0,
        },
      });
      expect(
        entities.map((e) => e.rowKey),
        `RowKey gt ${JSON.stringify(bound)}`,
      ).toEqual([...KEYS].sort(compareUtf16).filter((k) => compareUtf16(k, bound) > 0));
    }
    await store.close();
  });

  it("the stored form is a bijection whose code-point order is the key's code-unit order", () => {
    const key = fc.string({ unit: "binary", maxLength: 6 });
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(fromStoredKey(toStoredKey(a))).toBe(a);
        expect(Math.sign(compareUtf8(toStoredKey(a), toStoredKey(b)))).toBe(Math.sign(compareUtf16(a, b)));
      }),
      { numRuns: 2000 },
    );
    // Keys below U+D800 are stored unchanged.
    expect(toStoredKey("plain key 123 é")).toBe("plain key 123 é");
  });
});
