import { describe, expect, it } from "vitest";
import { isTableKitError } from "../../../src/index.js";
import { type QueueTargetRef, sleep } from "./helpers.js";

const CONSUMERS = 8;
const VISIBILITY_SECONDS = 2;
const CRASH_RATE = 0.05;

interface ReceiveEvent {
  readonly consumer: number;
  readonly requestedAt: number;
  readonly respondedAt: number;
  readonly nextVisibleOn: number;
  readonly dequeueCount: number;
  readonly popReceipt: string;
}

interface DeleteEvent {
  readonly consumer: number;
  readonly popReceipt: string;
  readonly requestedAt: number;
  readonly respondedAt: number;
}

/** A small deterministic PRNG, so a failing run can be replayed. */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/**
 * 8 consumers drain a queue; about 5% of the time a consumer "crashes" (never deletes what it
 * received). Every message must be processed exactly once in the end, none lost, and no message
 * may be held by two consumers at once: a receive never lands inside another consumer's lease,
 * and a successful delete proves nobody received the message between its receive and the delete.
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

      const receives = new Map<string, ReceiveEvent[]>();
      const deletes = new Map<string, DeleteEvent[]>();
      let processed = 0;
      let crashes = 0;
      const deadline = Date.now() + 240_000;
      const consume = async (consumer: number) => {
        const chance = random(consumer + 1);
        while (processed < total && Date.now() < deadline) {
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
            const events = receives.get(m.messageId) ?? [];
            events.push({
              consumer,
              requestedAt,
              respondedAt,
              nextVisibleOn: m.nextVisibleOn.getTime(),
              dequeueCount: m.dequeueCount,
              popReceipt: m.popReceipt,
            });
            receives.set(m.messageId, events);
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
            const list = deletes.get(m.messageId) ?? [];
            list.push({ consumer, popReceipt: m.popReceipt, requestedAt: start, respondedAt: Date.now() });
            deletes.set(m.messageId, list);
            processed++;
          }
        }
      };
      await Promise.all(Array.from({ length: CONSUMERS }, (_, c) => consume(c)));

      // Every message processed exactly once, none lost, nothing left.
      expect(processed).toBe(total);
      expect([...deletes.keys()].sort()).toEqual([...sentIds].sort());
      for (const [id, list] of deletes) expect(list, id).toHaveLength(1);
      expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
      expect((await queue.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toEqual([]);
      // Consumers did crash, and crashed messages came back with a raised dequeue count.
      expect(crashes).toBeGreaterThan(0);
      expect([...receives.values()].some((events) => events.length > 1)).toBe(true);

      for (const [id, events] of receives) {
        const ordered = [...events].sort((a, b) => a.dequeueCount - b.dequeueCount);
        // Dequeue counts run 1, 2, 3, … with no gap and no repeat.
        expect(
          ordered.map((e) => e.dequeueCount),
          id,
        ).toEqual(ordered.map((_, i) => i + 1));
        // A receive never lands inside the previous lease (reported times are never later than real ones).
        for (let i = 1; i < ordered.length; i++) {
          expect(ordered[i]!.respondedAt, `${id} received again inside a lease`).toBeGreaterThanOrEqual(
            ordered[i - 1]!.nextVisibleOn,
          );
        }
        // The successful delete's receive was the latest: no other receive happened between it and the delete.
        const done = deletes.get(id)![0]!;
        const own = ordered.find((e) => e.popReceipt === done.popReceipt);
        expect(own, `${id}: deleted with a receipt no receive returned`).toBeDefined();
        for (const e of ordered) {
          if (e === own) continue;
          const inside = e.requestedAt > own!.respondedAt && e.respondedAt < done.requestedAt;
          expect(inside, `${id}: received by ${e.consumer} while ${own!.consumer} held it`).toBe(false);
          expect(e.requestedAt > done.respondedAt, `${id}: received after its delete`).toBe(false);
        }
      }
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
