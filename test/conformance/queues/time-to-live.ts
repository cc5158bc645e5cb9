import { describe, expect, it } from "vitest";
import { expectCode, type QueueTargetRef, receiveOne, sleepPast } from "./helpers.js";

const NEVER = Date.UTC(9999, 11, 31, 23, 59, 59);

/** Time-to-live: expired messages are gone for every operation; -1 never expires. */
export function timeToLiveSuite(target: QueueTargetRef): void {
  describe("time-to-live", () => {
    it("an expired message is neither received nor peeked, and its receipt is MessageNotFound", async () => {
      const queue = await target().freshQueue();
      const start = Date.now();
      const short = await queue.sendMessage("short", { messageTimeToLive: 2 });
      const leased = await queue.sendMessage("leased", { messageTimeToLive: 2 });
      await queue.sendMessage("long", { messageTimeToLive: 3600 });
      expect(short.expiresOn.getTime()).toBeGreaterThanOrEqual(start + 2000 - 1000);
      expect(short.expiresOn.getTime()).toBeLessThanOrEqual(Date.now() + 2000 + 1000);
      // Received before it expires: the lease outlives the message.
      const items = (await queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 60 }))
        .receivedMessageItems;
      const held = items.find((m) => m.messageId === leased.messageId)!;
      for (const m of items) {
        if (m.messageId !== leased.messageId)
          await queue.updateMessage(m.messageId, m.popReceipt, undefined, 0);
      }
      await sleepPast(target(), short.expiresOn);
      expect(
        (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.map((m) => m.messageText),
      ).toEqual(["long"]);
      await expectCode(queue.deleteMessage(held.messageId, held.popReceipt), "MessageNotFound");
      await expectCode(queue.updateMessage(held.messageId, held.popReceipt, "x", 0), "MessageNotFound");
      expect((await receiveOne(queue)).messageText).toBe("long");
      expect((await queue.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toEqual([]);
    });

    it("messageTimeToLive -1 never expires (expiresOn 9999-12-31T23:59:59Z)", async () => {
      const queue = await target().freshQueue();
      const sent = await queue.sendMessage("forever", { messageTimeToLive: -1 });
      expect(Math.abs(sent.expiresOn.getTime() - NEVER)).toBeLessThan(1000);
      const got = await receiveOne(queue);
      expect(Math.abs(got.expiresOn.getTime() - NEVER)).toBeLessThan(1000);
    });

    it("a long visibility timeout with a longer TTL is accepted", async () => {
      const queue = await target().freshQueue();
      const sent = await queue.sendMessage("week", {
        visibilityTimeout: 7 * 24 * 3600,
        messageTimeToLive: -1,
      });
      expect(sent.nextVisibleOn.getTime() - sent.insertedOn.getTime()).toBeGreaterThan(
        7 * 24 * 3600 * 1000 - 2000,
      );
      expect((await queue.receiveMessages()).receivedMessageItems).toEqual([]);
    });
  });
}
