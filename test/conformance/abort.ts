import { describe, expect, it } from "vitest";
import { collect, expectCode, listAll, submit, type TargetRef } from "./helpers.js";

/** An already-aborted signal stops every call before it does anything. */
export function abortSuite(target: TargetRef): void {
  describe("abort", () => {
    it("every call with an already-aborted signal rejects with Aborted and writes nothing", async () => {
      const { store } = target();
      const t = await target().freshTable();
      const { etag } = await t.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
      const abortSignal = AbortSignal.abort();
      const opts = { abortSignal };
      const newTable = target().freshTableName();
      const calls: [string, () => Promise<unknown>][] = [
        ["store.createTable", () => store.createTable(newTable, opts)],
        ["table.createTable", () => store.table(newTable).createTable(opts)],
        ["store.deleteTable", () => store.deleteTable(t.tableName, opts)],
        ["table.deleteTable", () => t.deleteTable(opts)],
        ["listTables", () => collect(store.listTables(opts))],
        ["listTables byPage", () => collect(store.listTables(opts).byPage({ maxPageSize: 1 }))],
        ["createEntity", () => t.createEntity({ partitionKey: "p", rowKey: "new" }, opts)],
        ["getEntity", () => t.getEntity("p", "r", opts)],
        ["updateEntity", () => t.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Merge", opts)],
        [
          "updateEntity with etag",
          () => t.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Replace", { etag, abortSignal }),
        ],
        ["upsertEntity", () => t.upsertEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Replace", opts)],
        ["deleteEntity", () => t.deleteEntity("p", "r", opts)],
        ["listEntities", () => collect(t.listEntities(opts))],
        ["listEntities byPage", () => collect(t.listEntities(opts).byPage({ maxPageSize: 1 }))],
        ["submitTransaction", () => submit(t, [["create", { partitionKey: "p", rowKey: "tx" }]], opts)],
      ];
      for (const [name, call] of calls) {
        await expectCode(call(), "Aborted").catch((err: Error) => {
          throw new Error(`${name}: ${err.message}`, { cause: err });
        });
      }
      const all = await listAll(t);
      expect(all.map((e) => [e.rowKey, e.v, e.etag])).toEqual([["r", 1, etag]]);
      const names = (await collect(store.listTables())).map((x) => x.name);
      expect(names).not.toContain(newTable);
      expect(names).toContain(t.tableName);
    });
  });
}
