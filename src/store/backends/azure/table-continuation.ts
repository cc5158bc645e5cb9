import { TableKitError } from "../../../model/index.js";

/**
 * This backend's continuations: the service's `x-ms-continuation-*` headers, carried in the
 * `@azure/data-tables` token format (base64 of `{"nextPartitionKey","nextRowKey"}`) and checked on
 * the way back, so a forged or damaged token is InvalidContinuationToken, never a wrong page.
 */

/** Where the next page of an entity query starts, as the service names it. */
export interface EntityPosition {
  readonly partitionKey: string;
  readonly rowKey?: string;
}

export function encodeEntityContinuation(next: EntityPosition): string {
  const token = { nextPartitionKey: next.partitionKey, ...(next.rowKey ? { nextRowKey: next.rowKey } : {}) };
  return Buffer.from(JSON.stringify(token), "utf8").toString("base64");
}

export function decodeEntityContinuation(continuation: string): EntityPosition {
  try {
    const decoded = JSON.parse(Buffer.from(continuation, "base64").toString("utf8")) as Record<
      string,
      unknown
    >;
    const { nextPartitionKey, nextRowKey } = decoded;
    const valid =
      Buffer.from(continuation, "base64").toString("base64") === continuation &&
      typeof nextPartitionKey === "string" &&
      (nextRowKey === undefined || typeof nextRowKey === "string");
    if (valid) {
      return {
        partitionKey: nextPartitionKey,
        ...(nextRowKey === undefined ? {} : { rowKey: nextRowKey as string }),
      };
    }
  } catch {
    // Not base64 JSON: rejected below.
  }
  throw new TableKitError("InvalidContinuationToken", "The continuation token is malformed");
}

/** Checks a table-listing continuation (the service's opaque NextTableName) and returns it. */
export function tableContinuation(continuation: string): string {
  if (/^[\x21-\x7e]{1,1024}$/.test(continuation)) return continuation;
  throw new TableKitError("InvalidContinuationToken", "The continuation token is malformed");
}
