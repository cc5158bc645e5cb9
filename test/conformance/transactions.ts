import { describe, expect, it } from "vitest";
import type { ErrorCode, Table } from "../../src/index.js";
import {
  customProperties,
  ETAG_PATTERN,
  expectCode,
  expectEmpty,
  listAll,
  type ReadEntity,
  type SdkAction,
  submit,
  type TargetRef,
} from "./helpers.js";

/** The table's full content, to compare before and after a failed transaction. */
async function snapshot(t: Table): Promise<ReadEntity[]> {
  return listAll(t);
}

/** Entity group transactions: all or nothing, the failing index, and the service's batch rules. */
export function transactionsSuite(target: TargetRef): void {
  describe("transactions", () => {
    it("applies create, update, upsert and delete atomically, returning each action's ETag", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "upd", a: 1, b: 1 });
      await t.createEntity({ partitionKey: "p", rowKey: "rep", a: 1, b: 1 });
      await t.createEntity({ partitionKey: "p", rowKey: "ups", a: 1, b: 1 });
      const del = await t.createEntity({ partitionKey: "p", rowKey: "del" });
      const cond = await t.createEntity({ partitionKey: "p", rowKey: "cond", a: 1 });
      const result = await submit(t, [
        ["create", { partitionKey: "p", rowKey: "new", a: 1 }],
        ["update", { partitionKey: "p", rowKey: "upd", b: 2 }],
        ["update", { partitionKey: "p", rowKey: "rep", b: 2 }, "Replace"],
        ["upsert", { partitionKey: "p", rowKey: "ups", c: 3 }, "Merge"],
        ["upsert", { partitionKey: "p", rowKey: "ins", c: 3 }, "Replace"],
        ["update", { partitionKey: "p", rowKey: "cond", a: 2 }, "Merge", { etag: cond.etag }],
        ["delete", { partitionKey: "p", rowKey: "del" }, { etag: del.etag }],
      ]);
      expect(result.subResponses).toHaveLength(7);
      const byRow = new Map((await listAll(t)).map((e) => [e.rowKey as string, e]));
      expect([...byRow.keys()]).toEqual(["cond", "ins", "new", "rep", "upd", "ups"]);
      expect(customProperties(byRow.get("new")!)).toEqual({ a: 1 });
      expect(customProperties(byRow.get("upd")!)).toEqual({ a: 1, b: 2 });
      expect(customProperties(byRow.get("rep")!)).toEqual({ b: 2 });
      expect(customProperties(byRow.get("ups")!)).toEqual({ a: 1, b: 1, c: 3 });
      expect(customProperties(byRow.get("ins")!)).toEqual({ c: 3 });
      expect(customProperties(byRow.get("cond")!)).toEqual({ a: 2 });
      const rows = ["new", "upd", "rep", "ups", "ins", "cond"];
      rows.forEach((rk, i) => {
        const sub = result.subResponses[i]!;
        expect(sub.etag).toMatch(ETAG_PATTERN);
        expect(sub.etag).toBe(byRow.get(rk)!.etag);
        expect(result.getResponseForEntity(rk)?.etag).toBe(sub.etag);
      });
    });

    it("defaults: update merges with etag '*', upsert merges, delete matches any version", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "u", a: 1 });
      await t.createEntity({ partitionKey: "p", rowKey: "m", a: 1 });
      await t.createEntity({ partitionKey: "p", rowKey: "d" });
      await t.updateEntity({ partitionKey: "p", rowKey: "d", touched: true });
      await submit(t, [
        ["update", { partitionKey: "p", rowKey: "u", b: 2 }],
        ["upsert", { partitionKey: "p", rowKey: "m", b: 2 }],
        ["delete", { partitionKey: "p", rowKey: "d" }],
      ]);
      const all = await listAll(t);
      expect(all.map((e) => [e.rowKey, customProperties(e)])).toEqual([
        ["m", { a: 1, b: 2 }],
        ["u", { a: 1, b: 2 }],
      ]);
    });

    describe("a failing action fails the whole batch with its index and writes nothing", () => {
      const setup = async () => {
        const t = await target().freshTable();
        const old = await t.createEntity({ partitionKey: "p", rowKey: "existing", v: 1 });
        await t.updateEntity({ partitionKey: "p", rowKey: "existing", v: 2 });
        await t.createEntity({ partitionKey: "p", rowKey: "other", v: 1 });
        await t.createEntity({ partitionKey: "p", rowKey: "other2" });
        return { t, staleEtag: old.etag, before: await snapshot(t) };
      };
      // Three good actions around each bad one, so a partial write would show.
      const around = (bad: SdkAction): SdkAction[] => [
        ["create", { partitionKey: "p", rowKey: "new1", v: 1 }],
        ["update", { partitionKey: "p", rowKey: "other", v: 99 }, "Replace"],
        bad,
        ["upsert", { partitionKey: "p", rowKey: "new2", v: 1 }],
        ["delete", { partitionKey: "p", rowKey: "other2" }],
      ];
      const cases: [string, (stale: string) => SdkAction, ErrorCode][] = [
        [
          "duplicate create",
          () => ["create", { partitionKey: "p", rowKey: "existing", v: 3 }],
          "EntityAlreadyExists",
        ],
        [
          "stale ETag on update",
          (stale) => ["update", { partitionKey: "p", rowKey: "existing", v: 3 }, "Merge", { etag: stale }],
          "UpdateConditionNotSatisfied",
        ],
        [
          "stale ETag on delete",
          (stale) => ["delete", { partitionKey: "p", rowKey: "existing" }, { etag: stale }],
          "UpdateConditionNotSatisfied",
        ],
        [
          "update of a missing entity",
          () => ["update", { partitionKey: "p", rowKey: "missing", v: 3 }],
          "ResourceNotFound",
        ],
        [
          "replace of a missing entity",
          () => ["update", { partitionKey: "p", rowKey: "missing", v: 3 }, "Replace"],
          "ResourceNotFound",
        ],
        [
          "delete of a missing entity",
          () => ["delete", { partitionKey: "p", rowKey: "missing" }],
          "ResourceNotFound",
        ],
        [
          "an invalid property name",
          () => ["create", { partitionKey: "p", rowKey: "bad", "a-b": 1 }],
          "PropertyNameInvalid",
        ],
        [
          "an out-of-range Int32",
          () => ["upsert", { partitionKey: "p", rowKey: "bad", v: { value: 2 ** 31, type: "Int32" } }],
          "InvalidValueType",
        ],
      ];
      for (const [name, bad, code] of cases) {
        it(name, async () => {
          const { t, staleEtag, before } = await setup();
          await expectCode(submit(t, around(bad(staleEtag))), code as ErrorCode, { index: 2 });
          expect(await snapshot(t)).toEqual(before);
        });
      }

      it("a failure at index 0 and at the last index", async () => {
        const { t, before } = await setup();
        await expectCode(
          submit(t, [
            ["create", { partitionKey: "p", rowKey: "existing" }],
            ["create", { partitionKey: "p", rowKey: "x" }],
          ]),
          "EntityAlreadyExists",
          { index: 0 },
        );
        await expectCode(
          submit(t, [
            ["create", { partitionKey: "p", rowKey: "x" }],
            ["upsert", { partitionKey: "p", rowKey: "y" }],
            ["delete", { partitionKey: "p", rowKey: "missing" }],
          ]),
          "ResourceNotFound",
          { index: 2 },
        );
        expect(await snapshot(t)).toEqual(before);
      });
    });

    it("limits.maxTransactionOperations actions are accepted; one more is InvalidInput", async () => {
      const t = await target().freshTable();
      const max = target().capabilities.limits.maxTransactionOperations;
      const creates = (n: number, prefix: string): SdkAction[] =>
        Array.from({ length: n }, (_, i) => [
          "create",
          { partitionKey: "p", rowKey: `${prefix}${String(i).padStart(4, "0")}`, i },
        ]);
      await expectCode(submit(t, creates(max + 1, "over")), "InvalidInput");
      await expectEmpty(t);
      const result = await submit(t, creates(max, "ok"));
      expect(result.subResponses).toHaveLength(max);
      expect(await listAll(t)).toHaveLength(max);
    });

    it("an empty transaction is InvalidInput", async () => {
      const t = await target().freshTable();
      await expectCode(submit(t, []), "InvalidInput");
      await expectEmpty(t);
    });

    it("actions on two partitions are CommandsInBatchActOnDifferentPartitions", async () => {
      const t = await target().freshTable();
      await expectCode(
        submit(t, [
          ["create", { partitionKey: "p", rowKey: "a" }],
          ["create", { partitionKey: "q", rowKey: "b" }],
        ]),
        "CommandsInBatchActOnDifferentPartitions",
      );
      await expectCode(
        submit(t, [
          ["upsert", { partitionKey: "p", rowKey: "a" }],
          ["delete", { partitionKey: "", rowKey: "a" }],
        ]),
        "CommandsInBatchActOnDifferentPartitions",
      );
      await expectEmpty(t);
    });

    it("the same row twice is InvalidDuplicateRow", async () => {
      const t = await target().freshTable();
      await t.createEntity({ partitionKey: "p", rowKey: "a", v: 1 });
      const before = await snapshot(t);
      await expectCode(
        submit(t, [
          ["create", { partitionKey: "p", rowKey: "b" }],
          ["update", { partitionKey: "p", rowKey: "a", v: 2 }],
          ["delete", { partitionKey: "p", rowKey: "a" }],
        ]),
        "InvalidDuplicateRow",
      );
      await expectCode(
        submit(t, [
          ["create", { partitionKey: "p", rowKey: "c" }],
          ["upsert", { partitionKey: "p", rowKey: "c" }],
        ]),
        "InvalidDuplicateRow",
      );
      // Row keys in ascending order are distinct without a Set: a repeat after them is still seen.
      for (const rowKeys of [
        ["a1", "b1", "c1", "a1"],
        ["a1", "b1", "b1"],
        ["b1", "a1", "c1", "d1", "a1"],
        ["c1", "b1", "d1", "c1"],
      ]) {
        await expect(
          submit(
            t,
            rowKeys.map((rowKey) => ["create", { partitionKey: "p", rowKey }] as const),
          ),
        ).rejects.toMatchObject({ code: "InvalidDuplicateRow", index: rowKeys.length - 1 });
      }
      expect(await snapshot(t)).toEqual(before);
    });

    it("a transaction on a missing table is TableNotFound", async () => {
      const t = target().store.table(target().freshTableName());
      await expectCode(submit(t, [["create", { partitionKey: "p", rowKey: "r" }]]), "TableNotFound");
    });
  });
}
