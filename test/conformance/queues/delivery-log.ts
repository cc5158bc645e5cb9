import { expect } from "vitest";

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
