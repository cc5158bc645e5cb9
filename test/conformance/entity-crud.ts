import { describe, expect, it } from "vitest";
import { odata, type Table } from "../../src/index.js";
import {
  customProperties,
  expectCode,
  expectEmpty,
  listAll,
  type ReadEntity,
  submit,
  type TargetRef,
} from "./helpers.js";

/** Create, read, update (Merge/Replace), upsert, delete; not-found and conflict codes; select; odd keys. */
export function entityCrudSuite(target: TargetRef): void {
  describe("entity CRUD", () => {
    // Each test takes its own table; `read` reads from the one the running test created.
    let current: Table | undefined;
    const fresh = async () => {
      current = await target().freshTable();
      return current;
    };
    const read = async (pk: string, rk: string, select?: string[]) =>
      (await current!.getEntity(pk, rk, select ? { queryOptions: { select } } : {})) as ReadEntity;

    it("creates an entity and reads it back with keys, etag and timestamp", async () => {
      const t = await fresh();
      const result = await t.createEntity({ partitionKey: "p", rowKey: "r", name: "Ada", n: 1 });
      expect(typeof result.etag).toBe("string");
      const e = await read("p", "r");
      expect(e.partitionKey).toBe("p");
      expect(e.rowKey).toBe("r");
      expect(e.etag).toBe(result.etag);
      expect(typeof e.timestamp).toBe("string");
      expect(customProperties(e)).toEqual({ name: "Ada", n: 1 });
    });

    it("rejects a duplicate create with EntityAlreadyExists and keeps the original", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r", v: "first" });
      await expectCode(
        t.createEntity({ partitionKey: "p", rowKey: "r", v: "second" }),
        "EntityAlreadyExists",
      );
      expect((await read("p", "r")).v).toBe("first");
    });

    it("answers ResourceNotFound for get, update and delete of a missing entity", async () => {
      const t = await fresh();
      await expectCode(t.getEntity("p", "missing"), "ResourceNotFound");
      await expectCode(
        t.updateEntity({ partitionKey: "p", rowKey: "missing", v: 1 }, "Merge"),
        "ResourceNotFound",
      );
      await expectCode(
        t.updateEntity({ partitionKey: "p", rowKey: "missing", v: 1 }, "Replace"),
        "ResourceNotFound",
      );
      await expectCode(t.deleteEntity("p", "missing"), "ResourceNotFound");
      await expectEmpty(t);
    });

    it("answers TableNotFound naming the table for every entity operation on a missing table", async () => {
      const name = target().freshTableName();
      const t = target().store.table(name);
      const e = { partitionKey: "p", rowKey: "r", v: 1 };
      // The message says which table (the service's own does not): `tablekit` prints it as it is.
      const named = { message: expect.stringContaining(`'${name}'`), details: { tableName: name } };
      await expectCode(t.createEntity(e), "TableNotFound", named);
      await expectCode(t.getEntity("p", "r"), "TableNotFound", named);
      await expectCode(t.updateEntity(e, "Merge"), "TableNotFound", named);
      await expectCode(t.upsertEntity(e, "Merge"), "TableNotFound", named);
      await expectCode(t.upsertEntity(e, "Replace"), "TableNotFound", named);
      await expectCode(t.deleteEntity("p", "r"), "TableNotFound", named);
      await expectCode(listAll(t), "TableNotFound", named);
      await expectCode(submit(t, [["create", e]]), "TableNotFound", named);
      await expectCode(t.deleteTable({ failIfMissing: true }), "TableNotFound", named);
    });

    it("updates with Merge by default, keeping the other properties", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r", a: "a", b: 2 });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", b: 3, c: true });
      expect(customProperties(await read("p", "r"))).toEqual({ a: "a", b: 3, c: true });
    });

    it("updates with Merge explicitly, and with Replace dropping the other properties", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r", a: "a", b: 2 });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", c: "c" }, "Merge");
      expect(customProperties(await read("p", "r"))).toEqual({ a: "a", b: 2, c: "c" });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", d: 4 }, "Replace");
      expect(customProperties(await read("p", "r"))).toEqual({ d: 4 });
    });

    it("lets a property change type on merge", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r", v: 1, w: "keep" });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", v: "one" }, "Merge");
      expect(customProperties(await read("p", "r"))).toEqual({ v: "one", w: "keep" });
      await t.updateEntity({ partitionKey: "p", rowKey: "r", v: 2n }, "Merge");
      expect(customProperties(await read("p", "r"))).toEqual({ v: 2n, w: "keep" });
    });

    it("upserts: inserts when missing (Merge and Replace), merges or replaces when present", async () => {
      const t = await fresh();
      await t.upsertEntity({ partitionKey: "p", rowKey: "m", a: 1 }, "Merge");
      await t.upsertEntity({ partitionKey: "p", rowKey: "x", a: 1 }, "Replace");
      expect(customProperties(await read("p", "m"))).toEqual({ a: 1 });
      expect(customProperties(await read("p", "x"))).toEqual({ a: 1 });
      await t.upsertEntity({ partitionKey: "p", rowKey: "m", b: 2 }, "Merge");
      await t.upsertEntity({ partitionKey: "p", rowKey: "x", b: 2 }, "Replace");
      expect(customProperties(await read("p", "m"))).toEqual({ a: 1, b: 2 });
      expect(customProperties(await read("p", "x"))).toEqual({ b: 2 });
    });

    it("upserts with Merge by default", async () => {
      const t = await fresh();
      await t.upsertEntity({ partitionKey: "p", rowKey: "r", a: 1 });
      await t.upsertEntity({ partitionKey: "p", rowKey: "r", b: 2 });
      expect(customProperties(await read("p", "r"))).toEqual({ a: 1, b: 2 });
    });

    it("deletes an entity, after which it is not found", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r" });
      await t.createEntity({ partitionKey: "p", rowKey: "other" });
      await t.deleteEntity("p", "r");
      await expectCode(t.getEntity("p", "r"), "ResourceNotFound");
      await expectCode(t.deleteEntity("p", "r"), "ResourceNotFound");
      expect((await listAll(t)).map((e) => e.rowKey)).toEqual(["other"]);
    });

    it("stores an entity with no custom properties", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r" });
      expect(customProperties(await read("p", "r"))).toEqual({});
    });

    it("does not store null and undefined properties", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r", a: null, b: undefined, c: 1 });
      expect(customProperties(await read("p", "r"))).toEqual({ c: 1 });
    });

    it("get with select returns only the selected properties, plus etag and timestamp", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r", a: 1, b: "two", c: true });
      const e = await read("p", "r", ["a", "c"]);
      expect(e.a).toBe(1);
      expect(e.c).toBe(true);
      expect(typeof e.etag).toBe("string");
      expect(
        Object.keys(e)
          .filter((k) => k !== "etag" && k !== "timestamp")
          .sort(),
      ).toEqual(["a", "c"]);
    });

    it("get with select of a property the entity lacks: null, as the service answers", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "r", a: 1 });
      const e = await read("p", "r", ["a", "missing"]);
      expect(e.a).toBe(1);
      expect(e.missing).toBeNull();
    });

    it("accepts empty-string PartitionKey and RowKey", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "", rowKey: "", v: "both empty" });
      await t.createEntity({ partitionKey: "", rowKey: "r", v: "empty pk" });
      await t.createEntity({ partitionKey: "p", rowKey: "", v: "empty rk" });
      expect((await read("", "")).v).toBe("both empty");
      expect((await read("", "r")).v).toBe("empty pk");
      expect((await read("p", "")).v).toBe("empty rk");
      expect((await listAll(t)).map((e) => [e.partitionKey, e.rowKey])).toEqual([
        ["", ""],
        ["", "r"],
        ["p", ""],
      ]);
      expect((await listAll(t, "PartitionKey eq ''")).map((e) => e.rowKey)).toEqual(["", "r"]);
      await t.updateEntity({ partitionKey: "", rowKey: "", v: "updated" }, "Replace");
      expect((await read("", "")).v).toBe("updated");
      await t.deleteEntity("", "");
      await expectCode(t.getEntity("", ""), "ResourceNotFound");
    });

    const oddKeys = [
      "with space",
      "O'Brien",
      "''",
      'double"quote',
      "percent%20and+plus&amp=",
      "parens(and)commas,",
      "über-日本-😀",
      "tab-less~!@$^*[]{}|;:<>.",
      " leading and trailing ",
    ];
    it("round-trips keys with spaces, quotes, unicode and URL-special characters", async () => {
      const t = await fresh();
      for (const [i, key] of oddKeys.entries()) {
        await t.createEntity({ partitionKey: key, rowKey: key, i });
      }
      for (const [i, key] of oddKeys.entries()) {
        const e = await read(key, key);
        expect(e.partitionKey).toBe(key);
        expect(e.rowKey).toBe(key);
        expect(e.i).toBe(i);
        const found = await listAll(t, odata`PartitionKey eq ${key} and RowKey eq ${key}`);
        expect(found.map((x) => x.i)).toEqual([i]);
        await t.updateEntity({ partitionKey: key, rowKey: key, i, touched: true }, "Merge");
        expect((await read(key, key)).touched).toBe(true);
      }
      for (const key of oddKeys) await t.deleteEntity(key, key);
      await expectEmpty(t);
    });
  });
}
