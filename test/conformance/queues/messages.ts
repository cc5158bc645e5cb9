import { describe, expect, it } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { drainTexts, expectNoMessages, type QueueTargetRef, receiveOne } from "./helpers.js";

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

/** Send, receive, peek, update, delete, clear and count, with the SDK's result shapes. */
export function messagesSuite(target: QueueTargetRef): void {
  describe("messages", () => {
    it("sendMessage returns the SDK's shape: id, pop receipt, inserted/expires/next-visible times", async () => {
      const queue = await target().freshQueue();
      const before = Date.now();
      const sent = await queue.sendMessage("hello");
      const after = Date.now();
      expect(Object.keys(sent).sort()).toEqual([
        "expiresOn",
        "insertedOn",
        "messageId",
        "nextVisibleOn",
        "popReceipt",
      ]);
      expect(typeof sent.messageId).toBe("string");
      expect(sent.messageId).not.toBe("");
      expect(typeof sent.popReceipt).toBe("string");
      // Services report whole seconds: allow one second of rounding either side.
      expect(sent.insertedOn.getTime()).toBeGreaterThanOrEqual(before - SECOND);
      expect(sent.insertedOn.getTime()).toBeLessThanOrEqual(after + SECOND);
      expect(sent.nextVisibleOn.getTime()).toBe(sent.insertedOn.getTime());
      // The default time-to-live is 7 days.
      expect(Math.abs(sent.expiresOn.getTime() - sent.insertedOn.getTime() - 7 * DAY)).toBeLessThanOrEqual(
        SECOND,
      );
    });

    it("receive gives the text, a pop receipt, dequeue count 1 and the lease's end; peek shows it without taking it", async () => {
      const queue = await target().freshQueue();
      const sent = await queue.sendMessage("first");
      const peeked = (await queue.peekMessages()).peekedMessageItems;
      expect(peeked).toHaveLength(1);
      expect(Object.keys(peeked[0]!).sort()).toEqual([
        "dequeueCount",
        "expiresOn",
        "insertedOn",
        "messageId",
        "messageText",
      ]);
      expect(peeked[0]).toMatchObject({ messageId: sent.messageId, messageText: "first", dequeueCount: 0 });
      // Peeking again changes nothing.
      expect((await queue.peekMessages()).peekedMessageItems[0]!.dequeueCount).toBe(0);

      const start = Date.now();
      const got = await receiveOne(queue, 60);
      expect(Object.keys(got).sort()).toEqual([
        "dequeueCount",
        "expiresOn",
        "insertedOn",
        "messageId",
        "messageText",
        "nextVisibleOn",
        "popReceipt",
      ]);
      expect(got).toMatchObject({ messageId: sent.messageId, messageText: "first", dequeueCount: 1 });
      expect(got.insertedOn.getTime()).toBe(sent.insertedOn.getTime());
      expect(got.expiresOn.getTime()).toBe(sent.expiresOn.getTime());
      expect(got.nextVisibleOn.getTime()).toBeGreaterThanOrEqual(start + 60 * SECOND - SECOND);
      expect(got.nextVisibleOn.getTime()).toBeLessThanOrEqual(Date.now() + 60 * SECOND + SECOND);
      // Invisible now: neither peek nor receive sees it, but it still counts.
      expect((await queue.peekMessages()).peekedMessageItems).toEqual([]);
      expect((await queue.receiveMessages()).receivedMessageItems).toEqual([]);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
      await queue.deleteMessage(got.messageId, got.popReceipt);
      await expectNoMessages(queue);
    });

    it("an empty queue receives and peeks nothing", async () => {
      const queue = await target().freshQueue();
      expect((await queue.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toEqual([]);
      await expectNoMessages(queue);
    });

    it("texts round-trip exactly: XML specials, quotes, unicode, astral characters, tabs and newlines, empty", async () => {
      const queue = await target().freshQueue();
      const texts = [
        '<a href="x">&amp;</a> & < > \' "',
        "]]> <![CDATA[ x ]]>",
        "Grüße, 你好, עברית, emoji 🎉🧪",
        "tab\there\nnew line\n",
        "  leading and trailing spaces  ",
        '{"json":[1,2,{"a":null}]}',
        "",
      ];
      for (const text of texts) await queue.sendMessage(text);
      expect((await drainTexts(queue)).sort()).toEqual([...texts].sort());
    });

    itWhen(
      target,
      (c) => !c.divergences.some((d) => d.id === "carriage-return"),
      "the backend declares the carriage-return divergence (Azurite keeps the &#xD; reference the SDK sends as text)",
      "carriage returns round-trip (XML would normalize a raw CR; it must travel escaped)",
      async () => {
        const queue = await target().freshQueue();
        for (const text of ["cr\r\nlf", "\r", "a\rb\r\r\n"]) {
          await queue.sendMessage(text);
          const got = await receiveOne(queue);
          expect(JSON.stringify(got.messageText)).toBe(JSON.stringify(text));
          await queue.deleteMessage(got.messageId, got.popReceipt);
        }
      },
    );

    it("receive takes up to numberOfMessages, each message once (order is not promised)", async () => {
      const queue = await target().freshQueue();
      const texts = Array.from({ length: 40 }, (_, i) => `m${String(i).padStart(2, "0")}`);
      for (const text of texts) await queue.sendMessage(text);
      const first = (await queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 300 }))
        .receivedMessageItems;
      expect(first).toHaveLength(32);
      const rest = (await queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 300 }))
        .receivedMessageItems;
      expect(rest).toHaveLength(8);
      const all = [...first, ...rest].map((m) => m.messageText);
      expect(new Set(all).size).toBe(40);
      expect(all.sort()).toEqual(texts);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(40);
    });

    it("peek shows up to numberOfMessages visible messages", async () => {
      const queue = await target().freshQueue();
      for (let i = 0; i < 5; i++) await queue.sendMessage(`p${i}`);
      expect((await queue.peekMessages()).peekedMessageItems).toHaveLength(1);
      const five = (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
      expect(five.map((m) => m.messageText).sort()).toEqual(["p0", "p1", "p2", "p3", "p4"]);
      expect(five.every((m) => m.dequeueCount === 0)).toBe(true);
    });

    it("updateMessage replaces the text, keeps the dequeue count, and returns a new receipt", async () => {
      const queue = await target().freshQueue();
      await queue.sendMessage("draft");
      const got = await receiveOne(queue);
      const updated = await queue.updateMessage(got.messageId, got.popReceipt, "final", 0);
      expect(Object.keys(updated).sort()).toEqual(["nextVisibleOn", "popReceipt"]);
      expect(updated.popReceipt).not.toBe(got.popReceipt);
      const peeked = (await queue.peekMessages()).peekedMessageItems;
      expect(peeked).toMatchObject([{ messageId: got.messageId, messageText: "final", dequeueCount: 1 }]);
      // Without a text, only the visibility changes.
      const again = await receiveOne(queue);
      expect(again).toMatchObject({ messageText: "final", dequeueCount: 2 });
      const second = await queue.updateMessage(again.messageId, again.popReceipt, undefined, 0);
      expect((await queue.peekMessages()).peekedMessageItems[0]!.messageText).toBe("final");
      await queue.deleteMessage(again.messageId, second.popReceipt);
      await expectNoMessages(queue);
    });

    it("deleteMessage removes exactly that message", async () => {
      const queue = await target().freshQueue();
      await queue.sendMessage("keep");
      await queue.sendMessage("drop");
      const items = (await queue.receiveMessages({ numberOfMessages: 2, visibilityTimeout: 1 }))
        .receivedMessageItems;
      const drop = items.find((m) => m.messageText === "drop")!;
      const keep = items.find((m) => m.messageText === "keep")!;
      await queue.deleteMessage(drop.messageId, drop.popReceipt);
      await queue.updateMessage(keep.messageId, keep.popReceipt, undefined, 0);
      expect(
        (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.map((m) => m.messageText),
      ).toEqual(["keep"]);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
    });

    it("clearMessages deletes every message, visible or not", async () => {
      const queue = await target().freshQueue();
      await Promise.all(Array.from({ length: 120 }, (_, i) => queue.sendMessage(`c${i}`)));
      await queue.sendMessage("later", { visibilityTimeout: 600 });
      await receiveOne(queue);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(121);
      await queue.clearMessages();
      await expectNoMessages(queue);
      // The queue still works.
      await queue.sendMessage("after");
      expect((await receiveOne(queue)).messageText).toBe("after");
    });
  });
}
