import { validateEtag } from "../../model/etag.js";
import { TableKitError } from "../../model/index.js";
import type { BackendConditions, BackendRange, Metadata, SequenceConditions } from "./blob-backend.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import { parseTagConditions } from "./tag-expression.js";

/**
 * The Blob service's rules, checked once by the core before any backend call. The Azure rules apply
 * everywhere (code that runs on the embedded engine runs on Azure); a backend's capabilities only
 * tighten them (S3 counts key bytes, reserves bucket prefixes, allows 2 KiB of metadata).
 */

export type { BlockListEntry } from "./blob-block-rules.js";
export {
  blockIdBytes,
  checkBlockId,
  checkBlockLength,
  checkBlockList,
  checkCommittedSize,
  checkStagedBlock,
  invalidBlockList,
} from "./blob-block-rules.js";

/** Conditions on a write, delete or read, as `@azure/storage-blob` takes them (the HTTP conditional headers). */
export interface BlobRequestConditions {
  /** `*` (the blob exists) or the ETag the blob must still have. */
  ifMatch?: string;
  /** `*` (the blob must not exist: a create that loses no one's write) or an ETag it must not have. */
  ifNoneMatch?: string;
  /** The blob must have changed after this time (to the second). */
  ifModifiedSince?: Date;
  /** The blob must not have changed after this time (to the second). */
  ifUnmodifiedSince?: Date;
  /** The lease the caller holds: needed to write a leased blob (capabilities.leases). */
  leaseId?: string;
  /** `x-ms-if-tags`: an expression over the blob's tags (`"k" = 'v' AND ("n" > '1' OR …)`) it must meet. */
  tagConditions?: string;
}

/** Azure: 3–63 lowercase letters, digits and hyphens; starts with a letter or digit; every hyphen between two of them. */
const CONTAINER_NAME = /^[a-z0-9](?:-?[a-z0-9])*$/;

export function validateContainerName(name: unknown, caps: BlobCapabilities): string {
  if (
    typeof name !== "string" ||
    name.length < 3 ||
    name.length > caps.maxContainerNameLength ||
    !CONTAINER_NAME.test(name)
  ) {
    throw new TableKitError(
      "InvalidResourceName",
      `The container name ${JSON.stringify(name)} is invalid: use 3 to ${caps.maxContainerNameLength} lowercase letters, digits and single hyphens, starting and ending with a letter or digit`,
      { details: { containerName: name } },
    );
  }
  const reserved = caps.reservedContainerPrefixes.find((p) => name.startsWith(p));
  if (reserved !== undefined) {
    throw new TableKitError(
      "InvalidResourceName",
      `Container names starting with "${reserved}" are reserved on ${caps.backend}`,
      { details: { containerName: name } },
    );
  }
  return name;
}

/** C0 controls and DEL (URLs and S3 keys mishandle them), and unpaired surrogates (not UTF-8). */
export const FORBIDDEN_IN_NAME =
  /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const MAX_SEGMENTS = 254;

/**
 * Blob names: 1–1,024 characters (S3: key bytes), at most 254 path segments, no control
 * characters, and nothing a URL would rewrite: no `\` (read as `/`), no `.` or `..` segment, no
 * trailing `.` or `/` (the service strips them).
 */
export function validateBlobName(name: unknown, caps: BlobCapabilities): string {
  const fail = (why: string) =>
    new TableKitError("InvalidResourceName", `The blob name ${JSON.stringify(name)} is invalid: ${why}`, {
      details: { blobName: name },
    });
  if (typeof name !== "string" || name.length === 0) throw fail("a blob name is a non-empty string");
  const length = caps.blobNameUnit === "utf8" ? Buffer.byteLength(name, "utf8") : name.length;
  if (length > caps.maxBlobNameLength) {
    throw fail(
      `it has ${length} ${caps.blobNameUnit === "utf8" ? "UTF-8 bytes" : "characters"}; the most is ${caps.maxBlobNameLength}`,
    );
  }
  if (FORBIDDEN_IN_NAME.test(name)) throw fail("it holds a control character or an unpaired surrogate");
  if (name.includes("\\")) throw fail("a backslash reads as '/' in a URL");
  if (/[./]$/.test(name)) throw fail("a name must not end with '.' or '/'");
  const segments = name.split("/");
  if (segments.length > MAX_SEGMENTS) throw fail(`it has more than ${MAX_SEGMENTS} path segments`);
  if (segments.some((s) => s === "." || s === "..")) throw fail("a '.' or '..' segment is rewritten by URLs");
  return name;
}

