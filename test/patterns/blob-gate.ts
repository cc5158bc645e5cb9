import type { Capabilities } from "../../src/index.js";
import { itWhen, type PatternsRef, type PatternsTarget } from "./target.js";

/**
 * A test of a pattern that stands on the blob port: it runs where the store has a blob backend
 * (and `also` holds), and is reported as skipped elsewhere (e.g. a table-only server).
 */
export function itWithBlobs(
  target: PatternsRef,
  name: string,
  fn: () => Promise<void>,
  options: {
    timeout?: number;
    also?: { holds: (c: Capabilities, t: PatternsTarget) => boolean; reason: string };
  } = {},
): void {
  const { also, timeout } = options;
  itWhen(
    target,
    (c, t) => t.store.blobCapabilities !== undefined && (also?.holds(c, t) ?? true),
    also ? `the store has no blob backend, or ${also.reason}` : "the store has no blob backend",
    name,
    fn,
    timeout,
  );
}

/** The multi-process tests' condition: another process can open the same store. */
export const SHARED = {
  holds: (c: Capabilities, t: PatternsTarget) => c.multiProcess && t.sharedUrl !== undefined,
  reason: "the store cannot be shared between processes",
};
