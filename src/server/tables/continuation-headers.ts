/**
 * The one place where the REST protocol's continuation (`x-ms-continuation-NextPartitionKey` /
 * `-NextRowKey` / `-NextTableName` headers, sent back as `NextPartitionKey` / `NextRowKey` /
 * `NextTableName` query parameters) meets the store's opaque continuation token. The service's
 * values are opaque to clients too, so the whole token travels in NextPartitionKey and NextRowKey
 * carries a fixed marker (clients echo both).
 */

const ROW_MARKER = "tk";

/** Response headers for an entity query's continuation. */
export function entityContinuationHeaders(token: string | undefined): Record<string, string> {
  return token === undefined
    ? {}
    : { "x-ms-continuation-NextPartitionKey": token, "x-ms-continuation-NextRowKey": ROW_MARKER };
}

/** The store token from a request's query parameters, if it resumes a query. */
export function entityContinuationFrom(query: URLSearchParams): string | undefined {
  return query.get("NextPartitionKey") ?? undefined;
}

export function tableContinuationHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { "x-ms-continuation-NextTableName": token };
}

export function tableContinuationFrom(query: URLSearchParams): string | undefined {
  return query.get("NextTableName") ?? undefined;
}
