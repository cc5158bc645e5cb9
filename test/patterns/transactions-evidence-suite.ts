import { describe, expect, it } from "vitest";
import type { TableEntity, TableKitError } from "../../src/index.js";
import {
  defineModel,
  field,
  step,
  TransactionQueue,
  type TransactionStep,
} from "../../src/patterns/index.js";
import { EVIDENCE_PROPERTY, parseEvidence } from "../../src/patterns/shared/evidence/evidence.js";
import { listAll } from "../conformance/helpers.js";
import { expectCode } from "../support/expect-code.js";
import { crashAt } from "./crash-at.js";
import type { PatternsRef } from "./target.js";
import { blobTexts, freshName, freshTransactions } from "./world-helpers.js";

/** An account: the entities the evidence tests write through steps and through a model. */
const Account = defineModel({
  table: "Accounts",
  fields: { bank: field.string(), id: field.string(), balance: field.int32() },
  partitionKey: (k) => k.field("bank"),
  rowKey: (k) => k.field("id"),
});

const account = (id: string, balance: number) => ({ partitionKey: "b", rowKey: id, bank: "b", id, balance });

/** Balances by RowKey. */
async function balances(table: Parameters<typeof listAll>[0]): Promise<Record<string, unknown>> {
  return Object.fromEntries((await listAll(table)).map((e) => [e.rowKey, e.balance]));
}

