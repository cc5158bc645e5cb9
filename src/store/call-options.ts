import { TableKitError } from "../model/index.js";
import type { CallOptions } from "./backend.js";

/** Options every public call accepts. */
export interface OperationOptions {
  abortSignal?: AbortSignal;
}

const NO_SIGNAL: CallOptions = Object.freeze({});

/** Throws `Aborted` when the caller's signal has already fired; returns the backend's options. */
export function callOptions(options: OperationOptions | undefined): CallOptions {
  const signal = options?.abortSignal;
  if (signal?.aborted) {
    throw new TableKitError("Aborted", "The operation was aborted", { cause: signal.reason });
  }
  return signal ? { abortSignal: signal } : NO_SIGNAL;
}

/** `*` or a quoted ETag (`"…"` or `W/"…"`); anything else is InvalidInput, as the service answers. */
export function validateEtag(etag: unknown): string {
  if (etag === "*" || (typeof etag === "string" && /^(W\/)?"[^"]*"$/.test(etag))) return etag;
  throw new TableKitError("InvalidInput", `The ETag ${JSON.stringify(etag)} is malformed`, {
    details: { etag },
  });
}
