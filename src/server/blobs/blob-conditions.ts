import { isTableKitError, TableKitError } from "../../model/index.js";
import type { BlobProperties, BlobRequestConditions } from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";
import { ProtocolError } from "../protocol/protocol-error.js";

/**
 * The Blob service's conditional headers (If-Match, If-None-Match, If-Modified-Since,
 * If-Unmodified-Since) turned into what the port applies atomically: `ifMatch` or
 * `ifNoneMatch: "*"`. A condition the port does not take (a date, If-None-Match with an ETag) is
 * evaluated against the blob's properties, and the operation then runs with `ifMatch` on the ETag
 * it was evaluated against, so nothing can change in between unnoticed.
 */

export interface HttpConditions {
  /** One ETag, `*`, or a comma-separated list (any of them matches; one `*` in it matches any blob). */
  readonly ifMatch?: string;
  readonly ifNoneMatch?: string;
  readonly ifModifiedSince?: Date;
  readonly ifUnmodifiedSince?: Date;
  /** x-ms-lease-id: handed to every port call the request makes. */
  readonly leaseId?: string;
}

/** The values of an If-Match / If-None-Match list. */
function etagList(value: string): string[] {
  return value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

function date(ctx: RequestContext, name: string): Date | undefined {
  const text = ctx.req.headers[name];
  if (typeof text !== "string") return undefined;
  const ms = Date.parse(text);
  // An unparsable date is ignored, as HTTP says.
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

export function httpConditions(ctx: RequestContext): HttpConditions {
  const ifMatch = ctx.req.headers["if-match"];
  const ifNoneMatch = ctx.req.headers["if-none-match"];
  const ifModifiedSince = date(ctx, "if-modified-since");
  const ifUnmodifiedSince = date(ctx, "if-unmodified-since");
  const leaseId = ctx.req.headers["x-ms-lease-id"];
  return {
    ...(typeof leaseId === "string" ? { leaseId: leaseId.trim() } : {}),
    ...(typeof ifMatch === "string" ? { ifMatch: ifMatch.trim() } : {}),
    ...(typeof ifNoneMatch === "string" ? { ifNoneMatch: ifNoneMatch.trim() } : {}),
    ...(ifModifiedSince ? { ifModifiedSince } : {}),
    ...(ifUnmodifiedSince ? { ifUnmodifiedSince } : {}),
  };
}

/** True when the port can apply the conditions itself (no evaluation needed). */
function portConditions(c: HttpConditions): BlobRequestConditions | undefined {
  if (c.ifModifiedSince || c.ifUnmodifiedSince) return undefined;
  if (c.ifMatch !== undefined && c.ifNoneMatch !== undefined) return undefined;
  // A list holding `*` matches any blob that exists, as `*` alone does.
  if (c.ifMatch !== undefined && c.ifMatch !== "*" && etagList(c.ifMatch).includes("*"))
    return { ifMatch: "*" };
  if (c.ifNoneMatch !== undefined && c.ifNoneMatch !== "*") return undefined;
  // An If-Match that is no ETag at all matches nothing: evaluated (412), not handed to the port.
  if (c.ifMatch !== undefined && c.ifMatch !== "*" && !/^(W\/)?"[^"]*"$/.test(c.ifMatch)) return undefined;
  if (c.ifMatch !== undefined) return { ifMatch: c.ifMatch };
  if (c.ifNoneMatch !== undefined) return { ifNoneMatch: "*" };
  return {};
}

function notModified(): ProtocolError {
  return new ProtocolError(
    304,
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
  );
}

function conditionNotMet(): TableKitError {
  return new TableKitError(
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
  );
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Evaluates the conditions against the blob as it is (or its absence); throws 412 (or 304 for reads). */
export function evaluate(c: HttpConditions, current: BlobProperties | undefined, read: boolean): void {
  if (!current) {
    if (c.ifMatch !== undefined) throw conditionNotMet();
    return;
  }
  if (c.ifMatch !== undefined) {
    const list = etagList(c.ifMatch);
    if (!list.includes("*") && !list.includes(current.etag)) throw conditionNotMet();
  }
  if (c.ifUnmodifiedSince && seconds(current.lastModified) > seconds(c.ifUnmodifiedSince))
    throw conditionNotMet();
  const noneList = c.ifNoneMatch === undefined ? undefined : etagList(c.ifNoneMatch);
  const noneMatch = noneList !== undefined && (noneList.includes("*") || noneList.includes(current.etag));
  const notModifiedSince =
    c.ifModifiedSince !== undefined && seconds(current.lastModified) <= seconds(c.ifModifiedSince);
  // Reads (Get Blob, Get Blob Properties) evaluate If-None-Match || If-Modified-Since: with both
  // given, the read fails only when both do ("Specifying conditional headers for Blob service operations").
  const fails =
    read && noneList !== undefined && c.ifModifiedSince !== undefined
      ? noneMatch && notModifiedSince
      : noneMatch || notModifiedSince;
  if (fails) throw read ? notModified() : conditionNotMet();
}

/**
 * Runs `work` under the request's conditions: with them as the port takes them, or evaluated
 * against `properties()` and pinned to the ETag seen (retried if the blob changed in between).
 */
export async function underConditions<T>(
  c: HttpConditions,
  read: boolean,
  properties: () => Promise<BlobProperties | undefined>,
  work: (conditions: BlobRequestConditions) => Promise<T>,
): Promise<T> {
  const lease = c.leaseId === undefined ? {} : { leaseId: c.leaseId };
  const direct = portConditions(c);
  // Reads take only ifMatch: an If-None-Match on a read is evaluated.
  if (direct && !(read && direct.ifNoneMatch !== undefined)) return work({ ...direct, ...lease });
  for (let attempt = 0; ; attempt++) {
    const current = await properties();
    evaluate(c, current, read);
    try {
      return await work({
        ...(current ? { ifMatch: current.etag } : read ? {} : { ifNoneMatch: "*" as const }),
        ...lease,
      });
    } catch (err) {
      // The blob changed (or appeared) between the evaluation and the operation: evaluate again.
      const raced = isTableKitError(err, "ConditionNotMet") || isTableKitError(err, "BlobAlreadyExists");
      if (!raced || attempt >= 5) throw err;
    }
  }
}

/**
 * A write under the caller's grant: with `w`, as `underConditions`; with a create-only token
 * (`c` without `w`), the blob was absent when the grant was checked, so the request's conditions
 * are evaluated against its absence and the write itself carries `ifNoneMatch: "*"`. A blob
 * created in between wins: this write fails with the service's 409 BlobAlreadyExists and is not
 * retried (retrying would overwrite what the token may not).
 */
export async function underWriteConditions<T>(
  grant: "write" | "createOnly",
  c: HttpConditions,
  properties: () => Promise<BlobProperties | undefined>,
  work: (conditions: BlobRequestConditions) => Promise<T>,
): Promise<T> {
  if (grant === "write") return underConditions(c, false, properties, work);
  evaluate(c, undefined, false);
  return work({ ifNoneMatch: "*", ...(c.leaseId === undefined ? {} : { leaseId: c.leaseId }) });
}
