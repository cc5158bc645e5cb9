import type { Capabilities } from "../../src/index.js";
import type { PatternsTarget } from "./target.js";

/** For `itWhen`: the target's store has a queue port (every world has one; a store opened with queues: "none" has not). */
export function withQueue(_capabilities: Capabilities, target: PatternsTarget): boolean {
  return target.store.queueCapabilities !== undefined;
}

/** Why a test that needs the transaction queue is skipped. */
export const NO_QUEUE = "the store has no queue port: the transaction queue cannot run";
