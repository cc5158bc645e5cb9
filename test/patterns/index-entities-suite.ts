import { describe, expect, it } from "vitest";
import { entitySize, normalizeEntity, TableKitError, utf8ItemSize } from "../../src/model/index.js";
import { defineIdListIndex, defineIndexEntities, SyncedRepository, step } from "../../src/patterns/index.js";
import { EntityIdLists } from "../../src/patterns/index-entities/id-lists.js";
import { expectCode, listAll } from "../conformance/helpers.js";
import { Employee } from "./models.js";
import { NO_QUEUE, withQueue } from "./queue-gate.js";
import { itWhen, type PatternsRef } from "./target.js";
import { blobTexts, freshName, freshTransactions } from "./world-helpers.js";

/** Option 2: `Sales` / `lastname_Jones`, in the employees' partition. */
const ByLastName = defineIndexEntities(Employee, {
  name: "byLastName",
  rowKey: (k) => k.literal("lastname_").field("lastName"),
});

type EmployeeInput = Parameters<ReturnType<typeof Employee.on>["create"]>[0];

function employee(department: string, id: number, lastName = "Jones"): EmployeeInput {
  return { department, id, email: `e${id}@contoso.com`, firstName: `F${id}`, lastName };
}

const ids = (records: readonly { id: number }[]) => records.map((r) => r.id).sort((a, b) => a - b);

/** The index entities (wide parts) of a table: `pk/rk → ids0…` as stored. */
async function indexEntities(table: Parameters<typeof listAll>[0], prefix: string) {
  return (await listAll(table)).filter(
    (e) => String(e.rowKey).startsWith(prefix) || String(e.partitionKey).startsWith(prefix),
  );
}