const METADATA_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Printable ASCII, maybe empty (the service keeps an empty value), no whitespace at either end: HTTP headers trim it. */
const METADATA_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/**
 * Checks metadata and returns a copy, names in the case given (the service keeps it and compares
 * names case-insensitively: two that differ only in case are refused).
 */
export function normalizeMetadata(metadata: unknown, caps: BlobCapabilities): Metadata {
  if (metadata === undefined) return {};
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new TableKitError("InvalidMetadata", "metadata must be an object of name/value strings");
  }
  const out: Metadata = {};
  const seen = new Set<string>();
  let bytes = 0;
  for (const [name, value] of Object.entries(metadata)) {
    if (!METADATA_NAME.test(name)) {
      throw new TableKitError(
        "InvalidMetadata",
        `The metadata name ${JSON.stringify(name)} is not a C# identifier`,
        {
          details: { name },
        },
      );
    }
    if (typeof value !== "string" || !METADATA_VALUE.test(value)) {
      throw new TableKitError(
        "InvalidMetadata",
        `The metadata value of ${name} must be printable ASCII without whitespace at either end`,
        { details: { name } },
      );
    }
    const key = name.toLowerCase();
    if (seen.has(key)) {
      throw new TableKitError(
        "InvalidMetadata",
        `The metadata name ${name} is given twice (names ignore case)`,
        {
          details: { name },
        },
      );
    }
    seen.add(key);
    out[name] = value;
    bytes += name.length + value.length;
  }
  if (bytes > caps.maxMetadataBytes) {
    throw new TableKitError(
      "MetadataTooLarge",
      `The metadata holds ${bytes} bytes; ${caps.backend} takes at most ${caps.maxMetadataBytes}`,
      { details: { bytes, limit: caps.maxMetadataBytes } },
    );
  }
  return out;
}

/** A content type: printable ASCII (it travels as an HTTP header). Default `application/octet-stream`. */
export function checkContentType(contentType: unknown): string {
  if (contentType === undefined) return "application/octet-stream";
  if (typeof contentType !== "string" || !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(contentType)) {
    throw new TableKitError(
      "InvalidInput",
      `The content type ${JSON.stringify(contentType)} is not printable ASCII`,
    );
  }
  return contentType;
}

/** Checks the shape of conditions (InvalidInput): ETags quoted or `*`, times as Dates. */
export function checkRequestConditions(conditions: BlobRequestConditions | undefined): BlobRequestConditions {
  if (conditions === undefined) return {};
  if (conditions === null || typeof conditions !== "object") {
    throw new TableKitError("InvalidInput", "conditions must be an object");
  }
  const { ifMatch, ifNoneMatch, ifModifiedSince, ifUnmodifiedSince, leaseId, tagConditions } = conditions;
  if (ifMatch !== undefined) validateEtagList(ifMatch);
  if (ifNoneMatch !== undefined) validateEtagList(ifNoneMatch);
  for (const [name, time] of [
    ["ifModifiedSince", ifModifiedSince],
    ["ifUnmodifiedSince", ifUnmodifiedSince],
  ] as const) {
    if (time !== undefined && (!(time instanceof Date) || Number.isNaN(time.getTime()))) {
      throw new TableKitError("InvalidInput", `${name} must be a valid Date`);
    }
  }
  if (leaseId !== undefined) checkLeaseIdShape(leaseId);
  if (tagConditions !== undefined) parseTagConditions(tagConditions);
  return {
    ...(ifMatch === undefined ? {} : { ifMatch }),
    ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }),
    ...(ifModifiedSince === undefined ? {} : { ifModifiedSince }),
    ...(ifUnmodifiedSince === undefined ? {} : { ifUnmodifiedSince }),
    ...(leaseId === undefined ? {} : { leaseId }),
    ...(tagConditions === undefined ? {} : { tagConditions }),
  };
}

