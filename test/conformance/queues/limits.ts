import { describe, expect, it } from "vitest";
import type { Queue } from "../../../src/index.js";
import { expectCode, expectNoMessages, type QueueTargetRef, receiveOne } from "./helpers.js";

/** Every limit at the limit and one past it; bad input is refused with the service's code and writes nothing. */
export function limitsSuite(target: QueueTargetRef): void {
  describe("limits and bad input", () => {
    it("a message of exactly maxMessageBytes UTF-8 bytes round-trips; one byte more is RequestBodyTooLarge", async () => {
      const queue = await target().freshQueue();
      const { limits, divergences } = target().capabilities;
      const max = limits.maxMessageBytes;
      // Where the backend declares it corrupts multi-byte characters in large requests, only ASCII is sent at the limit.
      const multibyte = !divergences.some((d) => d.id === "multibyte-chunk-boundary");
      const ascii = "a".repeat(max);
      // Three-byte characters: the limit counts UTF-8 bytes, not characters.
      const euros = `${"€".repeat(Math.floor(max / 3))}${"b".repeat(max % 3)}`;
      // Four-byte (astral) characters.
      const astral = `${"🎉".repeat(Math.floor(max / 4))}${"c".repeat(max % 4)}`;
      for (const text of multibyte ? [ascii, euros, astral] : [ascii]) {
        expect(Buffer.byteLength(text, "utf8")).toBe(max);
        await queue.sendMessage(text);
        const got = await receiveOne(queue);
        expect(got.messageText === text).toBe(true);
        await queue.deleteMessage(got.messageId, got.popReceipt);
      }
      for (const text of [`${ascii}a`, `${euros}b`, `${"€".repeat(Math.ceil(max / 3) + 1)}`]) {
        await expectCode(queue.sendMessage(text), "RequestBodyTooLarge");
      }
      // The same limit applies to an update's new text, which leaves the message as it was.
      await queue.sendMessage("small");
      const got = await receiveOne(queue);
      await expectCode(
        queue.updateMessage(got.messageId, got.popReceipt, `${ascii}a`, 0),
        "RequestBodyTooLarge",
      );
      const updated = await queue.updateMessage(got.messageId, got.popReceipt, ascii, 0);
      expect((await queue.peekMessages()).peekedMessageItems[0]!.messageText.length).toBe(max);
      await queue.deleteMessage(got.messageId, updated.popReceipt);
      await expectNoMessages(queue);
    });

    it("texts the service's XML cannot carry are InvalidInput; non-strings too", async () => {
      const queue = await target().freshQueue();
      for (const text of [
        "nul\u0000",
        "bell\u0007",
        "\u000b",
        "\u001f",
        "\ufffe",
        "\uffff",
        "lone \ud800",
        "lone \udc00 low",
      ]) {
        await expectCode(queue.sendMessage(text), "InvalidInput");
      }
      for (const text of [undefined, null, 42, { text: "x" }]) {
        await expectCode(queue.sendMessage(text as unknown as string), "InvalidInput");
      }
      await expectNoMessages(queue);
    });

    it("numberOfMessages is 1..maxMessagesPerReceive for receive and peek", async () => {
      const queue = await target().freshQueue();
      const max = target().capabilities.limits.maxMessagesPerReceive;
      for (let i = 0; i < max + 2; i++) await queue.sendMessage(`n${i}`);
      expect((await queue.peekMessages({ numberOfMessages: max })).peekedMessageItems).toHaveLength(max);
      for (const n of [0, -1, max + 1]) {
        await expectCode(queue.receiveMessages({ numberOfMessages: n }), "OutOfRangeQueryParameterValue");
        await expectCode(queue.peekMessages({ numberOfMessages: n }), "OutOfRangeQueryParameterValue");
      }
      for (const n of [1.5, Number.NaN, "2"]) {
        await expectCode(
          queue.receiveMessages({ numberOfMessages: n as number }),
          "InvalidQueryParameterValue",
        );
        await expectCode(queue.peekMessages({ numberOfMessages: n as number }), "InvalidQueryParameterValue");
      }
      // Nothing was taken by the refused calls.
      expect(
        (await queue.peekMessages({ numberOfMessages: max })).peekedMessageItems.every(
          (m) => m.dequeueCount === 0,
        ),
      ).toBe(true);
      expect((await queue.receiveMessages({ numberOfMessages: max })).receivedMessageItems).toHaveLength(max);
    });

    it("visibility timeouts: send and update 0..7 days, receive 1 s..7 days", async () => {
      const queue = await target().freshQueue();
      const max = target().capabilities.limits.maxVisibilityTimeoutSeconds;
      await expectCode(queue.sendMessage("x", { visibilityTimeout: -1 }), "OutOfRangeQueryParameterValue");
      await expectCode(
        queue.sendMessage("x", { visibilityTimeout: max + 1, messageTimeToLive: -1 }),
        "OutOfRangeQueryParameterValue",
      );
      await expectCode(queue.sendMessage("x", { visibilityTimeout: 0.5 }), "InvalidQueryParameterValue");
      await expectCode(queue.receiveMessages({ visibilityTimeout: 0 }), "OutOfRangeQueryParameterValue");
      await expectCode(
        queue.receiveMessages({ visibilityTimeout: max + 1 }),
        "OutOfRangeQueryParameterValue",
      );
      await expectNoMessages(queue);
      await queue.sendMessage("x", { visibilityTimeout: max, messageTimeToLive: -1 });
      await queue.sendMessage("y");
      const got = (await queue.receiveMessages({ visibilityTimeout: max })).receivedMessageItems[0]!;
      expect(got.messageText).toBe("y");
      await expectCode(
        queue.updateMessage(got.messageId, got.popReceipt, undefined, -1),
        "OutOfRangeQueryParameterValue",
      );
      await expectCode(
        queue.updateMessage(got.messageId, got.popReceipt, undefined, max + 1),
        "OutOfRangeQueryParameterValue",
      );
      const updated = await queue.updateMessage(got.messageId, got.popReceipt, undefined, max);
      expect(updated.nextVisibleOn.getTime()).toBeGreaterThan(Date.now() + (max - 60) * 1000);
    });

    it("time-to-live: 1 s..limit or -1; the visibility timeout must be less than it", async () => {
      const queue = await target().freshQueue();
      const { maxTimeToLiveSeconds } = target().capabilities.limits;
      for (const ttl of [0, -2, maxTimeToLiveSeconds + 1]) {
        await expectCode(queue.sendMessage("x", { messageTimeToLive: ttl }), "OutOfRangeQueryParameterValue");
      }
      await expectCode(queue.sendMessage("x", { messageTimeToLive: 1.5 }), "InvalidQueryParameterValue");
      await expectCode(
        queue.sendMessage("x", { visibilityTimeout: 10, messageTimeToLive: 10 }),
        "InvalidQueryParameterValue",
      );
      await expectCode(
        queue.sendMessage("x", { visibilityTimeout: 11, messageTimeToLive: 10 }),
        "InvalidQueryParameterValue",
      );
      await expectNoMessages(queue);
      await queue.sendMessage("one second", { messageTimeToLive: 1 });
      await queue.sendMessage("just under", { visibilityTimeout: 9, messageTimeToLive: 10 });
      const sent = await queue.sendMessage("longest", { messageTimeToLive: maxTimeToLiveSeconds });
      expect(sent.expiresOn.getTime()).toBeGreaterThan(Date.now() + 60 * 365 * 24 * 3600 * 1000);
    });

    it("queue names: 3..63 lowercase letters, digits, single hyphens; others are InvalidResourceName everywhere", async () => {
      const { store } = target();
      const bad = [
        "ab",
        `q${"a".repeat(63)}`,
        "Upper",
        "has_underscore",
        "-start",
        "end-",
        "dou--ble",
        "sp ace",
        "",
        "é-queue",
      ];
      for (const name of bad) {
        const queue: Queue = store.queue(name);
        await expectCode(store.createQueue(name), "InvalidResourceName");
        await expectCode(queue.createIfNotExists(), "InvalidResourceName");
        await expectCode(queue.sendMessage("x"), "InvalidResourceName");
        await expectCode(queue.receiveMessages(), "InvalidResourceName");
        await expectCode(queue.getProperties(), "InvalidResourceName");
        await expectCode(store.deleteQueue(name), "InvalidResourceName");
      }
      const names: string[] = [];
      for await (const q of store.listQueues()) names.push(q.name);
      for (const name of bad) expect(names).not.toContain(name);
      for (const length of [3, 63]) {
        const name = target().freshQueueName(length);
        const queue = await store.createQueue(name);
        await queue.sendMessage("ok");
        expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
        await queue.delete();
      }
      const hyphens = `${target().freshQueueName(10)}-a-1`;
      await store.createQueue(hyphens);
      await store.deleteQueue(hyphens);
    });
  });
}