/** Index entities (seed 001: "all employees with last name Jones"), all three options. */
export function indexEntitiesSuite(target: PatternsRef): void {
  describe("index entities", () => {
    it("option 2: the index entity in the partition moves in the entity's own transaction", async () => {
      const table = await target().freshTable();
      const on = ByLastName.on(target().store, table);
      const repo = on.repository;
      for (const id of [152, 7, 31]) await repo.create(employee("Sales", id));
      await repo.create(employee("Sales", 40, "Smith"));
      await repo.create(employee("Marketing", 8));
      const stored = await indexEntities(table, "lastname_");
      expect(stored.map((e) => [e.partitionKey, e.rowKey, e.ids0])).toEqual([
        ["Marketing", "lastname_Jones!00!", "empid_000008"],
        ["Sales", "lastname_Jones!00!", "empid_000007\nempid_000031\nempid_000152"],
        ["Sales", "lastname_Smith!00!", "empid_000040"],
      ]);
      expect(await on.ids({ department: "Sales", lastName: "Jones" })).toEqual([
        "empid_000007",
        "empid_000031",
        "empid_000152",
      ]);
      expect(ids(await on.lookup({ department: "Sales", lastName: "Jones" }))).toEqual([7, 31, 152]);
      // A change of last name: the entity and both index entities in one transaction.
      await repo.patch({ department: "Sales", id: 31 }, { lastName: "Smith" });
      expect(ids(await on.lookup({ department: "Sales", lastName: "Smith" }))).toEqual([31, 40]);
      expect(ids(await on.lookup({ department: "Sales", lastName: "Jones" }))).toEqual([7, 152]);
      await repo.update({ ...employee("Sales", 7), firstName: "Jo" }); // same last name: no index write
      await repo.delete({ department: "Sales", id: 40 });
      await repo.delete({ department: "Marketing", id: 8 });
      expect(ids(await on.lookup({ department: "Sales", lastName: "Smith" }))).toEqual([31]);
      // The last id gone: the index entity is deleted with it.
      expect((await indexEntities(table, "lastname_")).map((e) => `${e.partitionKey}/${e.rowKey}`)).toEqual([
        "Sales/lastname_Jones!00!",
        "Sales/lastname_Smith!00!",
      ]);
      expect(await on.lookup({ department: "Marketing", lastName: "Jones" })).toEqual([]);
    });

    it("option 2: a transaction over an index entity changed since its read fails whole; concurrent writers retry", async () => {
      const table = await target().freshTable();
      const { store } = target();
      const on = ByLastName.on(store, table);
      await on.repository.create(employee("Sales", 1));
      // Step 1 of the seed: read the index entity (its ETag) and build the transaction…
      const values = employee("Sales", 152);
      const keys = Employee.keys(values);
      const plan = await ByLastName.companion(store).prepare({
        table,
        partitionKey: "Sales",
        rowKey: keys.rowKey,
        after: values,
        call: {},
      });
      // …then someone else changes it first: step 2 fails with the optimistic-concurrency error.
      await on.repository.create(employee("Sales", 2));
      const entity = { partitionKey: "Sales", rowKey: keys.rowKey, ...values };
      await expectCode(
        table.submitTransaction([["create", entity], ...plan.actions]),
        "UpdateConditionNotSatisfied",
      );
      expect(await on.repository.find({ department: "Sales", id: 152 })).toBeUndefined();
      expect(await on.ids({ department: "Sales", lastName: "Jones" })).toEqual([
        "empid_000001",
        "empid_000002",
      ]);
      // Writers racing for one index entity all land: each lost race starts again at step 1.
      await Promise.all([10, 11, 12, 13, 14, 15].map((id) => on.repository.create(employee("Sales", id))));
      await Promise.all(
        [1, 2, 10].map((id) => on.repository.patch({ department: "Sales", id }, { lastName: "Lee" })),
      );
      expect(ids(await on.lookup({ department: "Sales", lastName: "Jones" }))).toEqual([11, 12, 13, 14, 15]);
      expect(ids(await on.lookup({ department: "Sales", lastName: "Lee" }))).toEqual([1, 2, 10]);
    });

    it("option 2: bad input is a typed error and writes nothing", async () => {
      expect(() =>
        defineIndexEntities(Employee, { name: "x", rowKey: (k) => k.literal("empid_x").field("lastName") }),
      ).toThrow(expect.objectContaining({ code: "InvalidInput" }));
      expect(() => defineIndexEntities(Employee, { name: "x", rowKey: (k) => k.field("lastName") })).toThrow(
        TableKitError,
      );
      const table = await target().freshTable();
      const on = ByLastName.on(target().store, table);
      await expectCode(
        on.repository.create({ ...employee("Sales", 1), lastName: 5 as never }),
        "InvalidValueType",
      );
      // A value no RowKey may hold: refused before the transaction is sent.
      await expectCode(
        on.repository.create({ ...employee("Sales", 2), lastName: "a\u0001b" }),
        "OutOfRangeInput",
      );
      expect(await listAll(table)).toEqual([]);
    });

    it("an id list spans properties and entities at their limits, and reads back as one list", async () => {
      const { store } = target();
      const table = await target().freshTable();
      const lists = new EntityIdLists(store, table);
      const idOf = (i: number) => `e${String(i).padStart(7, "0")}`; // 8 characters, 9 with the separator
      const list = (n: number) => Array.from({ length: n }, (_, i) => idOf(i));
      const stored = async (rk: string) =>
        (await listAll(table)).filter((e) => String(e.rowKey).startsWith(rk));
      // One property holds floor((maxChars + 1) / 9) ids; one more starts a second property.
      const perProperty = Math.floor((lists.codec.maxChars + 1) / 9);
      for (const [n, properties] of [
        [perProperty, ["ids0"]],
        [perProperty + 1, ["ids0", "ids1"]],
      ] as const) {
        const rk = `p${n}`;
        await lists.write(["k", rk], list(n), undefined);
        const [entity, ...more] = await stored(rk);
        expect(more).toEqual([]);
        expect(
          Object.keys(entity!)
            .filter((name) => name.startsWith("ids"))
            .sort(),
        ).toEqual(properties);
        expect((entity!.ids0 as string).length).toBe(Math.min(n, perProperty) * 9 - 1);
        expect((await lists.read(["k", rk])).ids).toEqual(list(n));
      }
      // The most ids one entity holds (the backend accepts it: within its limit, and within one id of it).
      let low = perProperty;
      let high = perProperty * 20;
      const oneEntity = (n: number) => {
        try {
          return lists.wide.plan(lists.record(["k", "full"], list(n))!).length === 1; // the keys count too
        } catch {
          return false; // more than one transaction takes
        }
      };
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (oneEntity(mid)) low = mid;
        else high = mid - 1;
      }
      const limits = store.capabilities.limits;
      await lists.write(["k", "full"], list(low), undefined);
      const [full, ...none] = await stored("full");
      expect(none).toEqual([]);
      const { partitionKey, rowKey, etag: _e, timestamp: _t, ...properties } = full!;
      const measured = normalizeEntity({ partitionKey, rowKey, ...properties } as never, limits);
      const bytes = Math.max(
        entitySize(measured) - limits.maxEntityBytes,
        limits.maxItemBytes === undefined
          ? Number.NEGATIVE_INFINITY
          : utf8ItemSize(measured) - limits.maxItemBytes,
      );
      expect(bytes).toBeLessThanOrEqual(0);
      // Within one id of it, less the room part 0 keeps for the manifest of a record of the most parts.
      const manifestRoom = 2 * 9 * limits.maxTransactionOperations;
      expect(bytes).toBeGreaterThan(-(manifestRoom + 64));
      expect((await lists.read(["k", "full"])).ids).toEqual(list(low));
      await lists.write(["k", "over"], list(low + 1), undefined);
      expect((await stored("over")).map((e) => e.rowKey)).toEqual(["over!00!", "over!01!"]);
      const read = await lists.read(["k", "over"]);
      expect(read.ids).toEqual(list(low + 1));
      // Rewritten shorter over the version read: the extra entity goes in the same transaction.
      await lists.write(["k", "over"], list(3), read.etag);
      expect((await stored("over")).map((e) => e.rowKey)).toEqual(["over!00!"]);
      await expectCode(lists.write(["k", "over"], list(4), read.etag), "UpdateConditionNotSatisfied");
      await expectCode(lists.write(["k", "over"], list(4), undefined), "EntityAlreadyExists");
      expect((await lists.read(["k", "over"])).ids).toEqual(list(3));
    });

    itWhen(
      target,
      withQueue,
      NO_QUEUE,
      "options 3 and 1: index entities apart and blobs converge through the transaction queue",
      async () => {
        const { store } = target();
        const employees = await target().freshTable();
        const indexTable = await target().freshTable();
        const container = freshName("ix");
        if (store.blobCapabilities) await store.container(container).createIfNotExists();
        const Apart = defineIdListIndex(Employee, {
          name: "lastNames",
          entities: {
            table: indexTable.tableName,
            partitionKey: (k) => k.literal("lastname"),
            rowKey: (k) => k.field("lastName"),
          },
        });
        const Blobs = defineIdListIndex(Employee, {
          name: "lastNameBlobs",
          blobs: { container, value: (k) => k.field("lastName") },
        });
        // Blob lists need atomic conditional blob writes; a backend without them refuses up front.
        const withBlobs = store.blobCapabilities?.conditionalWrites === true;
        if (!withBlobs)
          expect(() => Blobs.on(store, { primary: employees })).toThrow(
            expect.objectContaining({ code: "NotSupported" }),
          );
        const transactions = await freshTransactions(target(), [Apart.handler, Blobs.handler]);
        const indexes = [
          Apart.on(store, { primary: employees }),
          ...(withBlobs ? [Blobs.on(store, { primary: employees })] : []),
        ];
        const [apart] = indexes;
        const blobs = async () => (withBlobs ? blobTexts(target(), container) : undefined);
        const repo = new SyncedRepository(Employee.on(employees), transactions, indexes, { holdSeconds: 1 });
        await repo.create(employee("Sales", 152));
        await repo.create(employee("Marketing", 7));
        await repo.create(employee("Sales", 40, "Smith"));
        // Until the worker runs, the lists are not there: look-ups find nothing.
        for (const index of indexes) expect(await index.lookup({ lastName: "Jones" })).toEqual([]);
        await transactions.worker().drain();
        expect((await listAll(indexTable)).map((e) => [e.partitionKey, e.rowKey, e.ids0])).toEqual([
          ["lastname", "Jones!00!", '["Marketing","empid_000007"]\n["Sales","empid_000152"]'],
          ["lastname", "Smith!00!", '["Sales","empid_000040"]'],
        ]);
        if (withBlobs) {
          expect(await blobs()).toEqual({
            "lastNameBlobs/Jones": '["Marketing","empid_000007"]\n["Sales","empid_000152"]',
            "lastNameBlobs/Smith": '["Sales","empid_000040"]',
          });
        }
        for (const index of indexes) {
          expect(ids(await index.lookup({ lastName: "Jones" }))).toEqual([7, 152]);
          expect(await index.ids({ lastName: "Smith" })).toEqual([["Sales", "empid_000040"]]);
        }
        // In between: the old list still names the entity, but a look-up checks the primary.
        await repo.patch({ department: "Sales", id: 152 }, { lastName: "Smith" });
        await repo.delete({ department: "Sales", id: 40 });
        for (const index of indexes) {
          expect(await index.ids({ lastName: "Jones" })).toHaveLength(2);
          expect(ids(await index.lookup({ lastName: "Jones" }))).toEqual([7]);
          expect(await index.lookup({ lastName: "Smith" })).toEqual([]);
        }
        await transactions.worker().drain();
        for (const index of indexes) {
          expect(await index.ids({ lastName: "Jones" })).toEqual([["Marketing", "empid_000007"]]);
          expect(ids(await index.lookup({ lastName: "Smith" }))).toEqual([152]);
        }
        // A redelivered step (run again, late, out of order) leaves the same lists.
        const change = {
          table: employees.tableName,
          partitionKey: "Sales",
          rowKey: "empid_000152",
          before: employee("Sales", 152),
          after: employee("Sales", 152, "Smith"),
        };
        const again = indexes.map((index) => index.stepFor(change)!);
        await transactions.enqueue(again);
        await transactions.enqueue([...again].reverse());
        await transactions.worker().drain();
        expect(await apart!.ids({ lastName: "Smith" })).toEqual([["Sales", "empid_000152"]]);
        if (withBlobs) {
          expect(await blobs()).toEqual({
            "lastNameBlobs/Jones": '["Marketing","empid_000007"]',
            "lastNameBlobs/Smith": '["Sales","empid_000152"]',
          });
        }
        await repo.delete({ department: "Marketing", id: 7 });
        await transactions.worker().drain();
        expect((await listAll(indexTable)).map((e) => e.rowKey)).toEqual(["Smith!00!"]);
        if (withBlobs) expect(Object.keys((await blobs())!)).toEqual(["lastNameBlobs/Smith"]);
        expect(await transactions.poison.list()).toEqual([]);
      },
    );

    itWhen(
      target,
      withQueue,
      NO_QUEUE,
      "options 3 and 1: bad input is a typed error and sends nothing",
      async () => {
        const both = {
          name: "x",
          entities: { partitionKey: (k: never) => k, rowKey: (k: never) => k },
          blobs: { container: "c", value: (k: never) => k },
        };
        expect(() => defineIdListIndex(Employee, both as never)).toThrow(
          expect.objectContaining({ code: "InvalidInput" }),
        );
        expect(() =>
          defineIdListIndex(Employee, {
            name: "1bad",
            blobs: { container: "c", value: (k) => k.field("lastName") },
          }),
        ).toThrow(TableKitError);
        const Blobs = defineIdListIndex(Employee, {
          name: "b",
          blobs: { container: "c", value: (k) => k.field("lastName") },
        });
        const transactions = await freshTransactions(target(), [Blobs.handler]);
        await expectCode(
          transactions.enqueue([step.call(Blobs.handler.kind, { primary: "T", pk: 1 } as never)]),
          "InvalidInput",
        );
        expect((await transactions.queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems).toEqual(
          [],
        );
      },
    );
  });
}