/** What a step's redelivery finds after later writers (docs/patterns/eventually-consistent-transactions.md#evidence). */
export function transactionsEvidenceSuite(target: PatternsRef): void {
  describe("eventually consistent transactions: evidence", () => {
    it("every step kind knows its effect after later writers changed, deleted or re-created its target", async () => {
      const table = await target().freshTable();
      const accounts = Account.on(table);
      const transactions = await freshTransactions(target());
      const t = table.tableName;
      const container = target().store.blobCapabilities ? freshName("ev") : undefined;
      const c = await accounts.create({ bank: "b", id: "C", balance: 3 });
      await table.createEntity(account("D", 4)); // written outside the models: no evidence yet
      const e = await accounts.create({ bank: "b", id: "E", balance: 5 });
      if (container) {
        await target().store.createContainer(container);
        await target().store.container(container).uploadBlockBlob("G", "old", 3);
      }
      const steps: TransactionStep[] = [
        step.upsert(t, account("A", 1)),
        step.insertIfAbsent(t, account("B", 2)),
        step.deleteIfPresent(t, "b", "C", { etag: c.etag }),
        step.deleteIfPresent(t, "b", "D"),
        step.updateIfMatch(t, { partitionKey: "b", rowKey: "E", balance: 50 }, e.etag, "Merge"),
        ...(container ? [step.putBlob(container, "F", "one"), step.deleteBlobIfPresent(container, "G")] : []),
      ];
      await transactions.enqueue(steps, { id: "t1" });
      // Every step ran, then the worker died before anything recorded it.
      const last = steps.length - 1;
      await crashAt(target(), transactions, { transactionId: "t1", point: "applied", step: last }, 4);
      // Later writers, each built on what it sees: the models, and another transaction.
      await accounts.patch({ bank: "b", id: "A" }, { balance: 10 }); // keeps A's mark
      await accounts.delete({ bank: "b", id: "B" }); // hands B's mark to t1's journal
      await accounts.create({ bank: "b", id: "C", balance: 30 }); // C lives again
      const seen = await table.getEntity("b", "E");
      await transactions.enqueue(
        [
          step.insertIfAbsent(t, account("D", 40)), // D lives again
          step.updateIfMatch(t, { partitionKey: "b", rowKey: "E", balance: 60 }, seen.etag, "Merge"),
          ...(container ? [step.putBlob(container, "F", "two"), step.putBlob(container, "G", "again")] : []),
        ],
        { id: "t2" },
      );
      const order: string[] = [];
      const worker = transactions.worker({
        onBoundary: ({ transactionId, point, step: k }) => {
          if (point === "completed" || k === 0) order.push(`${transactionId} ${point}`);
        },
      });
      expect(await worker.drain()).toMatchObject({ processed: 2, poisoned: 0 });
      expect(order.slice(0, 3)).toEqual(["t2 step", "t2 applied", "t2 completed"]);
      expect(worker.stats.stepsAlready).toBe(steps.length); // t1 found every one of its effects
      expect(await balances(table)).toEqual({ A: 10, C: 30, D: 40, E: 60 });
      if (container) expect(await blobTexts(target(), container)).toEqual({ F: "two", G: "again" });
      expect(await transactions.status("t1")).toMatchObject({ done: steps.length, completed: true });
    }, 90_000);

    it("a write outside tablekit erased a step's evidence: parked as unverifiable, the steps before it done", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      const t = table.tableName;
      await table.createEntity(account("X", 1000));
      await table.createEntity(account("Y", 1000));
      const [x, y] = [await table.getEntity("b", "X"), await table.getEntity("b", "Y")];
      await transactions.enqueue(
        [
          step.updateIfMatch(t, { partitionKey: "b", rowKey: "X", balance: 900 }, x.etag, "Merge"),
          step.updateIfMatch(t, { partitionKey: "b", rowKey: "Y", balance: 1100 }, y.etag, "Merge"),
        ],
        { id: "t1" },
      );
      await crashAt(target(), transactions, { transactionId: "t1", point: "applied", step: 0 }, 2);
      // Someone replaces X by hand (a Table replace: the evidence property is not kept).
      await table.updateEntity({ ...account("X", 900), note: "fixed by hand" }, "Replace");
      expect(await transactions.worker({ retryDelay: 0 }).drain()).toMatchObject({
        poisoned: 1,
        processed: 0,
      });
      const [parked] = await transactions.poison.list();
      expect(parked).toMatchObject({ id: "t1", reason: "unverifiable", step: 0, dequeueCount: 2 });
      expect(parked!.error).toMatch(/^UpdateConditionNotSatisfied: updateIfMatch .*outside tablekit/);
      expect(await transactions.status("t1")).toMatchObject({ done: 0, completed: false });
      expect(await balances(table)).toEqual({ X: 900, Y: 1000 }); // never silently half-applied: parked
      // Whoever fixed X says the step's effect is there: replay from the step after it.
      expect(await transactions.poison.replay({ ids: ["t1"], assumeApplied: true })).toBe(1);
      expect(await transactions.worker().drain()).toMatchObject({ processed: 1, poisoned: 0 });
      expect(await balances(table)).toEqual({ X: 900, Y: 1100 });
    }, 60_000);

    // An entity tablekit created and has not written since: its life id (not a Timestamp) tells its
    // life, so a raw merge of another property (which keeps the evidence, moves the ETag) leaves a
    // redelivered delete knowing it never ran.
    it("a raw write of another property over an entity tablekit created: a redelivered delete is never counted done while its entity stays", async () => {
      const table = await target().freshTable();
      const accounts = Account.on(table);
      const transactions = await freshTransactions(target());
      const t = table.tableName;
      // X born through the model (tablekit created it, never wrote it since), Z through a step.
      const x = await accounts.create({ bank: "b", id: "X", balance: 1000 });
      await transactions.enqueue([step.insertIfAbsent(t, account("Z", 5))], { id: "t0" });
      await transactions.worker().drain();
      const z = await table.getEntity("b", "Z");
      await transactions.enqueue(
        [
          step.deleteIfPresent(t, "b", "X", { etag: x.etag }),
          step.deleteIfPresent(t, "b", "Z", { etag: z.etag }),
          step.upsert(t, account("Y", 1)),
        ],
        { id: "t1" },
      );
      // The first delivery dies before its first step; then a raw merge of another property of each.
      await crashAt(target(), transactions, { transactionId: "t1", point: "step", step: 0 }, 2);
      await table.updateEntity({ partitionKey: "b", rowKey: "X", note: "raw" }, "Merge");
      await table.updateEntity({ partitionKey: "b", rowKey: "Z", note: "raw" }, "Merge");
      await transactions.worker({ retryDelay: 0 }).drain();
      const parked = await transactions.poison.list();
      const left = await balances(table);
      // Either the deletes ran (X and Z gone, Y there) or the transaction is parked with nothing after its step.
      if (parked.length === 0) expect(left).toEqual({ Y: 1 });
      else {
        expect(parked).toMatchObject([{ id: "t1", step: 0 }]);
        expect(left).toEqual({ X: 1000, Z: 5 });
      }
    }, 60_000);

    it("a delete that ran, then the key created again by tablekit (raw merges before or after): the redelivery counts it done; one whose version was gone before enqueue, a conflict", async () => {
      const table = await target().freshTable();
      const accounts = Account.on(table);
      const transactions = await freshTransactions(target());
      const t = table.tableName;
      await accounts.create({ bank: "b", id: "P", balance: 1 }); // born through tablekit…
      const p = await table.updateEntity({ partitionKey: "b", rowKey: "P", note: "raw" }, "Merge"); // …then a raw merge
      const q = await accounts.create({ bank: "b", id: "Q", balance: 2 }); // born; merged after its re-create (below)
      await table.createEntity(account("R", 3));
      const r = await accounts.patch({ bank: "b", id: "R" }, { balance: 30 }); // adopted: its life's begin is known
      const s = await table.createEntity(account("S", 4)); // no evidence at all
      const u = await table.createEntity(account("U", 5));
      await table.updateEntity({ partitionKey: "b", rowKey: "U", note: "raw" }, "Merge"); // U's ETag is stale…
      await transactions.enqueue(
        [
          step.deleteIfPresent(t, "b", "P", { etag: p.etag }),
          step.deleteIfPresent(t, "b", "Q", { etag: q.etag }),
          step.deleteIfPresent(t, "b", "R", { etag: r.etag }),
          step.deleteIfPresent(t, "b", "S", { etag: s.etag }),
          // …before the message is sent: what enqueue found ("no such version") is its own, not the caller's.
          { ...step.deleteIfPresent(t, "b", "U", { etag: u.etag }), found: "" } as unknown as TransactionStep,
        ],
        { id: "t1" },
      );
      // Every delete ran, then the worker died; every key is created again through tablekit.
      await crashAt(target(), transactions, { transactionId: "t1", point: "applied", step: 3 }, 2);
      for (const [id, balance] of [
        ["P", 10],
        ["Q", 20],
        ["R", 300],
        ["S", 40],
      ] as const)
        await accounts.create({ bank: "b", id, balance });
      await table.updateEntity({ partitionKey: "b", rowKey: "Q", note: "raw" }, "Merge");
      const worker = transactions.worker({ retryDelay: 0 });
      expect(await worker.drain()).toMatchObject({ processed: 0, poisoned: 1 });
      expect(worker.stats.stepsAlready).toBe(4);
      expect(await balances(table)).toEqual({ P: 10, Q: 20, R: 300, S: 40, U: 5 });
      // U's version was gone before the message was sent: the delete can never have run, a conflict.
      expect(await transactions.poison.list()).toMatchObject([{ id: "t1", reason: "conflict", step: 4 }]);
    }, 60_000);

    it("the transactions of a batch on one partition: one refused leaves the others applied", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      const t = table.tableName;
      const etags: string[] = [];
      for (let i = 0; i < 6; i++) etags.push((await table.createEntity(account(`r${i}`, i))).etag);
      await table.updateEntity(account("r3", 33), "Merge"); // r3's ETag is stale now
      for (let i = 0; i < 6; i++)
        await transactions.enqueue([
          step.updateIfMatch(t, { partitionKey: "b", rowKey: `r${i}`, balance: 100 + i }, etags[i]!, "Merge"),
        ]);
      expect(await transactions.worker().drain()).toMatchObject({ processed: 5, poisoned: 1 });
      expect(await balances(table)).toEqual({ r0: 100, r1: 101, r2: 102, r3: 33, r4: 104, r5: 105 });
      expect((await transactions.poison.list()).map((p) => p.reason)).toEqual(["conflict"]);
    });

    it("an entity many transactions write keeps the marks of unfinished ones only", async () => {
      const table = await target().freshTable();
      const first = await freshTransactions(target());
      const t = table.tableName;
      const names = {
        queue: first.queue.name,
        journalTable: first.journal.table.tableName,
        payloadContainer: first.payloadContainer,
      };
      const marks = async () =>
        parseEvidence((await table.getEntity("b", "n"))[EVIDENCE_PROPERTY])!.marks.map((m) => m.id);
      // Each transaction through a queue object of its own, as from another process: it knows
      // only its own transactions completed, so it keeps the others' marks…
      const run = async (i: number) => {
        const transactions = new TransactionQueue(target().store, names);
        await transactions.enqueue([step.upsert(t, { partitionKey: "b", rowKey: "n", n: i }, "Merge")], {
          id: `p${i}`,
        });
        await transactions.worker().drain();
      };
      for (let i = 1; i <= 8; i++) await run(i);
      expect(await marks()).toEqual(["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]);
      // …until it keeps eight: then it asks their journals, and drops those of completed ones.
      await run(9);
      expect(await marks()).toEqual(["p9"]);
      expect((await table.getEntity("b", "n")).n).toBe(9);
    }, 90_000);

    it("a step's entity keeps room for its evidence; evidence it carries (as read) is the worker's to write", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      const { maxProperties } = target().store.capabilities.limits;
      const wide = (n: number) => {
        const e: Record<string, unknown> = { partitionKey: "p", rowKey: "r" };
        for (let i = 0; i < n; i++) e[`p${i}`] = i;
        return e as TableEntity<Record<string, unknown>>;
      };
      table.checkEntity(wide(maxProperties)); // a valid entity on its own…
      await expectCode(
        transactions.enqueue([step.upsert(table.tableName, wide(maxProperties))]),
        "TooManyProperties",
      );
      await transactions.enqueue([step.upsert(table.tableName, wide(maxProperties - 1))]); // …one less has room
      // An entity read and passed on carries its evidence: taken, and replaced by the worker's.
      await table.createEntity({ partitionKey: "q", rowKey: "r", v: 1 });
      const read = await table.getEntity("q", "r");
      await transactions.enqueue([
        step.upsert(table.tableName, {
          ...read,
          partitionKey: "q",
          rowKey: "r",
          [EVIDENCE_PROPERTY]: "not tablekit's",
          v: 2,
        }),
      ]);
      expect(await transactions.worker().drain()).toMatchObject({ processed: 2, poisoned: 0 });
      const written = await table.getEntity("q", "r");
      expect(written.v).toBe(2);
      expect(parseEvidence(written[EVIDENCE_PROPERTY])?.marks).toHaveLength(1);
      // A model may not take the property's name.
      expect(() =>
        defineModel({
          table: "Bad",
          fields: { [EVIDENCE_PROPERTY]: field.string() },
          partitionKey: (k: { literal(s: string): unknown }) => k.literal("p"),
          rowKey: (k: { literal(s: string): unknown }) => k.literal("r"),
        } as never),
      ).toThrow(expect.objectContaining({ code: "PropertyNameInvalid" }) as TableKitError);
    });
  });
}
