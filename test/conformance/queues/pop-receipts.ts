import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { expectCode, type QueueTargetRef, receiveOne } from "./helpers.js";

/** Pop receipts: only the latest one deletes or updates; stale ones fail with the service's code. */
export function popReceiptsSuite(target: QueueTargetRef): void {
  describe("pop receipts", () => {
    it("after an update, the old receipt is PopReceiptMismatch for delete and update; the message is untouched", async () => {
      const queue = await target().freshQueue();
      await queue.sendMessage("v1");
      const got = await receiveOne(queue);
      const updated = await queue.updateMessage(got.messageId, got.popReceipt, "v2", 0);
      // `tablekit queue delete NAME ID RECEIPT` takes them as arguments: none begins with "-".
      for (const token of [got.messageId, got.popReceipt, updated.popReceipt])
        expect(token).not.toMatch(/^-/);
      await expectCode(queue.deleteMessage(got.messageId, got.popReceipt), "PopReceiptMismatch");
      await expectCode(queue.updateMessage(got.messageId, got.popReceipt, "v3", 0), "PopReceiptMismatch");
      expect((await queue.peekMessages()).peekedMessageItems).toMatchObject([
        { messageText: "v2", dequeueCount: 1 },
      ]);
      await queue.deleteMessage(got.messageId, updated.popReceipt);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
    });

    it("a receipt changed in any one character, or another message's receipt, deletes and updates nothing", async () => {
      const queue = await target().freshQueue();
      await queue.sendMessage("held");
      const got = await receiveOne(queue, 3600);
      const other = await queue.sendMessage("other", { visibilityTimeout: 3600 });
      const forged = new Set<string>([other.popReceipt]);
      for (let i = 0; i < got.popReceipt.length; i++) {
        const c = got.popReceipt[i] === "A" ? "B" : "A";
        forged.add(`${got.popReceipt.slice(0, i)}${c}${got.popReceipt.slice(i + 1)}`);
      }
      forged.delete(got.popReceipt);
      for (const receipt of forged) {
        await expect(queue.updateMessage(got.messageId, receipt, "taken", 0)).rejects.toMatchObject({
          code: expect.any(String),
        });
        await expect(queue.deleteMessage(got.messageId, receipt)).rejects.toMatchObject({
          code: expect.any(String),
        });
      }
      expect((await queue.peekMessages()).peekedMessageItems).toEqual([]);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(2);
      await queue.deleteMessage(got.messageId, got.popReceipt);
    });

    it("after the message is received again, the first receiver's receipt is stale", async () => {
      const queue = await target().freshQueue();
      await queue.sendMessage("twice");
      const first = await receiveOne(queue);
      // Release it (as an expired lease would) and let a second consumer take it.
      const released = await queue.updateMessage(first.messageId, first.popReceipt, undefined, 0);
      const second = await receiveOne(queue);
      expect(second.dequeueCount).toBe(2);
      await expectCode(queue.deleteMessage(first.messageId, first.popReceipt), "PopReceiptMismatch");
      await expectCode(queue.deleteMessage(first.messageId, released.popReceipt), "PopReceiptMismatch");
      await expectCode(
        queue.updateMessage(first.messageId, released.popReceipt, "x", 0),
        "PopReceiptMismatch",
      );
      // The current holder is unaffected.
      await queue.deleteMessage(second.messageId, second.popReceipt);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
    });

    it("the receipt sendMessage returns is the message's current one until it is received", async () => {
      const queue = await target().freshQueue();
      const sent = await queue.sendMessage("direct", { visibilityTimeout: 60 });
      const updated = await queue.updateMessage(sent.messageId, sent.popReceipt, "changed", 0);
      const got = await receiveOne(queue);
      expect(got).toMatchObject({ messageText: "changed", dequeueCount: 1 });
      await expectCode(queue.deleteMessage(sent.messageId, updated.popReceipt), "PopReceiptMismatch");
      await queue.deleteMessage(got.messageId, got.popReceipt);
    });

    it("a deleted or unknown message is MessageNotFound", async () => {
      const queue = await target().freshQueue();
      await queue.sendMessage("gone");
      const got = await receiveOne(queue);
      await queue.deleteMessage(got.messageId, got.popReceipt);
      await expectCode(queue.deleteMessage(got.messageId, got.popReceipt), "MessageNotFound");
      await expectCode(queue.updateMessage(got.messageId, got.popReceipt, "x", 0), "MessageNotFound");
      const sent = await queue.sendMessage("other");
      await expectCode(queue.deleteMessage(randomUUID(), sent.popReceipt), "MessageNotFound");
      expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
    });

    it("message ids and receipts must be non-empty strings (InvalidInput), before any I/O", async () => {
      const queue = await target().freshQueue();
      const sent = await queue.sendMessage("kept");
      const bad: unknown[] = ["", undefined, null, 42];
      for (const value of bad) {
        await expectCode(queue.deleteMessage(value as string, sent.popReceipt), "InvalidInput");
        await expectCode(queue.deleteMessage(sent.messageId, value as string), "InvalidInput");
        await expectCode(queue.updateMessage(sent.messageId, value as string, "x", 0), "InvalidInput");
      }
      expect((await queue.peekMessages()).peekedMessageItems).toMatchObject([{ messageText: "kept" }]);
    });
  });
}
