import { expect } from "vitest";
import type { Queue, ReceivedMessageItem } from "../../../src/index.js";
import type { QueueTarget } from "./factory.js";

export { collect, expectCode } from "../helpers.js";

/** What a suite receives: the target, available once the backend is open (inside tests only). */
export type QueueTargetRef = () => QueueTarget;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until a time the backend reported has surely passed: Azure reports whole seconds, so its
 * times may be up to `timeResolutionMs` earlier than the instant it acts on; plus `marginMs`.
 */
export async function sleepPast(target: QueueTarget, date: Date, marginMs = 150): Promise<void> {
  const wait = date.getTime() + target.capabilities.timeResolutionMs + marginMs - Date.now();
  if (wait > 0) await sleep(wait);
}

/** Receives one message, failing the test when none comes. */
export async function receiveOne(queue: Queue, visibilityTimeout = 30): Promise<ReceivedMessageItem> {
  const { receivedMessageItems } = await queue.receiveMessages({ visibilityTimeout });
  expect(receivedMessageItems).toHaveLength(1);
  return receivedMessageItems[0]!;
}

/** Every message text currently visible, by receiving in batches with a long timeout (consumes them). */
export async function drainTexts(queue: Queue): Promise<string[]> {
  const texts: string[] = [];
  for (;;) {
    const { receivedMessageItems } = await queue.receiveMessages({
      numberOfMessages: 32,
      visibilityTimeout: 300,
    });
    if (receivedMessageItems.length === 0) return texts;
    texts.push(...receivedMessageItems.map((m) => m.messageText));
  }
}

/** Asserts the queue holds no message (nothing visible, nothing counted). */
export async function expectNoMessages(queue: Queue): Promise<void> {
  expect((await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems).toEqual([]);
  expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
}
