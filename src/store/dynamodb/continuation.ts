import { TableKitError } from "../../model/index.js";

/**
 * Continuations are JSON the core wraps into opaque tokens. They name a position, never state of
 * this process, so they survive restarts and work in another process.
 */

/**
 * Where a query resumes: in its `range`-th key range, after the key `after` (or at its start), or
 * after the whole partition `afterPartition` (a listing across partitions that finished one).
 */
export interface QueryCursor {
  readonly range: number;
  readonly after?: { readonly partitionKey: string; readonly rowKey: string };
  readonly afterPartition?: string;
}

export function encodeQueryContinuation(cursor: QueryCursor): string {
  if (cursor.after)
    return JSON.stringify({ r: cursor.range, k: [cursor.after.partitionKey, cursor.after.rowKey] });
  if (cursor.afterPartition !== undefined)
    return JSON.stringify({ r: cursor.range, p: cursor.afterPartition });
  return JSON.stringify({ r: cursor.range });
}

/** The cursor of a continuation made for a query with `rangeCount` key ranges. */
export function decodeQueryContinuation(text: string, rangeCount: number): QueryCursor {
  const value = parse(text) as { r?: unknown; k?: unknown; p?: unknown } | null;
  const range = value?.r;
  if (typeof range !== "number" || !Number.isInteger(range) || range < 0 || range >= rangeCount)
    throw malformed();
  if (value!.p !== undefined) {
    if (typeof value!.p !== "string" || value!.k !== undefined) throw malformed();
    return { range, afterPartition: value!.p };
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
