import { odata } from "../../filter/index.js";
import { compareUtf8, compareUtf16, TableKitError } from "../../model/index.js";
import type { Table } from "../../store/index.js";
import type { QueryPart } from "./parallel-query.js";

/** `keyFilter and (filter)`, or whichever is present. */
export function andFilters<K extends string | undefined>(
  keyFilter: K,
  filter: string | undefined,
): K | string {
  if (filter === undefined || filter.trim() === "") return keyFilter;
  return keyFilter === undefined ? filter : `${keyFilter} and (${filter})`;
}

/**
 * One part per partition: `PartitionKey eq '<pk>'`, and `filter` (on RowKey or any property) in
 * each. Named by the PartitionKey.
 *
 * @example partitionParts(table, ["Sales", "Marketing"], "RowKey ge 'empid_'")
 */
export function partitionParts(table: Table, partitionKeys: readonly string[], filter?: string): QueryPart[] {
  if (!Array.isArray(partitionKeys) || partitionKeys.some((pk) => typeof pk !== "string")) {
    throw new TableKitError("InvalidInput", "partitionKeys must be an array of strings");
  }
  return [...new Set(partitionKeys)].map((pk) => ({
    name: pk,
    table,
    filter: andFilters(odata`PartitionKey eq ${pk}`, filter),
  }));
}

/**
 * A whole table (or `filter` over it) cut into key ranges at PartitionKey `boundaries`: n
 * boundaries make n + 1 parts, `[start, b1)`, `[b1, b2)`, …, `[bn, end)`, so a full scan runs in
 * parallel. Boundaries must be strictly increasing by UTF-16 code units and by UTF-8 bytes alike
 * (so the ranges are disjoint on every backend). Named `range0`, `range1`, ….
 */
export function keyRangeParts(table: Table, boundaries: readonly string[], filter?: string): QueryPart[] {
  if (!Array.isArray(boundaries) || boundaries.some((b) => typeof b !== "string")) {
    throw new TableKitError("InvalidInput", "boundaries must be an array of strings");
  }
  for (let i = 1; i < boundaries.length; i++) {
    const [a, b] = [boundaries[i - 1]!, boundaries[i]!];
    if (compareUtf16(a, b) >= 0 || compareUtf8(a, b) >= 0) {
      throw new TableKitError("InvalidInput", `boundaries must be strictly increasing: ${a} then ${b}`);
    }
  }
  const edges = [undefined, ...boundaries, undefined];
  return edges.slice(0, -1).map((lower, i) => {
    const upper = edges[i + 1];
    const bounds = [
      lower === undefined ? undefined : odata`PartitionKey ge ${lower}`,
      upper === undefined ? undefined : odata`PartitionKey lt ${upper}`,
    ].filter((b) => b !== undefined);
    const keyFilter = bounds.length === 0 ? undefined : bounds.join(" and ");
    const combined = andFilters(keyFilter, filter);
    return { name: `range${i}`, table, ...(combined === undefined ? {} : { filter: combined }) };
  });
}
