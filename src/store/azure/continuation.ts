import { TableKitError } from "../../model/index.js";

/**
 * This backend's continuation: the SDK's own token (base64 of `{"nextPartitionKey","nextRowKey"}`,
 * the service's `x-ms-continuation-*` headers) checked on the way back, so a forged or damaged
 * token is InvalidContinuationToken here rather than an SDK crash or a silently wrong page.
 */

/** Checks an entity-query continuation and returns the SDK token it carries. */
export function entityContinuation(continuation: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(continuation, "base64").toString("utf8")) as Record<
      string,
      unknown
    >;
    const valid =
      Buffer.from(continuation, "base64").toString("base64") === continuation &&
      typeof decoded.nextPartitionKey === "string" &&
      (decoded.nextRowKey === undefined || typeof decoded.nextRowKey === "string");
    if (valid) return continuation;
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
