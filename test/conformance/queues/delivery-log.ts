import { expect } from "vitest";
import { isTableKitError, type Queue } from "../../../src/index.js";

/** One receive of one message, as a consumer saw it (client clock, ms). */
export interface ReceiveEvent {
  readonly messageId: string;
  readonly consumer: number;
  readonly requestedAt: number;
  readonly respondedAt: number;
  readonly nextVisibleOn: number;
  readonly dequeueCount: number;
  readonly popReceipt: string;
}

/** One successful delete. */
export interface DeleteEvent {
  readonly messageId: string;
  readonly consumer: number;
  readonly popReceipt: string;
  readonly requestedAt: number;
  readonly respondedAt: number;
}

/**
 * Asserts what at-least-once delivery with visibility leases promises, from the consumers' logs:
 * every sent message deleted exactly once; dequeue counts 1, 2, 3, … per message; no receive inside
 * another consumer's lease (reported lease ends are never later than real ones); and a successful
 * delete proves nobody received the message between its receive and the delete, nor after.
 * Returns how many messages were delivered more than once.
 */
export function expectExclusiveDelivery(
  sentIds: readonly string[],
  receives: readonly ReceiveEvent[],
  deletes: readonly DeleteEvent[],
): number {
  const deletedBy = new Map<string, DeleteEvent[]>();
  for (const d of deletes) deletedBy.set(d.messageId, [...(deletedBy.get(d.messageId) ?? []), d]);
  expect([...deletedBy.keys()].sort()).toEqual([...sentIds].sort());
  for (const [id, list] of deletedBy) expect(list, id).toHaveLength(1);

  const byMessage = new Map<string, ReceiveEvent[]>();
  for (const r of receives) byMessage.set(r.messageId, [...(byMessage.get(r.messageId) ?? []), r]);
  let redelivered = 0;
  for (const [id, events] of byMessage) {
    const ordered = [...events].sort((a, b) => a.dequeueCount - b.dequeueCount);
    if (ordered.length > 1) redelivered++;
    expect(
      ordered.map((e) => e.dequeueCount),
      id,
    ).toEqual(ordered.map((_, i) => i + 1));
    for (let i = 1; i < ordered.length; i++) {
      expect(ordered[i]!.respondedAt, `${id} received again inside a lease`).toBeGreaterThanOrEqual(
        ordered[i - 1]!.nextVisibleOn,
      );
    }
    const done = deletedBy.get(id)![0]!;
    const own = ordered.find((e) => e.popReceipt === done.popReceipt);
    expect(own, `${id}: deleted with a receipt no receive returned`).toBeDefined();
    for (const e of ordered) {
      if (e === own) continue;
      const inside = e.requestedAt > own!.respondedAt && e.respondedAt < done.requestedAt;
      expect(inside, `${id}: received by ${e.consumer} while ${own!.consumer} held it`).toBe(false);
      expect(e.requestedAt > done.respondedAt, `${id}: received after its delete`).toBe(false);
    }
  }
  return redelivered;
}

/** A small deterministic PRNG, so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/** What `consume` needs: who it is, how it receives, how often it "crashes", when to stop, where to log. */
export interface ConsumerRun {
  readonly consumer: number;
  readonly batch: number;
  readonly visibilityTimeout: number;
  /** Share of messages received and never deleted, as a crashed consumer leaves them. */
  readonly crashRate: number;
  readonly stop: () => boolean;
  readonly receives: ReceiveEvent[];
  readonly deletes: DeleteEvent[];
}

/**
 * One consumer: receives batches and deletes each message, logging every receive and successful
 * delete, until `stop()`. A stale receipt (its lease ran out and someone else took the message) is
 * at-least-once delivery, not a failure. Returns how many messages it "crashed" on.
 */
export async function consume(queue: Queue, run: ConsumerRun): Promise<number> {
  const chance = seededRandom(run.consumer + 1);
  let crashes = 0;
  while (!run.stop()) {
    const requestedAt = Date.now();
    const { receivedMessageItems } = await queue.receiveMessages({
      numberOfMessages: run.batch,
      visibilityTimeout: run.visibilityTimeout,
    });
    const respondedAt = Date.now();
    if (receivedMessageItems.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    for (const m of receivedMessageItems) {
      const { messageId, popReceipt, dequeueCount } = m;
      run.receives.push({
        messageId,
        consumer: run.consumer,
        requestedAt,
        respondedAt,
        nextVisibleOn: m.nextVisibleOn.getTime(),
        dequeueCount,
        popReceipt,
      });
    }
    for (const { messageId, popReceipt } of receivedMessageItems) {
      if (chance() < run.crashRate) {
        crashes++;
        continue;
      }
      const start = Date.now();
      try {
        await queue.deleteMessage(messageId, popReceipt);
      } catch (err) {
        if (!isTableKitError(err, "PopReceiptMismatch", "MessageNotFound")) throw err;
        continue;
      }
      run.deletes.push({
        messageId,
        consumer: run.consumer,
        popReceipt,
        requestedAt: start,
        respondedAt: Date.now(),
      });
    }
  }
  return crashes;
}
