import { describe, expect, it } from "vitest";
import { collect, expectCode, type QueueTargetRef, receiveOne } from "./helpers.js";

/** An aborted signal or a closed store stops every call before it does anything. */
export function abortAndClosedSuite(target: QueueTargetRef): void {
  describe("abort and closed store", () => {
    it("every call with an already-aborted signal rejects with Aborted and changes nothing", async () => {
      const { store } = target();
      const queue = await target().freshQueue();
      await queue.sendMessage("stay");
      const held = await queue.sendMessage("held", { visibilityTimeout: 600 });
      const abortSignal = AbortSignal.abort();
      const opts = { abortSignal };
      const newName = target().freshQueueName();
      const calls: [string, () => Promise<unknown>][] = [
        ["store.createQueue", () => store.createQueue(newName, opts)],
        ["queue.create", () => store.queue(newName).create(opts)],
        ["queue.createIfNotExists", () => store.queue(newName).createIfNotExists(opts)],
        ["store.deleteQueue", () => store.deleteQueue(queue.name, opts)],
        ["queue.delete", () => queue.delete(opts)],
        ["queue.deleteIfExists", () => queue.deleteIfExists(opts)],
        ["queue.exists", () => queue.exists(opts)],
        ["listQueues", () => collect(store.listQueues(opts))],
        ["getProperties", () => queue.getProperties(opts)],
        ["sendMessage", () => queue.sendMessage("new", opts)],
        ["receiveMessages", () => queue.receiveMessages(opts)],
        ["peekMessages", () => queue.peekMessages(opts)],
        ["updateMessage", () => queue.updateMessage(held.messageId, held.popReceipt, "x", 0, opts)],
        ["deleteMessage", () => queue.deleteMessage(held.messageId, held.popReceipt, opts)],
        ["clearMessages", () => queue.clearMessages(opts)],
      ];
      for (const [name, call] of calls) {
        await expectCode(call(), "Aborted").catch((err: Error) => {
          throw new Error(`${name}: ${err.message}`, { cause: err });
        });
      }
      expect(await store.queue(newName).exists()).toBe(false);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(2);
      expect((await receiveOne(queue)).messageText).toBe("stay");
      await queue.deleteMessage(held.messageId, held.popReceipt);
    });

    it("a queue handle of a closed store rejects every call with InvalidInput", async () => {
      const other = await target().openStore();
      const name = target().freshQueueName();
      const queue = await other.createQueue(name);
      const sent = await queue.sendMessage("x");
      await other.close();
      const calls: (() => Promise<unknown>)[] = [
        () => queue.create(),
        () => queue.delete(),
        () => queue.getProperties(),
        () => queue.sendMessage("y"),
        () => queue.receiveMessages(),
        () => queue.peekMessages(),
        () => queue.updateMessage(sent.messageId, sent.popReceipt, "z", 0),
        () => queue.deleteMessage(sent.messageId, sent.popReceipt),
        () => queue.clearMessages(),
        () => collect(other.listQueues()),
        async () => other.queue(name),
      ];
      for (const call of calls) await expectCode(call(), "InvalidInput");
    });
  });
}
