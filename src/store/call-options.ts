import { TableKitError, throwIfAborted } from "../model/index.js";

/** Passed to every backend call: the caller's signal, already checked once by the core. */
export interface CallOptions {
  readonly abortSignal?: AbortSignal;
}

/** Options every public call accepts. */
export interface OperationOptions {
  abortSignal?: AbortSignal;
}

/** What a handle knows of its store: whether it has been closed. */
export interface StoreLifecycle {
  readonly closed: boolean;
}

const NO_SIGNAL: CallOptions = Object.freeze({});

/** InvalidInput when the store has been closed. */
export function assertOpen(lifecycle: StoreLifecycle): void {
  if (lifecycle.closed) throw new TableKitError("InvalidInput", "The store is closed");
}

/**
 * The checks every call makes before any I/O, once, in the core: a closed store is InvalidInput,
 * an already-fired signal is Aborted. Returns what the backend is handed.
 */
export function callOptions(lifecycle: StoreLifecycle, options: OperationOptions | undefined): CallOptions {
  assertOpen(lifecycle);
  const signal = options?.abortSignal;
  throwIfAborted(signal);
  return signal ? { abortSignal: signal } : NO_SIGNAL;
}
