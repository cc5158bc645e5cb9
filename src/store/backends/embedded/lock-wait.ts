import { sleep } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import { BUSY_TIMEOUT_MS } from "./connection.js";
import { isBusy, toTableKitError } from "./errors.js";

/** The longest pause between two attempts to take a lock another connection holds. */
const MAX_BUSY_PAUSE_MS = 25;

/**
 * Runs `work` (synchronous: one statement or one transaction). When another connection holds the
 * lock it needs, nothing was done: wait, abortably, and run it again, up to BUSY_TIMEOUT_MS, then
 * ServerBusy. SQLite's own busy handler would block the event loop; this wait does not.
 */
export function withLockWait<T>(call: CallOptions, work: () => T): Promise<T> {
  // Nearly every call takes its lock at once: that path makes one settled promise and no more.
  try {
    return Promise.resolve(work());
  } catch (err) {
    if (!isBusy(err)) return Promise.reject(toTableKitError(err));
    return waitForLock(call, work, err);
  }
}

async function waitForLock<T>(call: CallOptions, work: () => T, busy: unknown): Promise<T> {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  let err = busy;
  for (let attempt = 0; performance.now() < deadline; attempt++) {
    await sleep(Math.min(MAX_BUSY_PAUSE_MS, 2 ** attempt), call.abortSignal);
    try {
      return work();
    } catch (next) {
      if (!isBusy(next)) throw toTableKitError(next);
      err = next;
    }
  }
  throw toTableKitError(err);
}
