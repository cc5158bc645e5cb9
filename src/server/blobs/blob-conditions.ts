import type { BlobRequestConditions } from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";
import { ProtocolError } from "../protocol/protocol-error.js";

/**
 * The Blob service's conditional headers (If-Match, If-None-Match, If-Modified-Since,
 * If-Unmodified-Since) as the blob port takes them; the port applies and evaluates them, after
 * the call is authorized (src/store/blobs/blob-conditions.ts).
 */

function date(ctx: RequestContext, name: string): Date | undefined {
  const text = ctx.req.headers[name];
  if (typeof text !== "string") return undefined;
  const ms = Date.parse(text);
  // An unparsable date is ignored, as HTTP says.
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

const ETAG = /^(W\/)?"[^"]*"$/;

export function httpConditions(ctx: RequestContext): BlobRequestConditions {
  const ifMatch = etagHeader(ctx.req.headers["if-match"]);
  const ifNoneMatch = etagHeader(ctx.req.headers["if-none-match"]);
  const ifModifiedSince = date(ctx, "if-modified-since");
  const ifUnmodifiedSince = date(ctx, "if-unmodified-since");
  const leaseId = ctx.req.headers["x-ms-lease-id"];
  const ifTags = ctx.req.headers["x-ms-if-tags"];
  return {
    // x-ms-if-tags: parsed, and refused when malformed, by the port.
    ...(typeof ifTags === "string" ? { tagConditions: ifTags } : {}),
    // x-ms-lease-id: handed to every port call the request makes.
    ...(typeof leaseId === "string" ? { leaseId: leaseId.trim() } : {}),
    ...(ifMatch === undefined ? {} : { ifMatch }),
    // An If-None-Match that is no ETag excludes nothing.
    ...(ifNoneMatch === undefined || ifNoneMatch === NO_ETAG ? {} : { ifNoneMatch }),
    ...(ifModifiedSince ? { ifModifiedSince } : {}),
    ...(ifUnmodifiedSince ? { ifUnmodifiedSince } : {}),
  };
}

/** What an If-Match that is no ETag becomes: an ETag no blob has (`""`), so it matches nothing (412). */
const NO_ETAG = '""';

/** One ETag, `*` or a comma-separated list of them (any matches); the ETags in it that are well formed. */
function etagHeader(value: string | string[] | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const list = value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v === "*" || ETAG.test(v));
  return list.length === 0 ? NO_ETAG : list.join(", ");
}

/** A read whose If-None-Match or If-Modified-Since fails: 304, with the service's code. */
export function notModified(): ProtocolError {
  return new ProtocolError(
    304,
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
  );
}
