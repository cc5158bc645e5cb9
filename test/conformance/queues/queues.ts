import { describe, expect, it } from "vitest";
import { collect, expectCode, type QueueTargetRef } from "./helpers.js";

async function queueNames(target: QueueTargetRef, prefix?: string): Promise<string[]> {
  return (await collect(target().store.listQueues(prefix === undefined ? {} : { prefix }))).map(
    (q) => q.name,
  );
}

/** Creating, listing and deleting queues. */
export function queuesSuite(target: QueueTargetRef): void {
  describe("queues", () => {
    it("create, createIfNotExists, exists, delete, deleteIfExists", async () => {
      const { store } = target();
      const name = target().freshQueueName();
      const queue = store.queue(name);
      expect(await queue.exists()).toBe(false);
      expect(await queue.createIfNotExists()).toEqual({ succeeded: true });
      expect(await queue.exists()).toBe(true);
      expect(await queue.createIfNotExists()).toEqual({ succeeded: false });
      // create() of an existing queue succeeds, as in the SDK (the service answers 204), and keeps its messages.
      await queue.sendMessage("kept");
      await queue.create();
      await store.createQueue(name);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
      expect(await queueNames(target)).toContain(name);
      await queue.delete();
      expect(await queue.exists()).toBe(false);
      expect(await queueNames(target)).not.toContain(name);
      expect(await queue.deleteIfExists()).toEqual({ succeeded: false });
      // A new name: the service holds a deleted one for about 30 s (QueueBeingDeleted).
      const again = store.queue(target().freshQueueName());
      await again.create();
      expect(await again.deleteIfExists()).toEqual({ succeeded: true });
    });

    it("every operation on a missing queue is QueueNotFound", async () => {
      const { store } = target();
      const queue = store.queue(target().freshQueueName());
      await expectCode(queue.delete(), "QueueNotFound");
      await expectCode(store.deleteQueue(queue.name), "QueueNotFound");
      await expectCode(queue.getProperties(), "QueueNotFound");
      await expectCode(queue.sendMessage("x"), "QueueNotFound");
      await expectCode(queue.receiveMessages(), "QueueNotFound");
      await expectCode(queue.peekMessages(), "QueueNotFound");
      await expectCode(queue.clearMessages(), "QueueNotFound");
      await expectCode(
        queue.deleteMessage("00000000-0000-0000-0000-000000000000", "receipt"),
        "QueueNotFound",
      );
      await expectCode(
        queue.updateMessage("00000000-0000-0000-0000-000000000000", "receipt", "x", 0),
        "QueueNotFound",
      );
      expect(await queue.exists()).toBe(false);
    });

    it("a deleted queue loses its messages; one recreated under the name is empty", async () => {
      const { store } = target();
      const queue = await target().freshQueue();
      for (let i = 0; i < 5; i++) await queue.sendMessage(`old ${i}`);
      const held = (await queue.receiveMessages()).receivedMessageItems[0]!;
      await store.deleteQueue(queue.name);
      await expectCode(queue.sendMessage("x"), "QueueNotFound");
      await expectCode(queue.deleteMessage(held.messageId, held.popReceipt), "QueueNotFound");
      await queue.create();
      expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
      expect((await queue.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toEqual([]);
      await expectCode(queue.deleteMessage(held.messageId, held.popReceipt), "MessageNotFound");
    });

    it("listQueues filters by prefix, in name order, paged; tokens resume in a new call", async () => {
      const { store } = target();
      const prefix = target().freshQueueName(24);
      const mine = ["a", "b-b", "c1", "d", "e"].map((s) => `${prefix}${s}`);
      for (const name of [...mine].reverse()) await store.createQueue(name);
      expect(await queueNames(target, prefix)).toEqual(mine);
      expect(await queueNames(target, `${prefix}b`)).toEqual([`${prefix}b-b`]);
      expect(await queueNames(target, `${prefix}zz`)).toEqual([]);
      const pages = await collect(store.listQueues({ prefix }).byPage({ maxPageSize: 2 }));
      expect(pages.map((p) => p.map((q) => q.name))).toEqual([
        mine.slice(0, 2),
        mine.slice(2, 4),
        mine.slice(4),
      ]);
      const first = (await store.listQueues({ prefix }).byPage({ maxPageSize: 3 }).next()).value!;
      expect(first.continuationToken).toBeDefined();
      const rest = await collect(
        store.listQueues({ prefix }).byPage({ maxPageSize: 3, continuationToken: first.continuationToken }),
      );
      expect([...first, ...rest.flat()].map((q) => q.name)).toEqual(mine);
      const all = await queueNames(target);
      expect(all).toEqual([...all].sort());
      const max = target().capabilities.limits.maxListPageSize;
      await expectCode(collect(store.listQueues().byPage({ maxPageSize: max + 1 })), "InvalidInput");
      await expectCode(
        collect(store.listQueues().byPage({ continuationToken: "bogus" })),
        "InvalidContinuationToken",
      );
      for (const name of mine) await store.deleteQueue(name);
      expect(await queueNames(target, prefix)).toEqual([]);
    });
  });
}
