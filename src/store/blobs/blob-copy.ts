import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { isTableKitError, TableKitError } from "../../model/index.js";
import type { OperationOptions } from "../call-options.js";
import type { AccessTier, Metadata, StoredCopy } from "./blob-backend.js";
import type { BlobRequestConditions } from "./blob-rules.js";
import type { BlobTags } from "./blob-tags.js";

/**
 * Copies into a blob (Copy Blob, Copy Blob From URL, Put Blob From URL, Put Block From URL): from
 * a blob of the same store (a `BlobClient`; linked where the backend can, else streamed through) or
 * from any URL this process can read (another server, an Azurite, a real account with a SAS),
 * fetched with Node's fetch. Every copy completes before the call returns (status `success`).
 */

/** Conditions on the copy's source (the service's x-ms-source-if-* headers). */
export interface BlobCopySourceConditions {
  ifMatch?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: Date;
  ifUnmodifiedSince?: Date;
}

export interface BlobCopyOptions extends OperationOptions {
  /** The destination's metadata; absent, the source's (Copy Blob) or none (Put Blob From URL). */
  metadata?: Metadata;
  /** Conditions on the destination. */
  conditions?: BlobRequestConditions;
  sourceConditions?: BlobCopySourceConditions;
  /** The source URL the copy properties report (the default names the source blob). */
  sourceUrl?: string;
  /** The destination's tags (x-ms-tags); absent: none. Not with `copySourceTags: "COPY"`. */
  tags?: BlobTags;
  /** REPLACE (the default): the destination gets `tags`; COPY: the source's tags. */
  copySourceTags?: BlobCopySourceTags;
  /**
   * The destination's tier (block blobs, where capabilities.accessTiers). Needed to copy an
   * archived source (into an online tier: a rehydration by copy), which is otherwise BlobArchived.
   */
  tier?: AccessTier;
  /** The MD5 the source's bytes must have (x-ms-source-content-md5): Md5Mismatch, nothing written. */
  sourceContentMD5?: Uint8Array;
  /**
   * Seal the copy when it is an append blob (Copy Blob's x-ms-seal-blob): a copy is not sealed
   * otherwise, whether the source is or not (the seal is not copied).
   */
  sealBlob?: boolean;
}

export type BlobCopySourceTags = "REPLACE" | "COPY";

export interface BlobCopyResponse {
  etag: string;
  lastModified: Date;
  copyId: string;
  copyStatus: "success";
  /** The `sourceContentMD5` the bytes were checked against, when one was given. */
  contentMD5?: Uint8Array;
}

/** `beginCopyFromURL`'s answer, shaped like the SDK's poller: the copy is already done. */
export interface BlobBeginCopyFromUrlPoller {
  readonly copyId: string;
  isDone(): boolean;
  getResult(): BlobCopyResponse;
  pollUntilDone(): Promise<BlobCopyResponse>;
}

export function donePoller(result: BlobCopyResponse): BlobBeginCopyFromUrlPoller {
  return {
    copyId: result.copyId,
    isDone: () => true,
    getResult: () => result,
    pollUntilDone: async () => result,
  };
}

export function newCopyId(): string {
  return randomUUID();
}

export function successfulCopy(id: string, source: string, length: number, at: Date): StoredCopy {
  return { id, status: "success", source, progress: `${length}/${length}`, completedOn: at };
}

/** What a source answered: its bytes and the properties a copy takes from it. */
export interface FetchedSource {
  readonly body: Readable;
  readonly contentLength: number;
  readonly contentType?: string;
  readonly metadata: Metadata;
}

/**
 * Reads a URL (optionally `count` bytes from `offset`) with the source conditions as HTTP headers.
 * A source that cannot be read is CannotVerifyCopySource (its status in `details`); a source
 * condition it does not meet (304, 412) is SourceConditionNotMet.
 */
export async function fetchSource(
  url: string,
  range: { offset: number; count?: number } | undefined,
  conditions: BlobCopySourceConditions | undefined,
  signal: AbortSignal | undefined,
): Promise<FetchedSource> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new TableKitError("InvalidInput", `The copy source is not a URL: ${JSON.stringify(url)}`, {
      cause: err,
    });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TableKitError("InvalidInput", `A copy source is an http or https URL, not ${parsed.protocol}`);
  }
  const headers: Record<string, string> = { "x-ms-version": "2025-01-05" };
  if (range) {
    headers["x-ms-range"] =
      `bytes=${range.offset}-${range.count === undefined ? "" : range.offset + range.count - 1}`;
  }
  if (conditions?.ifMatch) headers["if-match"] = conditions.ifMatch;
  if (conditions?.ifNoneMatch) headers["if-none-match"] = conditions.ifNoneMatch;
  if (conditions?.ifModifiedSince) headers["if-modified-since"] = conditions.ifModifiedSince.toUTCString();
  if (conditions?.ifUnmodifiedSince)
    headers["if-unmodified-since"] = conditions.ifUnmodifiedSince.toUTCString();
  let response: Response;
  try {
    response = await fetch(parsed, { headers, ...(signal ? { signal } : {}) });
  } catch (err) {
    throw new TableKitError(
      "CannotVerifyCopySource",
      `The copy source could not be reached: ${parsed.origin}`,
      {
        cause: err,
        details: { source: true },
      },
    );
  }
  if (response.status === 304 || response.status === 412) {
    await response.body?.cancel();
    throw sourceConditionNotMet();
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new TableKitError("CannotVerifyCopySource", `The copy source answered ${response.status}.`, {
      details: { source: true, sourceStatus: response.status },
    });
  }
  const metadata: Metadata = {};
  response.headers.forEach((value, name) => {
    if (name.startsWith("x-ms-meta-")) metadata[name.slice(10)] = value;
  });
  const type = response.headers.get("content-type");
  return {
    body: Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
    contentLength: Number(response.headers.get("content-length") ?? "0"),
    ...(type ? { contentType: type } : {}),
    metadata,
  };
}

