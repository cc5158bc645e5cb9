import { describe, expect, it } from "vitest";
import { consume, type DeleteEvent, expectExclusiveDelivery, type ReceiveEvent } from "./delivery-log.js";
import type { QueueTargetRef } from "./helpers.js";

const CONSUMERS = 8;
const VISIBILITY_SECONDS = 2;
const CRASH_RATE = 0.05;

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
      const deadline = Date.now() + 240_000;
      const stop = () => deletes.length >= total || Date.now() > deadline;
      const crashes = await Promise.all(
        Array.from({ length: CONSUMERS }, (_, consumer) =>
          consume(queue, {
            consumer,
            batch: 16,
            visibilityTimeout: VISIBILITY_SECONDS,
            crashRate: CRASH_RATE,
            stop,
            receives,
            deletes,
          }),
        ),
      );

      expect(deletes).toHaveLength(total);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
      expect((await queue.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toEqual([]);
      const redelivered = expectExclusiveDelivery(sentIds, receives, deletes);
      // Consumers did crash, and crashed messages came back with a raised dequeue count.
      expect(crashes.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(redelivered).toBeGreaterThan(0);
    }, 300_000);
  });
}

/** Runs `work(0..count-1)` with at most `width` calls in flight. */
async function inParallel(count: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}
