import { TableKitError } from "../../../model/index.js";

/**
 * Continuations are JSON the core wraps into opaque tokens. They name a position, never state of
 * this process, so they survive restarts and work in another process.
 */

/**
 * Where a query resumes: in its `range`-th key range, after the key `after` (or at its start), or
 * at the start of the partition `atPartition` (a listing across partitions that found it in the
 * catalogue, as the Table service's NextPartitionKey names the next partition).
 */
export interface QueryCursor {
  readonly range: number;
  readonly after?: { readonly partitionKey: string; readonly rowKey: string };
  readonly atPartition?: string;
}

export function encodeQueryContinuation(cursor: QueryCursor): string {
  if (cursor.after)
    return JSON.stringify({ r: cursor.range, k: [cursor.after.partitionKey, cursor.after.rowKey] });
  if (cursor.atPartition !== undefined) return JSON.stringify({ r: cursor.range, a: cursor.atPartition });
  return JSON.stringify({ r: cursor.range });
}

/** The cursor of a continuation made for a query with `rangeCount` key ranges. */
export function decodeQueryContinuation(text: string, rangeCount: number): QueryCursor {
  const value = parse(text) as { r?: unknown; k?: unknown; a?: unknown } | null;
  const range = value?.r;
  if (typeof range !== "number" || !Number.isInteger(range) || range < 0 || range >= rangeCount)
    throw malformed();
  // Only the fields this version writes: a token with others (e.g. an older format) is refused.
  if (Object.keys(value!).some((key) => key !== "r" && key !== "k" && key !== "a")) throw malformed();
  if (value!.a !== undefined) {
    if (typeof value!.a !== "string" || value!.k !== undefined) throw malformed();
    return { range, atPartition: value!.a };
  }
  if (value!.k === undefined) return { range };
  const k = value!.k;
  if (!Array.isArray(k) || k.length !== 2 || !k.every((s) => typeof s === "string")) throw malformed();
  return { range, after: { partitionKey: k[0] as string, rowKey: k[1] as string } };
}

/** A table listing resumes after this DynamoDB table name. */
export function encodeTableContinuation(dynamoTableName: string): string {
  return JSON.stringify({ after: dynamoTableName });
}

export function decodeTableContinuation(text: string): string {
  const value = parse(text) as { after?: unknown } | null;
  if (typeof value?.after !== "string") throw malformed();
  return value.after;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw malformed(cause);
  }
}

export function malformed(cause?: unknown): TableKitError {
  return new TableKitError("InvalidContinuationToken", "The continuation token is malformed", { cause });
}