/** The ETags of an If-Match / If-None-Match list (HTTP allows several; `*` matches any blob). */
export function etagList(value: string): string[] {
  return value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

function validateEtagList(value: string): void {
  const list = typeof value === "string" ? etagList(value) : [];
  if (list.length === 0) validateEtag(value);
  for (const etag of list) validateEtag(etag);
}

/**
 * The backend's conditions (`ifMatch`, or `ifNoneMatch: "*"`, and the lease id); `write` conditions
 * need a backend that applies them atomically, and a backend that cannot is NotSupported rather than
 * silently unconditional. Other conditions are evaluated by `underConditions` (blob-conditions.ts).
 */
export function checkConditions(
  conditions: BackendConditions,
  caps: BlobCapabilities,
  use: "write" | "read",
): BackendConditions {
  if (conditions.leaseId !== undefined && !caps.leases) {
    throw new TableKitError("NotSupported", `${caps.backend} keeps no leases (see docs/blobs.md)`);
  }
  if (
    use === "write" &&
    !caps.conditionalWrites &&
    (conditions.ifMatch ?? conditions.ifNoneMatch) !== undefined
  ) {
    throw new TableKitError(
      "NotSupported",
      `${caps.backend} does not apply ifMatch/ifNoneMatch to writes atomically (see docs/blobs.md)`,
    );
  }
  return conditions;
}

/** A lease id: a non-empty string (the service's are GUIDs). */
function checkLeaseIdShape(leaseId: unknown): string {
  if (typeof leaseId !== "string" || leaseId.trim() === "" || leaseId.length > 256) {
    throw new TableKitError("InvalidInput", "leaseId must be a non-empty string (a GUID)");
  }
  return leaseId;
}

/** A lease id: a non-empty string (the service's are GUIDs); NotSupported where there are no leases. */
export function checkLeaseId(leaseId: unknown, caps: BlobCapabilities): string {
  checkLeaseIdShape(leaseId);
  if (!caps.leases) {
    throw new TableKitError("NotSupported", `${caps.backend} keeps no leases (see docs/blobs.md)`);
  }
  return leaseId as string;
}

/**
 * What a backend applies inside its own call beside the ETag conditions: the lease id and the
 * parsed `x-ms-if-tags` expression (InvalidHeaderValue when it does not parse; NotSupported where
 * the backend has no leases or no tag conditions).
 */
export function backendExtras(c: BlobRequestConditions, caps: BlobCapabilities): BackendConditions {
  const lease = c.leaseId === undefined ? {} : { leaseId: checkLeaseId(c.leaseId, caps) };
  if (c.tagConditions === undefined) return lease;
  const parsed = parseTagConditions(c.tagConditions);
  if (!caps.tagConditions) {
    throw new TableKitError(
      "NotSupported",
      `${caps.backend} does not apply tag conditions (see docs/blobs.md)`,
    );
  }
  return { ...lease, tagConditions: parsed };
}

/** `download(offset, count)`: offset 0 and no count is the whole blob (no range). */
export function checkRange(offset: unknown, count: unknown): BackendRange | undefined {
  const off = offset ?? 0;
  if (typeof off !== "number" || !Number.isSafeInteger(off) || off < 0) {
    throw new TableKitError("InvalidInput", `offset must be an integer >= 0, not ${String(offset)}`);
  }
  if (count !== undefined && (typeof count !== "number" || !Number.isSafeInteger(count) || count < 1)) {
    throw new TableKitError("InvalidInput", `count must be an integer >= 1, not ${String(count)}`);
  }
  if (off === 0 && count === undefined) return undefined;
  return count === undefined ? { offset: off } : { offset: off, count };
}

/** Reads a non-negative safe integer option (appendPosition, maxSize). */
export function checkByteCount(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new TableKitError("InvalidInput", `${name} must be an integer >= 0, not ${String(value)}`);
  }
  return value;
}

/** Whether the sequence-number conditions hold for `sequenceNumber` (for backends that check them). */
export function sequenceConditionsHold(conditions: SequenceConditions, sequenceNumber: number): boolean {
  const {
    ifSequenceNumberLessThanOrEqual: le,
    ifSequenceNumberLessThan: lt,
    ifSequenceNumberEqual: eq,
  } = conditions;
  return (
    (le === undefined || sequenceNumber <= le) &&
    (lt === undefined || sequenceNumber < lt) &&
    (eq === undefined || sequenceNumber === eq)
  );
}

export function sequenceConditionNotMet(): TableKitError {
  return new TableKitError(
    "SequenceNumberConditionNotMet",
    "The sequence number condition specified was not met.",
  );
}
