import type { KeyInterval } from "./codec.js";
import { invalidInput } from "./errors.js";

/** The two key properties a range can be on. */
export type KeyProperty = "PartitionKey" | "RowKey";

/** An OData string literal: quoted, with each `'` doubled (`O'Brien` → `'O''Brien'`). */
export function odataString(value: string): string {
  if (typeof value !== "string") throw invalidInput("odataString", `expected a string, got ${typeof value}`);
  return `'${value.replaceAll("'", "''")}'`;
}

/** Options of `rangeFilter`. */
export interface RangeFilterOptions {
  /** Also pin the partition: `PartitionKey eq '…' and (…)` (only for ranges on RowKey). */
  readonly partitionKey?: string;
}

/**
 * A `$filter` for a key range: `RowKey ge 'a' and RowKey lt 'b'` (no upper bound: just the `ge`).
 * Several ranges are joined with `or`, each in parentheses. Combine the result with other
 * conditions inside parentheses when you use `or` around it.
 */
export function rangeFilter(
  property: KeyProperty,
  range: KeyInterval | readonly KeyInterval[],
  options: RangeFilterOptions = {},
): string {
  if (property !== "PartitionKey" && property !== "RowKey") {
    throw invalidInput("rangeFilter", `property must be "PartitionKey" or "RowKey", got ${String(property)}`);
  }
  const one = (r: KeyInterval) => {
    if (typeof r !== "object" || r === null || typeof r.lower !== "string") {
      throw invalidInput("rangeFilter", "a range is { lower: string, upper?: string }");
    }
    const lower = `${property} ge ${odataString(r.lower)}`;
    return r.upper === undefined ? lower : `${lower} and ${property} lt ${odataString(r.upper)}`;
  };
  let filter: string;
  if (Array.isArray(range)) {
    if (range.length === 0) throw invalidInput("rangeFilter", "no ranges given");
    filter = range.length === 1 ? one(range[0]) : range.map((r) => `(${one(r)})`).join(" or ");
    if (options.partitionKey !== undefined && range.length > 1) filter = `(${filter})`;
  } else {
    filter = one(range as KeyInterval);
  }
  if (options.partitionKey === undefined) return filter;
  if (property !== "RowKey") throw invalidInput("rangeFilter", "partitionKey applies only to RowKey ranges");
  return `PartitionKey eq ${odataString(options.partitionKey)} and ${filter}`;
}
