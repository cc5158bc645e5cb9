import { describe, expect, it } from "vitest";
import { collect, expectCode, listAll, submit, type TargetRef } from "./helpers.js";

/** A closed store: every call on it, and on its tables' handles, is InvalidInput before any I/O. */
export function closedStoreSuite(target: TargetRef): void {
  describe("closed store", () => {
    it("every call on a closed store or a handle of it is InvalidInput and touches nothing; closing twice is fine", async () => {
      const store = await target().openAnother();
      const name = target().freshTableName();
      await store.createTable(name);
      const t = store.table(name);
      const { etag } = await t.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
      const missing = store.table(target().freshTableName());
      await store.close();
      await store.close();
      const calls: [string, () => unknown][] = [
        ["store.table", () => store.table(name)],
        ["store.createTable", () => store.createTable(target().freshTableName())],
        ["store.deleteTable", () => store.deleteTable(name)],
        ["listTables", () => collect(store.listTables())],
        ["table.createTable", () => missing.createTable()],
        ["table.deleteTable", () => t.deleteTable()],
        ["createEntity", () => t.createEntity({ partitionKey: "p", rowKey: "new" })],
        ["getEntity", () => t.getEntity("p", "r")],
        ["getEntity on a missing table", () => missing.getEntity("p", "r")],
        ["updateEntity", () => t.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 })],
        ["upsertEntity", () => t.upsertEntity({ partitionKey: "p", rowKey: "r", v: 2 })],
        ["deleteEntity", () => t.deleteEntity("p", "r")],
        ["listEntities", () => collect(t.listEntities())],
        ["submitTransaction", () => submit(t, [["create", { partitionKey: "p", rowKey: "tx" }]])],
      ];
      for (const [label, call] of calls) {
        await expectCode((async () => call())(), "InvalidInput").catch((err: Error) => {
          throw new Error(`${label}: ${err.message}`, { cause: err });
        });
      }
      const all = await listAll(target().store.table(name));
      expect(all.map((e) => [e.rowKey, e.v, e.etag])).toEqual([["r", 1, etag]]);
    });
  });
}
