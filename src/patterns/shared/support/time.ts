import type { TimeInput } from "../../../keys/index.js";
import { DateTime, TableKitError } from "../../../model/index.js";

/** Milliseconds since the Unix epoch of a `DateTime` or a valid `Date`; anything else is InvalidInput. */
export function epochMsOf(at: TimeInput): number {
  if (at instanceof DateTime) return at.epochMilliseconds;
  if (at instanceof Date && !Number.isNaN(at.getTime())) return at.getTime();
  throw new TableKitError("InvalidInput", "Expected a DateTime or a valid Date");
}
