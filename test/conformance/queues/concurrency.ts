import { describe, expect, it } from "vitest";
import { isTableKitError } from "../../../src/index.js";
import { type DeleteEvent, expectExclusiveDelivery, type ReceiveEvent } from "./delivery-log.js";
import { type QueueTargetRef, sleep } from "./helpers.js";

const CONSUMERS = 8;
const VISIBILITY_SECONDS = 2;
const CRASH_RATE = 0.05;

/** A small deterministic PRNG, so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/**
 * 8 consumers drain a queue; about 5% of the time a consumer "crashes" (never deletes what it
 * received). Every message must be processed exactly once in the end, none lost, and no message
 * may be held by two consumers at once (delivery-log.ts).
 */
export function concurrencySuite(target: QueueTargetRef): void {
  describe("concurrency", () => {
    it(`${CONSUMERS} consumers, crashes included: every message processed once, none lost, none held twice`, async () => {
      const queue = await target().freshQueue();
      const total = target().concurrencyMessages;
      const sentIds: string[] = [];
      await inParallel(total, 16, async (i) => {
        sentIds.push((await queue.sendMessage(`job ${i}`)).messageId);
      });
      expect(new Set(sentIds).size).toBe(total);

      const receives: ReceiveEvent[] = [];
      const deletes: DeleteEvent[] = [];
      let crashes = 0;
      const deadline = Date.now() + 240_000;
      const consume = async (consumer: number) => {
        const chance = seededRandom(consumer + 1);
        while (deletes.length < total && Date.now() < deadline) {
          const requestedAt = Date.now();
          const { receivedMessageItems } = await queue.receiveMessages({
            numberOfMessages: 16,
            visibilityTimeout: VISIBILITY_SECONDS,
          });
          const respondedAt = Date.now();
          if (receivedMessageItems.length === 0) {
            await sleep(100);
            continue;
          }
          for (const m of receivedMessageItems) {
            receives.push({
              messageId: m.messageId,
              consumer,
              requestedAt,
              respondedAt,
              nextVisibleOn: m.nextVisibleOn.getTime(),
              dequeueCount: m.dequeueCount,
              popReceipt: m.popReceipt,
            });
          }
          for (const m of receivedMessageItems) {
            if (chance() < CRASH_RATE) {
              crashes++;
              continue;
            }
            const start = Date.now();
            try {
              await queue.deleteMessage(m.messageId, m.popReceipt);
            } catch (err) {
              // The lease ran out before the delete and someone else took it: at-least-once, not a loss.
              if (!isTableKitError(err, "PopReceiptMismatch", "MessageNotFound")) throw err;
              continue;
            }
            deletes.push({
              messageId: m.messageId,
              consumer,
              popReceipt: m.popReceipt,
              requestedAt: start,
              respondedAt: Date.now(),
            });
          }
        }
      };
      await Promise.all(Array.from({ length: CONSUMERS }, (_, c) => consume(c)));

      expect(deletes).toHaveLength(total);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
      expect((await queue.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toEqual([]);
      const redelivered = expectExclusiveDelivery(sentIds, receives, deletes);
      // Consumers did crash, and crashed messages came back with a raised dequeue count.
      expect(crashes).toBeGreaterThan(0);
      expect(redelivered).toBeGreaterThan(0);
    }, 300_000);
  });
}

/** Runs `work(0..count-1)` with at most `width` calls in flight. */
export async function inParallel(
  count: number,
  width: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}
