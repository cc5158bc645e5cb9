import { describe, expect, it } from "vitest";
import type { OperationOptions } from "../../src/index.js";
import { collect, expectCode, itWhen, listAll, submit, type TargetRef } from "./helpers.js";

/**
 * Abort: an already-aborted signal stops every call before it does anything (the core's check);
 * a signal aborted while the backend waits stops the call there (the backend handed it on).
 */
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

    itWhen(
      target,
      (capabilities) => capabilities.multiProcess,
      "a store no other connection can use never makes a write wait: there is no mid-call to abort in",
      "a write aborted while the backend waits rejects with Aborted and writes nothing",
      async () => {
        const { store } = target();
        const t = await target().freshTable();
        const { etag } = await t.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
        const newTable = target().freshTableName();
        const calls: [string, (options: OperationOptions) => Promise<unknown>][] = [
          ["store.createTable", (o) => store.createTable(newTable, o)],
          ["table.deleteTable", (o) => t.deleteTable(o)],
          ["createEntity", (o) => t.createEntity({ partitionKey: "p", rowKey: "new" }, o)],
          ["updateEntity", (o) => t.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Merge", o)],
          [
            "updateEntity with etag",
            (o) => t.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Replace", { ...o, etag }),
          ],
          ["upsertEntity", (o) => t.upsertEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Replace", o)],
          ["deleteEntity", (o) => t.deleteEntity("p", "r", o)],
          ["submitTransaction", (o) => submit(t, [["create", { partitionKey: "p", rowKey: "tx" }]], o)],
        ];
        // The embedded engine waits for another connection's write lock; a server backend, for its request.
        const release = target().holdWriteLock?.();
        try {
          for (const [name, call] of calls) {
            const controller = new AbortController();
            // The core's check has passed when the call returns its promise: the backend is waiting.
            const pending = call({ abortSignal: controller.signal });
            controller.abort(new Error("stop"));
            await expectCode(pending, "Aborted").catch((err: Error) => {
              throw new Error(`${name}: ${err.message}`, { cause: err });
            });
          }
        } finally {
          release?.();
        }
        const all = await listAll(t);
        expect(all.map((e) => [e.rowKey, e.v, e.etag])).toEqual([["r", 1, etag]]);
        const names = (await collect(store.listTables())).map((x) => x.name);
        expect(names).not.toContain(newTable);
        expect(names).toContain(t.tableName);
      },
    );
  });
}
