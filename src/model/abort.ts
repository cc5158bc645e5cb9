import { TableKitError } from "./errors.js";

/**
 * Abort, built in one place: the core checks a caller's signal once before a backend call; a
 * backend hands the signal on to whatever it waits on and reports an abort there with `aborted`.
 */

/** The `Aborted` error; `cause` is the signal's reason or the error the waiting call threw. */
export function abortedError(cause?: unknown): TableKitError {
  return new TableKitError("Aborted", "The operation was aborted", { cause });
}

/** Throws `Aborted` (the signal's reason as cause) when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal.reason);
}

/** Waits `ms`, rejecting with `Aborted` as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortedError(signal.reason));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
