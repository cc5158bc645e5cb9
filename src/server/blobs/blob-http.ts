import type { OutgoingHttpHeaders } from "node:http";
import type { BlobProperties, BlobRequestConditions, ContainerProperties } from "../../store/index.js";
import { send } from "../http/responses.js";
import { metadataFromHeaders, metadataHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { httpDate } from "../protocol/xml.js";
import { notServed } from "./blob-ask.js";
import { httpHeadersOf } from "./blob-property-routes.js";
import type { BlobContext } from "./blob-service.js";
import { annotationHeaders, tagsHeader, tierHeader } from "./tag-headers.js";

/**
 * The Blob service's HTTP pieces every route shares: a request's header and range, a blob's
 * response headers, a write's answer. A leaf: it imports no route, so any route may import it.
 */

export function header(ctx: BlobContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}

export function blobHeaders(p: BlobProperties): OutgoingHttpHeaders {
  return {
    etag: p.etag,
    "last-modified": httpDate(p.lastModified),
    "x-ms-blob-type": p.blobType,
    // A blob whose content type was cleared (Set Blob Properties without one) answers none.
    ...(p.contentType === undefined ? {} : { "content-type": p.contentType }),
    ...propertyHeaders(p),
    "x-ms-server-encrypted": "true",
    "accept-ranges": "bytes",
    ...(p.blobCommittedBlockCount === undefined
      ? {}
      : { "x-ms-blob-committed-block-count": String(p.blobCommittedBlockCount) }),
    // Append blobs answer whether they are sealed, false too (the port sets isSealed on them only).
    ...(p.isSealed === undefined ? {} : { "x-ms-blob-sealed": String(p.isSealed) }),
    ...(p.blobSequenceNumber === undefined
      ? {}
      : { "x-ms-blob-sequence-number": String(p.blobSequenceNumber) }),
    ...(p.copyId === undefined
      ? {}
      : {
          "x-ms-copy-id": p.copyId,
          "x-ms-copy-status": p.copyStatus,
          "x-ms-copy-source": p.copySource,
          "x-ms-copy-progress": p.copyProgress,
          ...(p.copyCompletedOn ? { "x-ms-copy-completion-time": httpDate(p.copyCompletedOn) } : {}),
          ...(p.isIncrementalCopy ? { "x-ms-incremental-copy": "true" } : {}),
          ...(p.destinationSnapshot ? { "x-ms-copy-destination-snapshot": p.destinationSnapshot } : {}),
        }),
    ...metadataHeaders(p.metadata),
    ...annotationHeaders(p),
  };
}

/**
 * The range to read: `bytes=a-b` or `bytes=a-` from x-ms-range (which wins) or Range. A Range the
 * service cannot read is ignored, as HTTP asks (the whole blob, 200); an x-ms-range it cannot read
 * is 400 InvalidHeaderValue, and one ending before it starts is 416 InvalidRange (docs/server.md).
 * A start past any blob's length (2^53 and beyond) is 416 with the blob's length, like any start
 * past its end; an end past 2^53 reads to the end.
 */
export function requestedRange(ctx: BlobContext): { offset: number; count?: number } | undefined {
  const msRange = header(ctx, "x-ms-range");
  const text = msRange ?? header(ctx, "range");
  if (text === undefined) return undefined;
  const match = /^bytes=(\d+)-(\d*)$/.exec(text.trim());
  if (!match || (match[2] !== "" && BigInt(match[2]!) < BigInt(match[1]!))) {
    if (msRange === undefined) return undefined;
    if (!match)
      throw new ProtocolError(400, "InvalidHeaderValue", "The value for the x-ms-range header is not valid.");
    throw new ProtocolError(
      416,
      "InvalidRange",
      "The range specified is invalid for the current size of the resource.",
    );
  }
  const start = BigInt(match[1]!);
  // No blob is 2^53 bytes long: such a start is past its end, which the port answers InvalidRange.
  if (start >= BigInt(Number.MAX_SAFE_INTEGER)) return { offset: Number.MAX_SAFE_INTEGER };
  const offset = Number(start);
  if (match[2] === "") return { offset };
  const end = BigInt(match[2]!);
  const last = end > BigInt(Number.MAX_SAFE_INTEGER) - 1n ? BigInt(Number.MAX_SAFE_INTEGER) - 1n : end;
  return { offset, count: Number(last - start + 1n) };
}

export function writeResult(
  ctx: BlobContext,
  status: number,
  result: { etag: string; lastModified: Date },
  extra: OutgoingHttpHeaders = {},
): void {
  send(ctx, status, {
    etag: result.etag,
    "last-modified": httpDate(result.lastModified),
    "x-ms-request-server-encrypted": "true",
    ...extra,
  });
}

/** The headers Get Blob and Get Blob Properties answer with beyond the basic ones. */
export function propertyHeaders(p: BlobProperties): OutgoingHttpHeaders {
  return {
    ...(p.cacheControl === undefined ? {} : { "cache-control": p.cacheControl }),
    ...(p.contentEncoding === undefined ? {} : { "content-encoding": p.contentEncoding }),
    ...(p.contentLanguage === undefined ? {} : { "content-language": p.contentLanguage }),
    ...(p.contentDisposition === undefined ? {} : { "content-disposition": p.contentDisposition }),
    ...(p.createdOn === undefined ? {} : { "x-ms-creation-time": httpDate(p.createdOn) }),
    ...leaseHeaders(p),
  };
}

export function leaseHeaders(p: BlobProperties | ContainerProperties): OutgoingHttpHeaders {
  return {
    "x-ms-lease-state": p.leaseState ?? "available",
    "x-ms-lease-status": p.leaseStatus ?? "unlocked",
    ...(p.leaseDuration === undefined ? {} : { "x-ms-lease-duration": p.leaseDuration }),
  };
}

/** Blob properties the port does not keep: refused rather than dropped. */
const UNKEPT_HEADERS = [
  "x-ms-encryption-scope",
  "x-ms-immutability-policy-until-date",
  "x-ms-legal-hold",
] as const;

export function refuseUnkeptHeaders(ctx: BlobContext): void {
  for (const name of UNKEPT_HEADERS) {
    if (ctx.req.headers[name] !== undefined) {
      throw notServed(`the ${name} header (tablekit serve does not keep it)`);
    }
  }
}

/** `md5`: "upload" when the request's body is the blob (its MD5 checks it), "set" when it is kept as given. */
export function blobOptions(
  ctx: BlobContext,
  conditions: BlobRequestConditions,
  md5: "upload" | "set" = "upload",
) {
  return {
    blobHTTPHeaders: httpHeadersOf(ctx, md5),
    metadata: metadataFromHeaders(ctx.req),
    ...tagsHeader(ctx),
    ...tierHeader(ctx),
    conditions,
  };
}
