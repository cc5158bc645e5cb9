import { TableKitError } from "../../model/index.js";
import type { ContentHeaders } from "./blob-backend.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import { checkContentType } from "./blob-rules.js";

/** A blob's content headers, as `@azure/storage-blob` names them (`BlobHTTPHeaders`). */
export interface BlobHTTPHeaders {
  blobContentType?: string;
  blobCacheControl?: string;
  blobContentEncoding?: string;
  blobContentLanguage?: string;
  blobContentDisposition?: string;
  /** The MD5 of the whole blob: 16 bytes. */
  blobContentMD5?: Uint8Array;
}

const NAMES = [
  ["blobCacheControl", "cacheControl"],
  ["blobContentEncoding", "contentEncoding"],
  ["blobContentLanguage", "contentLanguage"],
  ["blobContentDisposition", "contentDisposition"],
] as const;

/** Printable ASCII (they travel as HTTP headers), no whitespace at either end. */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Checks an upload's or Set Blob Properties' headers once: the content type (default
 * application/octet-stream) and the others, each printable ASCII, the MD5 16 bytes. A header a
 * backend does not keep (capabilities.contentHeaders / contentMD5) is NotSupported, not dropped.
 */
export function checkHttpHeaders(
  given: BlobHTTPHeaders | undefined,
  caps: BlobCapabilities,
  /** Set Blob Properties and the creation of an empty append or page blob store an MD5 of any length (the service does); uploads of content take 16 bytes. */
  md5: "digest" | "any" = "digest",
): { contentType: string; headers: ContentHeaders } {
  if (given !== undefined && (given === null || typeof given !== "object")) {
    throw new TableKitError("InvalidInput", "blobHTTPHeaders must be an object");
  }
  const contentType = checkContentType(given?.blobContentType);
  const headers: Record<string, string> = {};
  for (const [option, key] of NAMES) {
    const value: unknown = given?.[option];
    if (value === undefined || value === "") continue;
    if (typeof value !== "string" || !HEADER_VALUE.test(value)) {
      throw new TableKitError("InvalidInput", `${option} must be printable ASCII`, {
        details: { option },
      });
    }
    if (!caps.contentHeaders) throw unsupported(caps, option);
    headers[key] = value;
  }
  const digest: unknown = given?.blobContentMD5;
  if (digest !== undefined) {
    const length = digest instanceof Uint8Array ? digest.byteLength : -1;
    if (length < 0 || (md5 === "digest" ? length !== 16 : length === 0 || length > 64)) {
      const rule = md5 === "digest" ? "16 bytes (an MD5 digest)" : "1 to 64 bytes";
      throw new TableKitError("InvalidInput", `blobContentMD5 must be ${rule}`);
    }
    if (!caps.contentMD5) throw unsupported(caps, "blobContentMD5");
    const bytes = digest as Uint8Array;
    headers.contentMD5 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  }
  return { contentType, headers };
}

function unsupported(caps: BlobCapabilities, option: string): TableKitError {
  return new TableKitError("NotSupported", `${caps.backend} does not keep ${option} (see docs/blobs.md)`, {
    details: { option },
  });
}

/** The stored headers as the SDK's property names (`cacheControl`, `contentMD5` as bytes, …). */
export function headerProperties(headers: ContentHeaders | undefined): {
  cacheControl?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  contentMD5?: Uint8Array;
} {
  if (!headers) return {};
  return {
    ...(headers.cacheControl === undefined ? {} : { cacheControl: headers.cacheControl }),
    ...(headers.contentEncoding === undefined ? {} : { contentEncoding: headers.contentEncoding }),
    ...(headers.contentLanguage === undefined ? {} : { contentLanguage: headers.contentLanguage }),
    ...(headers.contentDisposition === undefined ? {} : { contentDisposition: headers.contentDisposition }),
    ...(headers.contentMD5 === undefined
      ? {}
      : { contentMD5: new Uint8Array(Buffer.from(headers.contentMD5, "base64")) }),
  };
}