export function sourceConditionNotMet(): TableKitError {
  return new TableKitError(
    "SourceConditionNotMet",
    "The source condition specified using HTTP conditional header(s) is not met.",
    { details: { source: true } },
  );
}

/** Evaluates source conditions against the source's ETag and time (those the backend does not apply itself). */
export function checkSourceConditions(
  conditions: BlobCopySourceConditions | undefined,
  source: { etag: string; lastModified: Date },
): void {
  if (!conditions) return;
  const { ifMatch, ifNoneMatch, ifModifiedSince, ifUnmodifiedSince } = conditions;
  if (ifMatch !== undefined && ifMatch !== "*" && ifMatch !== source.etag) throw sourceConditionNotMet();
  if (ifNoneMatch !== undefined && (ifNoneMatch === "*" || ifNoneMatch === source.etag))
    throw sourceConditionNotMet();
  if (ifModifiedSince && source.lastModified <= ifModifiedSince) throw sourceConditionNotMet();
  if (ifUnmodifiedSince && source.lastModified > ifUnmodifiedSince) throw sourceConditionNotMet();
}

/** How the service words a refused read of a copy source, by the source's own code. */
const SOURCE_REFUSALS: Readonly<Record<string, string>> = {
  AuthorizationPermissionMismatch:
    "This request is not authorized to perform this operation using this permission.",
  AuthorizationFailure: "This request is not authorized to perform this operation.",
  AuthorizationResourceTypeMismatch:
    "This request is not authorized to perform this operation using this resource type.",
  AuthorizationServiceMismatch:
    "This request is not authorized to perform this operation using this service.",
  AuthorizationSourceIPMismatch:
    "This request is not authorized to perform this operation using this source IP.",
  AuthorizationProtocolMismatch:
    "This request is not authorized to perform this operation using this protocol.",
  AuthenticationFailed: "Server failed to authenticate the request.",
  ResourceNotFound: "The specified resource does not exist.",
  BlobArchived: "This operation is not permitted on an archived blob.",
};

/**
 * A source the caller's credential for it may not read (its SAS lacks `r`, names another blob, has
 * expired; no credential on a private container): CannotVerifyCopySource with the status the source
 * answered (`details.sourceStatus`), worded as the service words that refusal.
 */
export function copySourceRefusal(err: unknown): unknown {
  if (!isTableKitError(err) || !Object.hasOwn(SOURCE_REFUSALS, err.code)) return err;
  const wording = SOURCE_REFUSALS[err.code]!;
  const message = err.message.startsWith(wording) ? err.message : `${wording} ${err.message}`;
  return new TableKitError("CannotVerifyCopySource", message, {
    cause: err,
    details: { source: true, sourceStatus: err.status, sourceCode: err.code },
  });
}

/** A source blob that does not exist, or that its reader may not read: the copy's CannotVerifyCopySource. */
export function asSourceError(err: unknown): unknown {
  if (isTableKitError(err, "BlobNotFound", "ContainerNotFound", "InvalidRange")) {
    return new TableKitError("CannotVerifyCopySource", "The specified blob does not exist.", {
      cause: err,
      details: { source: true },
    });
  }
  return copySourceRefusal(err);
}

/**
 * The source's chunks, hashed as they pass, each handed on only once the next has come: the last
 * is handed on after the MD5 of all was found to be `expected`, else Md5Mismatch is thrown instead.
 * A writer that stops reading at the length it was told (an SDK sending a known Content-Length) so
 * never gets every byte of a mismatched source, and keeps nothing.
 */
export async function* md5Checked(
  chunks: AsyncIterable<unknown>,
  expected: Uint8Array,
): AsyncGenerator<Uint8Array> {
  const hash = createHash("md5");
  let held: Uint8Array | undefined;
  for await (const chunk of chunks) {
    const bytes = chunk as Uint8Array;
    hash.update(bytes);
    if (held) yield held;
    held = bytes;
  }
  const actual = hash.digest();
  if (!actual.equals(Buffer.from(expected))) {
    throw new TableKitError(
      "Md5Mismatch",
      "The MD5 value specified in the request did not match the source.",
      {
        details: { expected: Buffer.from(expected).toString("base64"), actual: actual.toString("base64") },
      },
    );
  }
  if (held) yield held;
}

/** `sourceContentMD5` as given: 16 bytes, else InvalidInput. */
export function checkSourceMd5(md5: unknown): Uint8Array | undefined {
  if (md5 === undefined) return undefined;
  if (!(md5 instanceof Uint8Array) || md5.byteLength !== 16) {
    throw new TableKitError("InvalidInput", "sourceContentMD5 is the 16 bytes of an MD5.");
  }
  return md5;
}

export function noPendingCopy(): TableKitError {
  return new TableKitError("NoPendingCopyOperation", "There is currently no pending copy operation.");
}
