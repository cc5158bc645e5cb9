import { TableKitError } from "../../../model/index.js";
import type { UpdateMode } from "../../../store/index.js";

/** The keys of a record a pattern stores over several entities or blobs; InvalidInput without them. */
export function recordKeys(record: unknown, what: string): { partitionKey: string; rowKey: string } {
  const r = record as { partitionKey?: unknown; rowKey?: unknown } | null;
  if (typeof r?.partitionKey !== "string" || typeof r.rowKey !== "string") {
    throw new TableKitError("InvalidInput", `A ${what} record needs a string partitionKey and rowKey`);
  }
  return { partitionKey: r.partitionKey, rowKey: r.rowKey };
}

/** UpdateConditionNotSatisfied unless `wanted` is `*` or the record's current ETag. */
export function checkRecordEtag(current: string, wanted: string): void {
  if (wanted !== "*" && current !== wanted) {
    throw new TableKitError(
      "UpdateConditionNotSatisfied",
      "The record was changed since it was read (ETag mismatch)",
    );
  }
}

/** The Table service's 404 for a record that does not exist. */
export function recordNotFound(partitionKey: string, rowKey: string): TableKitError {
  return new TableKitError("ResourceNotFound", "The specified resource does not exist.", {
    details: { partitionKey, rowKey },
  });
}

/** The update modes a record pattern takes; InvalidInput for anything else. */
export function checkUpdateMode(mode: UpdateMode): void {
  if (mode !== "Merge" && mode !== "Replace") {
    throw new TableKitError("InvalidInput", `Update mode must be "Merge" or "Replace"`);
  }
}
