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
export async function withLockWait<T>(call: CallOptions, work: () => T): Promise<T> {
  let deadline: number | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (err) {
      if (!isBusy(err)) throw toTableKitError(err);
      deadline ??= performance.now() + BUSY_TIMEOUT_MS;
      if (performance.now() >= deadline) throw toTableKitError(err);
    }
    await sleep(Math.min(MAX_BUSY_PAUSE_MS, 2 ** attempt), call.abortSignal);
  }
}
