import { isTableKitError, TableKitError } from "../../model/index.js";
import type { BackendConditions, StoredBlobProperties } from "./blob-backend.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import { type BlobRequestConditions, backendExtras, checkConditions, etagList } from "./blob-rules.js";

/**
 * The HTTP conditions of a blob call, applied by the core after the call is authorized: those a
 * backend applies atomically (`ifMatch`, or `ifNoneMatch: "*"` on a write) go to it as they are;
 * any other (a date, If-None-Match with an ETag, both at once) is evaluated against the blob as it
 * is, read by the core itself (never with the caller's token: a write-only token's conditional
 * write needs no read right), and the call then runs pinned to the ETag seen, evaluated again if
 * the blob changed in between. The server hands the request's headers down; nothing above decides.
 */

const MAX_ATTEMPTS = 5;

export function conditionNotMet(): TableKitError {
  return new TableKitError(
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
  );
}

/** A read whose If-None-Match or If-Modified-Since fails: the service answers 304 (`details.notModified`). */
function notModified(): TableKitError {
  return new TableKitError(
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
    { details: { notModified: true } },
  );
}

/** True for the error of a read whose blob has not been modified (HTTP 304). */
export function isNotModified(err: unknown): boolean {
  return isTableKitError(err, "ConditionNotMet") && err.details?.notModified === true;
}

/** The conditions a backend applies itself, or undefined when they must be evaluated. */
function direct(c: BlobRequestConditions, use: "read" | "write"): BackendConditions | undefined {
  if (c.ifModifiedSince || c.ifUnmodifiedSince) return undefined;
  if (c.ifMatch !== undefined && c.ifNoneMatch !== undefined) return undefined;
  if (c.ifMatch !== undefined) {
    const list = etagList(c.ifMatch);
    // A list holding `*` matches any blob that exists, as `*` alone does; a longer list is evaluated.
    if (list.includes("*")) return { ifMatch: "*" };
    return list.length === 1 ? { ifMatch: c.ifMatch.trim() } : undefined;
  }
  if (c.ifNoneMatch === undefined) return {};
  // Reads take only ifMatch; writes only ifNoneMatch "*".
  return use === "write" && c.ifNoneMatch.trim() === "*" ? { ifNoneMatch: "*" } : undefined;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Evaluates the conditions against the blob as it is (or its absence); throws 412 (or 304 for reads). */
export function evaluateConditions(
  c: BlobRequestConditions,
  current: StoredBlobProperties | undefined,
  use: "read" | "write",
): void {
  if (!current) {
    if (c.ifMatch !== undefined) throw conditionNotMet();
    return;
  }
  if (c.ifMatch !== undefined) {
    const list = etagList(c.ifMatch);
    if (!list.includes("*") && !list.includes(current.etag)) throw conditionNotMet();
  }
  if (c.ifUnmodifiedSince && seconds(current.lastModified) > seconds(c.ifUnmodifiedSince)) {
    throw conditionNotMet();
  }
  const noneList = c.ifNoneMatch === undefined ? undefined : etagList(c.ifNoneMatch);
  const noneMatch = noneList !== undefined && (noneList.includes("*") || noneList.includes(current.etag));
  const notModifiedSince =
    c.ifModifiedSince !== undefined && seconds(current.lastModified) <= seconds(c.ifModifiedSince);
  // Reads evaluate If-None-Match || If-Modified-Since: with both given, a read fails only when both
  // do ("Specifying conditional headers for Blob service operations").
  const fails =
    use === "read" && noneList !== undefined && c.ifModifiedSince !== undefined
      ? noneMatch && notModifiedSince
      : noneMatch || notModifiedSince;
  if (fails) throw use === "read" ? notModified() : conditionNotMet();
}

/**
 * Runs `work` under checked conditions: directly, or evaluated against `current()` and pinned to
 * the ETag seen (a blob that changed or appeared in between is evaluated again, a few times).
 */
export async function underConditions<T>(
  c: BlobRequestConditions,
  caps: BlobCapabilities,
  use: "read" | "write",
  current: () => Promise<StoredBlobProperties | undefined>,
  work: (conditions: BackendConditions) => Promise<T>,
): Promise<T> {
  if (use === "read" && c.ifNoneMatch !== undefined && etagList(c.ifNoneMatch).includes("*")) {
    // A read "only if the blob does not exist" can never return it: the service answers 400.
    throw new TableKitError(
      "UnsatisfiableCondition",
      "The condition specified is unsatisfiable: If-None-Match: * on a read.",
    );
  }
  const lease = backendExtras(c, caps);
  const plain = direct(c, use);
  if (plain) return work(checkConditions({ ...plain, ...lease }, caps, use));
  for (let attempt = 1; ; attempt++) {
    const now = await current();
    evaluateConditions(c, now, use);
    const pinned: BackendConditions = {
      ...(now ? { ifMatch: now.etag } : use === "read" ? {} : { ifNoneMatch: "*" as const }),
      ...lease,
    };
    try {
      return await work(checkConditions(pinned, caps, use));
    } catch (err) {
      const raced = isTableKitError(err, "ConditionNotMet") || isTableKitError(err, "BlobAlreadyExists");
      if (!raced || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}
