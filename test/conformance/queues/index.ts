import { afterAll, beforeAll, describe } from "vitest";
import { abortAndClosedSuite } from "./abort-and-closed.js";
import { concurrencySuite } from "./concurrency.js";
import { deletedNamesSuite } from "./deleted-names.js";
import type { QueueSetup, QueueTarget } from "./factory.js";
import { limitsSuite } from "./limits.js";
import { messagesSuite } from "./messages.js";
import { popReceiptsSuite } from "./pop-receipts.js";
import { queueStateSuite } from "./queue-state.js";
import { queuesSuite } from "./queues.js";
import { timeToLiveSuite } from "./time-to-live.js";
import { visibilitySuite } from "./visibility.js";

export type { QueueSetup, QueueTarget, QueueTargetOptions } from "./factory.js";
export { queueTargetFromStore, queueTargetOnServer } from "./factory.js";

/** Every queue feature suite, in the order they are registered. */
export const QUEUE_SUITES = [
  messagesSuite,
  visibilitySuite,
  popReceiptsSuite,
  timeToLiveSuite,
  limitsSuite,
  queuesSuite,
  queueStateSuite,
  deletedNamesSuite,
  abortAndClosedSuite,
  concurrencySuite,
] as const;

/** Registers the whole queue conformance suite for one backend. Call from a `*.test.ts` file. */
export function runQueueConformance(setup: QueueSetup): void {
  describe(`queue conformance: ${setup.name}`, () => {
    let target: QueueTarget | undefined;
    beforeAll(async () => {
      target = await setup.open();
    });
    afterAll(async () => {
      await target?.dispose();
    });
    const ref = (): QueueTarget => {
      if (!target) throw new Error(`the queue conformance target ${setup.name} did not open`);
      return target;
    };
    for (const suite of QUEUE_SUITES) suite(ref);
  });
}
