import { describe, expect, it } from "vitest";
import { type QueueTargetRef, receiveOne, sleepPast } from "./helpers.js";

/** Visibility timeouts: leases, their expiry, redelivery with a raised dequeue count. */
export function visibilitySuite(target: QueueTargetRef): void {
  describe("visibility", () => {
    it("a received message is invisible to other receivers, then reappears with its dequeue count raised", async () => {
      const queue = await target().freshQueue();
      const otherStore = await target().openStore();
      const other = otherStore.queue(queue.name);
      try {
        const sent = await queue.sendMessage("lease me");
        const first = await receiveOne(queue, 1);
        expect(first.dequeueCount).toBe(1);
        // Another handle (another store: another process) sees nothing while the lease runs.
        expect((await other.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toEqual([]);
        expect((await other.peekMessages()).peekedMessageItems).toEqual([]);
        await sleepPast(target(), first.nextVisibleOn);
        expect((await other.peekMessages()).peekedMessageItems).toMatchObject([
          { messageId: sent.messageId, dequeueCount: 1 },
        ]);
        const second = (await other.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
        expect(second).toHaveLength(1);
        expect(second[0]).toMatchObject({
          messageId: sent.messageId,
          messageText: "lease me",
          dequeueCount: 2,
        });
        expect(second[0]!.popReceipt).not.toBe(first.popReceipt);
        expect(second[0]!.insertedOn.getTime()).toBe(sent.insertedOn.getTime());
        await other.deleteMessage(second[0]!.messageId, second[0]!.popReceipt);
        expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
      } finally {
        await otherStore.close();
      }
    });

    it("sendMessage with a visibility timeout hides the message until then", async () => {
      const queue = await target().freshQueue();
      const start = Date.now();
      const sent = await queue.sendMessage("later", { visibilityTimeout: 1 });
      expect(sent.nextVisibleOn.getTime()).toBeGreaterThanOrEqual(
        start + 1000 - target().capabilities.timeResolutionMs,
      );
      expect((await queue.receiveMessages()).receivedMessageItems).toEqual([]);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
      await sleepPast(target(), sent.nextVisibleOn);
      expect(await receiveOne(queue)).toMatchObject({ messageText: "later", dequeueCount: 1 });
    });

    it("updateMessage with visibility 0 releases the message at once; a longer one extends the lease", async () => {
      const queue = await target().freshQueue();
      await queue.sendMessage("work");
      const got = await receiveOne(queue, 1);
      const extended = await queue.updateMessage(got.messageId, got.popReceipt, undefined, 120);
      expect(extended.nextVisibleOn.getTime()).toBeGreaterThan(got.nextVisibleOn.getTime() + 60_000);
      // Past the original 1 s lease, the extension still hides it.
      await sleepPast(target(), got.nextVisibleOn);
      expect((await queue.receiveMessages()).receivedMessageItems).toEqual([]);
      await queue.updateMessage(got.messageId, extended.popReceipt, undefined, 0);
      expect(await receiveOne(queue)).toMatchObject({ messageId: got.messageId, dequeueCount: 2 });
    });
  });
}
