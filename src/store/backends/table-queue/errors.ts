import { isTableKitError, TableKitError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";

export function queueNotFound(name: string, cause?: unknown): TableKitError {
  return new TableKitError("QueueNotFound", "The specified queue does not exist.", {
    details: { queueName: name },
    ...(cause === undefined ? {} : { cause }),
  });
}

export function messageNotFound(messageId: string): TableKitError {
  return new TableKitError("MessageNotFound", "The specified message does not exist.", {
    details: { messageId },
  });
}

export function popReceiptMismatch(messageId: string): TableKitError {
  return new TableKitError(
    "PopReceiptMismatch",
    "The specified pop receipt did not match the pop receipt for a dequeued message.",
    { details: { messageId } },
  );
}

/** True when a conditional write lost: the entity changed (412) or is gone (404) — another consumer won. */
export function lostRace(err: unknown): boolean {
  return isTableKitError(err, "UpdateConditionNotSatisfied", "ResourceNotFound", "EntityAlreadyExists");
}

const TRANSIENT = ["ServerBusy", "OperationTimedOut"] as const;
const ATTEMPTS = 5;

/**
 * Runs an all-or-nothing table write, again after a transient failure (throttling, a lock held too
 * long): a failed transaction wrote nothing, so repeating it is safe.
 */
export async function retryTransient<T>(call: CallOptions, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= ATTEMPTS || !isTableKitError(err, ...TRANSIENT) || call.abortSignal?.aborted) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));
    }
  }
}
