import type { FilterNode } from "../../filter/index.js";
import type { EntityKeys } from "../../model/index.js";
import type { EntityKeyRange } from "./sas-token.js";

/** A table token's key range: membership of an entity's keys, and the range as a `$filter` tree. */

type Compare = (a: string, b: string) => number;

/**
 * True when (PartitionKey, RowKey) lies in the inclusive range, compared as a pair in key order: a
 * missing RowKey bound leaves the bounding partition open at that end.
 */
export function inKeyRange(range: EntityKeyRange, keys: EntityKeys, compare: Compare): boolean {
  const { startPartitionKey: spk, startRowKey: srk, endPartitionKey: epk, endRowKey: erk } = range;
  if (spk !== undefined) {
    const c = compare(keys.partitionKey, spk);
    if (c < 0 || (c === 0 && srk !== undefined && compare(keys.rowKey, srk) < 0)) return false;
  }
  if (epk !== undefined) {
    const c = compare(keys.partitionKey, epk);
    if (c > 0 || (c === 0 && erk !== undefined && compare(keys.rowKey, erk) > 0)) return false;
  }
  return true;
}

function str(property: string, op: "eq" | "gt" | "ge" | "lt" | "le", value: string): FilterNode {
  return { kind: "compare", op, property, value: { type: "String", value }, position: -1 };
}

/** The key range as a `$filter` tree, so every backend's query planner narrows to it. */
export function keyRangeFilter(range: EntityKeyRange): FilterNode | undefined {
  const { startPartitionKey: spk, startRowKey: srk, endPartitionKey: epk, endRowKey: erk } = range;
  const parts: FilterNode[] = [];
  if (spk !== undefined) {
    parts.push(
      srk === undefined
        ? str("PartitionKey", "ge", spk)
        : {
            kind: "or",
            left: str("PartitionKey", "gt", spk),
            right: { kind: "and", left: str("PartitionKey", "eq", spk), right: str("RowKey", "ge", srk) },
          },
    );
  }
  if (epk !== undefined) {
    parts.push(
      erk === undefined
        ? str("PartitionKey", "le", epk)
        : {
            kind: "or",
            left: str("PartitionKey", "lt", epk),
            right: { kind: "and", left: str("PartitionKey", "eq", epk), right: str("RowKey", "le", erk) },
          },
    );
  }
  if (parts.length === 0) return undefined;
  return parts.reduce((left, right) => ({ kind: "and", left, right }));
}
