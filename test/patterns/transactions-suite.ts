import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isTableKitError, type TableEntity } from "../../src/index.js";
import { type BoundaryInfo, type StepHandler, step } from "../../src/patterns/index.js";
import { listAll } from "../conformance/helpers.js";
import { expectCode } from "../support/expect-code.js";
import { itWithBlobs } from "./blob-support.js";
import { crashAt } from "./crash-at.js";
import type { PatternsRef } from "./target.js";
import { blobTexts, freshName, freshTransactions } from "./world-helpers.js";

/** Entities of a table without their ETags, Timestamps and evidence. */
async function rows(table: Parameters<typeof listAll>[0]): Promise<Record<string, unknown>[]> {
  return (await listAll(table)).map(({ etag: _e, timestamp: _t, tablekit_tx: _x, ...rest }) => rest);
}

/** A hook that makes the first delivery to reach each `point` fail there, as a crash would. */
function failOnceAt(point: BoundaryInfo["point"]) {
  const seen = new Set<string>();
  return (info: BoundaryInfo) => {
    const key = `${info.transactionId}/${info.point}/${info.step}`;
    if (info.point === point && !seen.has(key)) {
      seen.add(key);
      throw new Error(`injected failure at ${key}`);
    }
  };
}

/** The eventually consistent transactions pattern (seed 001): steps, worker, poison queue. */
export function transactionsSuite(target: PatternsRef): void {
  describe("eventually consistent transactions", () => {
    it("a crash after a step, then a later writer: the redelivery knows the step ran (X 850, Y 1100)", async () => {
      const accounts = await target().freshTable();
      const transactions = await freshTransactions(target());
      const table = accounts.tableName;
      await accounts.createEntity({ partitionKey: "acct", rowKey: "X", balance: 1000 });
      await accounts.createEntity({ partitionKey: "acct", rowKey: "Y", balance: 1000 });
      const [x, y] = [await accounts.getEntity("acct", "X"), await accounts.getEntity("acct", "Y")];
      // T1 moves 100 from X to Y: two ETag-guarded merges.
      await transactions.enqueue(
        [
          step.updateIfMatch(table, { partitionKey: "acct", rowKey: "X", balance: 900 }, x.etag, "Merge"),
          step.updateIfMatch(table, { partitionKey: "acct", rowKey: "Y", balance: 1100 }, y.etag, "Merge"),
        ],
        { id: "t1" },
      );
      // The worker dies right after step 0 is applied, before anything records it.
      await crashAt(target(), transactions, { transactionId: "t1", point: "applied", step: 0 }, 4);
      expect(await transactions.status("t1")).toEqual({ done: 0, completed: false });
      // T2 is built on X's visible state (900) and completes while T1 waits to come back.
      const seen = await accounts.getEntity<{ balance: number }>("acct", "X");
      expect(seen.balance).toBe(900);
      await transactions.enqueue(
        [step.updateIfMatch(table, { partitionKey: "acct", rowKey: "X", balance: 850 }, seen.etag, "Merge")],
        { id: "t2" },
      );
      const order: string[] = [];
      const worker = transactions.worker({
        onBoundary: ({ transactionId, point }) => {
          if (point !== "applied") order.push(`${transactionId} ${point}`);
        },
      });
      expect(await worker.drain()).toMatchObject({ processed: 2, poisoned: 0 });
      expect(order).toEqual(["t2 step", "t2 completed", "t1 step", "t1 step", "t1 completed"]);
      expect(worker.stats).toMatchObject({ stepsApplied: 2, stepsAlready: 1 }); // T1's step 0 found, step 1 ran
      expect((await rows(accounts)).map((r) => [r.rowKey, r.balance])).toEqual([
        ["X", 850],
        ["Y", 1100],
      ]);
      expect(await transactions.poison.list()).toEqual([]);
      expect(await transactions.status("t1")).toEqual({ done: 2, completed: true });
    }, 60_000);

    it("archives an employee across tables (the seed's example), and a duplicate converges", async () => {
      const current = await target().freshTable();
      const archive = await target().freshTable();
      const transactions = await freshTransactions(target());
      await current.createEntity({ partitionKey: "Sales", rowKey: "000456", name: "Jones", age: 41 });
      const { etag, timestamp: _t, ...employee } = await current.getEntity("Sales", "000456");
      const steps = [
        step.insertIfAbsent(archive.tableName, employee as TableEntity<Record<string, unknown>>),
        step.deleteIfPresent(current.tableName, "Sales", "000456", { etag }),
      ];
      const sent = await transactions.enqueue(steps);
      expect(sent.offloaded).toBe(false);
      // Nothing happens before a worker runs: the employee is still current.
      expect(await rows(archive)).toEqual([]);
      const stats = await transactions.worker().drain();
      expect(stats).toMatchObject({ processed: 1, stepsApplied: 2, retried: 0, poisoned: 0 });
      expect(await rows(current)).toEqual([]);
      expect(await rows(archive)).toEqual([
        { partitionKey: "Sales", rowKey: "000456", name: "Jones", age: 41 },
      ]);
      expect(await transactions.status(sent.id)).toEqual({ done: 2, completed: true });
      // The same transaction sent again (a producer that retried its send) changes nothing.
      await transactions.enqueue(steps, { id: sent.id });
      expect(await transactions.worker().drain()).toMatchObject({
        processed: 1,
        duplicates: 1,
        stepsApplied: 0,
      });
      expect(await rows(archive)).toHaveLength(1);
    });

    itWithBlobs(
      target,
      "every step kind converges when it runs again after a failure at any boundary",
      async () => {
        const a = await target().freshTable();
        const b = await target().freshTable();
        const container = freshName("blobs");
        await target().store.createContainer(container);
        const blobs = target().store.container(container);
        const transactions = await freshTransactions(target());
        await a.createEntity({ partitionKey: "p", rowKey: "update", v: 1 });
        await a.createEntity({ partitionKey: "p", rowKey: "merge", v: 1, keep: "yes" });
        await b.createEntity({ partitionKey: "q", rowKey: "delete", v: 1 });
        await b.createEntity({ partitionKey: "q", rowKey: "upsert", v: 1, gone: true });
        await blobs.uploadBlockBlob("replace.txt", "old", 3);
        await blobs.uploadBlockBlob("remove.txt", "x", 1);
        const toUpdate = await a.getEntity("p", "update");
        const toMerge = await a.getEntity("p", "merge");
        const toDelete = await b.getEntity("q", "delete");
        const blobEtag = (await blobs.getBlobClient("replace.txt").getProperties()).etag;
        const steps = [
          step.insertIfAbsent(a.tableName, { partitionKey: "p", rowKey: "insert", n: 7n }),
          step.upsert(b.tableName, { partitionKey: "q", rowKey: "upsert", v: 2 }),
          step.updateIfMatch(a.tableName, { partitionKey: "p", rowKey: "update", v: 2 }, toUpdate.etag),
          step.updateIfMatch(
            a.tableName,
            { partitionKey: "p", rowKey: "merge", v: 2 },
            toMerge.etag,
            "Merge",
          ),
          step.deleteIfPresent(b.tableName, "q", "delete", { etag: toDelete.etag }),
          step.putBlob(container, "new.txt", "fresh", { condition: { ifNoneMatch: "*" } }),
          step.putBlob(container, "replace.txt", "replaced", { condition: { ifMatch: blobEtag } }),
          step.deleteBlobIfPresent(container, "remove.txt"),
        ];
        const sent = await transactions.enqueue(steps);
        // Fails once right after each step ran, before its progress was recorded: every step runs twice.
        const stats = await transactions
          .worker({ retryDelay: 0, maxDequeueCount: 20, onBoundary: failOnceAt("applied") })
          .drain();
        expect(stats).toMatchObject({ processed: 1, retried: steps.length, poisoned: 0 });
        // Every step finds its mark the second time (the upsert too: it does not write again).
        expect(stats).toMatchObject({ stepsApplied: steps.length, stepsAlready: steps.length });
        expect(await rows(a)).toEqual([
          { partitionKey: "p", rowKey: "insert", n: 7n },
          { partitionKey: "p", rowKey: "merge", v: 2, keep: "yes" },
          { partitionKey: "p", rowKey: "update", v: 2 },
        ]);
        expect(await rows(b)).toEqual([{ partitionKey: "q", rowKey: "upsert", v: 2 }]);
        expect(await blobTexts(target(), container)).toEqual({
          "new.txt": "fresh",
          "replace.txt": "replaced",
        });
        expect(await transactions.status(sent.id)).toMatchObject({ done: steps.length, completed: true });
      },
    );

    it("parks a conflicting transaction in the poison queue at once, keeping the steps before it", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      await table.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
      const stale = (await table.getEntity("p", "r")).etag;
      await table.updateEntity({ partitionKey: "p", rowKey: "r", v: 99 }, "Replace");
      const sent = await transactions.enqueue([
        step.insertIfAbsent(table.tableName, { partitionKey: "p", rowKey: "first" }),
        step.updateIfMatch(table.tableName, { partitionKey: "p", rowKey: "r", v: 2 }, stale),
      ]);
      expect(await transactions.worker().drain()).toMatchObject({ poisoned: 1, processed: 0, retried: 0 });
      const [parked, ...more] = await transactions.poison.list();
      expect(more).toEqual([]);
      expect(parked).toMatchObject({ id: sent.id, reason: "conflict", dequeueCount: 1 });
      expect(parked!.error).toMatch(/^UpdateConditionNotSatisfied: updateIfMatch/);
      expect((await transactions.poison.steps(parked!)).map((s) => s.kind)).toEqual([
        "insertIfAbsent",
        "updateIfMatch",
      ]);
      expect(await transactions.status(sent.id)).toMatchObject({ done: 1, completed: false });
      expect((await table.getEntity("p", "r")).v).toBe(99); // the newer write is not lost
      expect(await transactions.poison.discard({ ids: [sent.id] })).toBe(1);
      expect(await transactions.poison.list()).toEqual([]);
      // It will not run again: its journal says so, and the marks its steps left may go.
      expect(await transactions.journal.read(sent.id, {})).toMatchObject({
        discarded: true,
        completed: false,
      });
    });

    it("a replayed transaction whose id enqueue drew continues where its journal says (its first delivery reads it)", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      const stale = (await table.createEntity({ partitionKey: "p", rowKey: "r", v: 1 })).etag;
      await table.updateEntity({ partitionKey: "p", rowKey: "r", v: 99 }, "Replace");
      const sent = await transactions.enqueue([
        step.insertIfAbsent(table.tableName, { partitionKey: "p", rowKey: "first" }),
        step.updateIfMatch(table.tableName, { partitionKey: "p", rowKey: "r", v: 2 }, stale),
      ]);
      expect(await transactions.worker().drain()).toMatchObject({ poisoned: 1 });
      // The update is found applied by hand: replayed from the step after it.
      expect(await transactions.poison.replay({ assumeApplied: true })).toBe(1);
      expect(await transactions.worker().drain()).toMatchObject({ processed: 1, poisoned: 0 });
      expect(await transactions.status(sent.id)).toMatchObject({ done: 2, completed: true });
      expect((await table.getEntity("p", "r")).v).toBe(99);
    });

    it("poisons after the configured dequeue count; a replay after the fix converges", async () => {
      const present = await target().freshTable();
      const missing = target().freshTableName();
      const transactions = await freshTransactions(target());
      const sent = await transactions.enqueue([
        step.upsert(present.tableName, { partitionKey: "p", rowKey: "one", v: 1 }),
        step.upsert(missing, { partitionKey: "p", rowKey: "two", v: 2 }),
      ]);
      const worker = transactions.worker({ retryDelay: 0, maxDequeueCount: 3 });
      expect(await worker.drain()).toMatchObject({ retried: 3, poisoned: 1, processed: 0, received: 4 });
      const [parked] = await transactions.poison.list();
      expect(parked).toMatchObject({ id: sent.id, reason: "dequeue-count", dequeueCount: 4 });
      expect(await transactions.status(sent.id)).toMatchObject({ done: 1, completed: false });
      expect((await transactions.status(sent.id)).lastError).toMatch(/^TableNotFound/);
      // The fix: create the table. Replay continues after the step already done.
      await target().store.createTable(missing);
      expect(await transactions.poison.replay()).toBe(1);
      expect(await transactions.worker().drain()).toMatchObject({
        processed: 1,
        stepsApplied: 1,
        poisoned: 0,
      });
      expect(await rows(target().store.table(missing))).toEqual([{ partitionKey: "p", rowKey: "two", v: 2 }]);
      expect(await transactions.poison.list()).toEqual([]);
    });

    it("a discard a crash interrupted (journal recorded, message still parked) never runs the transaction again", async () => {
      const present = await target().freshTable();
      const missing = target().freshTableName();
      const transactions = await freshTransactions(target());
      const steps = [
        step.upsert(present.tableName, { partitionKey: "p", rowKey: "one", v: 1 }),
        step.upsert(missing, { partitionKey: "p", rowKey: "two", v: 2 }),
      ];
      const sent = await transactions.enqueue(steps);
      expect(await transactions.worker({ retryDelay: 0, maxDequeueCount: 1 }).drain()).toMatchObject({
        poisoned: 1,
      });
      // discard's first write, then the crash: the journal says discarded, the message stays parked.
      await transactions.journal.discard(sent.id, {});
      await target().store.createTable(missing);
      // A replay of everything finishes the discard instead of sending it back…
      expect(await transactions.poison.replay()).toBe(0);
      expect(await transactions.poison.list()).toEqual([]);
      // …and a copy of it still in the queue (a duplicate send) ends without running a step.
      await transactions.enqueue(steps, { id: sent.id });
      expect(await transactions.worker().drain()).toMatchObject({
        processed: 1,
        duplicates: 1,
        stepsApplied: 0,
        poisoned: 0,
      });
      expect(await rows(target().store.table(missing))).toEqual([]);
      expect(await transactions.status(sent.id)).toMatchObject({ done: 1, completed: false });
    });

    it("a second copy of a message (a send retried after its answer was lost) never runs a step again", async () => {
      const table = await target().freshTable();
      await table.createEntity({ partitionKey: "p", rowKey: "x", v: 1 });
      const transactions = await freshTransactions(target());
      await transactions.enqueue([step.deleteIfPresent(table.tableName, "p", "x")]);
      const [sent] = (await transactions.queue.peekMessages()).peekedMessageItems;
      const fresh = JSON.parse(sent!.messageText).fresh === true;
      // Only a queue that never keeps two copies of one send lets a first delivery skip the journal.
      expect(fresh).toBe(target().store.queueCapabilities?.sendsOnce === true);
      expect(await transactions.worker().drain()).toMatchObject({ processed: 1, stepsApplied: 1 });
      // The key lives again (a later writer), then the copy arrives, delivered for the first time.
      await transactions.enqueue([
        step.insertIfAbsent(table.tableName, { partitionKey: "p", rowKey: "x", v: 2 }),
      ]);
      expect(await transactions.worker().drain()).toMatchObject({ processed: 1, stepsApplied: 1 });
      if (fresh) return; // no transport here can make the copy
      await transactions.queue.sendMessage(sent!.messageText);
      expect(await transactions.worker().drain()).toMatchObject({
        processed: 1,
        duplicates: 1,
        stepsApplied: 0,
        poisoned: 0,
      });
      expect(await rows(table)).toEqual([{ partitionKey: "p", rowKey: "x", v: 2 }]);
    });

    it("parks a malformed message with its text", async () => {
      const transactions = await freshTransactions(target());
      await transactions.queue.sendMessage("not a transaction");
      expect(await transactions.worker().drain()).toMatchObject({ poisoned: 1 });
      expect(await transactions.poison.list()).toMatchObject([
        { id: undefined, reason: "malformed", messageText: "not a transaction" },
      ]);
    });

    it("a message larger than the queue takes goes to a payload blob (refused without a blob port)", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      const big = "é".repeat(16_000); // 32 KB of UTF-16, 96 KB as escaped ASCII JSON
      const steps = [0, 1, 2].map((i) =>
        step.upsert(table.tableName, { partitionKey: "p", rowKey: `r${i}`, big }),
      );
      if (!target().store.blobCapabilities) {
        // Without a blob port there is nowhere to put the payload: refused, nothing sent.
        await expectCode(transactions.enqueue(steps), "RequestBodyTooLarge");
        expect((await transactions.queue.getProperties()).approximateMessagesCount).toBe(0);
        return;
      }
      const sent = await transactions.enqueue(steps);
      expect(sent.offloaded).toBe(true);
      const [peeked] = (await transactions.queue.peekMessages()).peekedMessageItems;
      expect(JSON.parse(peeked!.messageText)).toEqual({
        tablekit: "tx/1",
        id: sent.id,
        // its id was drawn for it: where no second copy can exist, its first delivery reads no journal row
        ...(target().store.queueCapabilities?.sendsOnce ? { fresh: true } : {}),
        payload: {
          container: transactions.payloadContainer,
          name: `${transactions.queue.name}/${sent.id}.json`,
        },
      });
      expect(await transactions.worker().drain()).toMatchObject({ processed: 1, stepsApplied: 3 });
      expect((await rows(table)).map((r) => r.big === big)).toEqual([true, true, true]);
      expect(await blobTexts(target(), transactions.payloadContainer)).toEqual({});
    });

    it("refuses bad input with a typed error and sends nothing", async () => {
      const transactions = await freshTransactions(target());
      const table = target().freshTableName();
      const entity = { partitionKey: "p", rowKey: "r" };
      await expectCode(transactions.enqueue([]), "InvalidInput");
      await expectCode(
        transactions.enqueue([step.upsert(table, entity), step.deleteIfPresent(table, "p", "r")]),
        "InvalidInput",
        { details: { step: 1 } },
      );
      await expectCode(transactions.enqueue([step.upsert("no such table!", entity)]), "InvalidResourceName");
      await expectCode(
        transactions.enqueue([step.upsert(table, { partitionKey: "a/b", rowKey: "r" })]),
        "OutOfRangeInput",
      );
      await expectCode(transactions.enqueue([step.updateIfMatch(table, entity, "*")]), "InvalidInput");
      await expectCode(transactions.enqueue([step.call("nobody", {})]), "InvalidInput");
      await expectCode(
        transactions.enqueue([step.upsert(table, { ...entity, s: "x".repeat(40_000) })]),
        "PropertyValueTooLarge",
      );
      await expectCode(
        transactions.enqueue([step.putBlob("Bad_Name", "x", "y")]),
        target().store.blobCapabilities ? "InvalidResourceName" : "NotSupported",
      );
      await expectCode(transactions.enqueue([step.upsert(table, entity)], { id: "a#b" }), "OutOfRangeInput");
      expect((await transactions.queue.getProperties()).approximateMessagesCount).toBe(0);
    });

    it("runs transactions concurrently, renews the visibility of a long step, and stops gracefully", async () => {
      const table = await target().freshTable();
      const slow: StepHandler<{ ms: number; key: string }> = {
        kind: "slow",
        async run(ctx, args) {
          await sleep(args.ms);
          await ctx.store.table(table.tableName).upsertEntity({ partitionKey: "p", rowKey: args.key });
        },
      };
      const transactions = await freshTransactions(target(), [slow]);
      // A 2.5 s step under a 1 s visibility timeout: renewed, never delivered twice.
      await transactions.enqueue([step.call("slow", { ms: 2500, key: "long" })]);
      const long = await transactions.worker({ visibilityTimeout: 1 }).drain();
      expect(long).toMatchObject({ received: 1, processed: 1 });
      expect(long.extended).toBeGreaterThanOrEqual(2);
      // Eight at once with concurrency 4: stop() lets the ones in flight finish.
      for (let i = 0; i < 8; i++) await transactions.enqueue([step.call("slow", { ms: 300, key: `k${i}` })]);
      const worker = transactions.worker({ concurrency: 4 });
      worker.start();
      while (worker.stats.received === 0) await sleep(20);
      const stopped = await worker.stop();
      expect(worker.inFlight).toBe(0);
      expect(stopped.processed).toBe(stopped.received);
      // abandon: the ones in flight stop at their next boundary and are visible again at once.
      const abandoning = transactions.worker({ concurrency: 4 });
      abandoning.start();
      while (abandoning.stats.received === 0) await sleep(20);
      const abandoned = await abandoning.stop({ abandon: true });
      expect(abandoned.processed + abandoned.abandoned).toBe(abandoned.received);
      expect(await transactions.worker({ concurrency: 4 }).drain()).toMatchObject({ poisoned: 0 });
      expect((await rows(table)).map((r) => r.rowKey)).toEqual([
        "k0",
        "k1",
        "k2",
        "k3",
        "k4",
        "k5",
        "k6",
        "k7",
        "long",
      ]);
    });

    it("begin/release: a transaction sent before the write it follows runs after it", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      const copy = step.upsert(table.tableName, { partitionKey: "p", rowKey: "copy" });
      const pending = await transactions.begin([copy], { holdSeconds: 60 });
      expect(
        await transactions
          .worker()
          .drain({ timeoutMs: 300 })
          .catch((e: unknown) => e),
      ).toMatchObject({
        code: "OperationTimedOut", // hidden until released
      });
      await pending.release();
      expect(await transactions.worker().drain()).toMatchObject({ processed: 1 });
      // Released after a worker already took it: sent again, so it runs after the write.
      const late = await transactions.begin([copy], { holdSeconds: 1 });
      await sleep(1100);
      const { receivedMessageItems } = await transactions.queue.receiveMessages({ visibilityTimeout: 60 });
      expect(receivedMessageItems).toHaveLength(1);
      await late.release();
      expect((await transactions.queue.getProperties()).approximateMessagesCount).toBe(2);
      const cancelled = await transactions.begin([copy]);
      await cancelled.cancel();
      expect((await transactions.queue.getProperties()).approximateMessagesCount).toBe(2);
    });

    it("prune removes the journal rows of completed transactions", async () => {
      const table = await target().freshTable();
      const transactions = await freshTransactions(target());
      const done = await transactions.enqueue([
        step.upsert(table.tableName, { partitionKey: "p", rowKey: "r" }),
      ]);
      await transactions.worker().drain();
      expect(await transactions.prune({ olderThan: new Date(Date.now() - 3_600_000) })).toEqual({
        journal: 0,
        payloads: 0,
      });
      expect(await transactions.prune({ olderThan: new Date(Date.now() + 60_000) })).toMatchObject({
        journal: 1,
      });
      expect(await transactions.status(done.id)).toEqual({ done: 0, completed: false });
    });

    it("a failing receive does not stop the worker", async () => {
      const transactions = await freshTransactions(target());
      const errors: unknown[] = [];
      await transactions.queue.delete();
      const worker = transactions.worker({ onError: (e) => errors.push(e), pollIntervalMs: 10 });
      worker.start();
      while (errors.length === 0) await sleep(10);
      await transactions.queue.create();
      const stats = await worker.stop();
      expect(stats.errors).toBeGreaterThan(0);
      expect(isTableKitError(errors[0], "QueueNotFound")).toBe(true);
    });
  });
}
