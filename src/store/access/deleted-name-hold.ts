import { TableKitError } from "../../model/index.js";
import type { CallOptions } from "../call-options.js";
import type { StateBackend } from "./state-backend.js";

/**
 * The deleted-name hold: Azure answers 409 QueueBeingDeleted / ContainerBeingDeleted to a create
 * of a name deleted about 30 seconds before. A store opened with `deletedNameHold: N` does the
 * same for N seconds (0, the library's default, never), where its backend keeps deletion times
 * (capabilities.deletedNameHold); `tablekit serve` opens its stores with 30.
 */
export const MAX_DELETED_NAME_HOLD_SECONDS = 3600;

/** The option checked: a whole number of seconds from 0 to 3600 (InvalidInput otherwise). */
export function checkDeletedNameHold(value: unknown): number {
  if (value === undefined) return 0;
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > MAX_DELETED_NAME_HOLD_SECONDS
  ) {
    throw new TableKitError(
      "InvalidInput",
      `deletedNameHold must be a whole number of seconds from 0 to ${MAX_DELETED_NAME_HOLD_SECONDS}, got ${String(value)}`,
      { details: { option: "deletedNameHold" } },
    );
  }
  return value;
}

/** Throws `code` (409) when `name` was deleted less than `holdSeconds` ago; one state read, none when 0. */
export async function refuseHeldName(
  state: StateBackend | undefined,
  name: string,
  holdSeconds: number,
  code: "QueueBeingDeleted" | "ContainerBeingDeleted",
  call: CallOptions,
): Promise<void> {
  if (holdSeconds <= 0 || !state?.deletedOn) return;
  const deleted = await state.deletedOn(name, call);
  if (deleted === undefined) return;
  const heldUntil = deleted.getTime() + holdSeconds * 1000;
  if (Date.now() < heldUntil) {
    const what = code === "QueueBeingDeleted" ? "queue" : "container";
    throw new TableKitError(code, `The specified ${what} is being deleted.`, {
      details: { name, retryAfter: new Date(heldUntil).toISOString() },
    });
  }
}
