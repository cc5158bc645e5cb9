import type { BackendConditions, StoredBlobProperties } from "../../blobs/blob-backend.js";
import type { S3ObjectOutput } from "./blob-sdk.js";

/** An S3 object's answers as the blob port's stored properties, and the port's conditions as S3's. */

export function ifMatch(conditions: BackendConditions): { IfMatch?: string } {
  return conditions.ifMatch && conditions.ifMatch !== "*" ? { IfMatch: conditions.ifMatch } : {};
}

export function matches(conditions: BackendConditions, etag: string): boolean {
  return conditions.ifMatch === undefined || conditions.ifMatch === "*" || conditions.ifMatch === etag;
}

export function toStored(out: S3ObjectOutput, contentLength: number): StoredBlobProperties {
  const kept = {
    ...(out.CacheControl ? { cacheControl: out.CacheControl } : {}),
    ...(out.ContentEncoding ? { contentEncoding: out.ContentEncoding } : {}),
    ...(out.ContentLanguage ? { contentLanguage: out.ContentLanguage } : {}),
    ...(out.ContentDisposition ? { contentDisposition: out.ContentDisposition } : {}),
  };
  const headers = Object.keys(kept).length > 0 ? kept : undefined;
  return {
    etag: out.ETag ?? "",
    lastModified: out.LastModified ?? new Date(0),
    contentLength,
    ...(out.ContentType === undefined ? {} : { contentType: out.ContentType }),
    metadata: Object.fromEntries(Object.entries(out.Metadata ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    blobType: "BlockBlob",
    ...(headers ? { headers } : {}),
  };
}

/** S3 answers a PUT with no Last-Modified: the response's Date stands in (docs/blobs.md). */
export function responseDate(out: S3ObjectOutput): Date {
  const date = out.$responseDate ? new Date(out.$responseDate) : new Date();
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
