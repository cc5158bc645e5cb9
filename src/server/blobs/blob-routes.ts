import type { OutgoingHttpHeaders } from "node:http";
import { TableKitError } from "../../model/index.js";
import type { BlobClient, BlobContainer, BlobRequestConditions } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBodyBytes, tooLarge } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { askCore, askCoreToWrite, notServed } from "./blob-ask.js";
import { httpConditions } from "./blob-conditions.js";
import { blobOptions, header, refuseUnkeptHeaders, requestedRange, writeResult } from "./blob-http.js";
import { blobMd5 } from "./blob-property-routes.js";
import { answerRead } from "./blob-read.js";
import type { BlobContext } from "./blob-service.js";
import { checkChecksums, checkedBody, expectedChecksums, writeChecked } from "./content-checksum.js";
import { appendBlockFromUrl, isCopy } from "./copy-routes.js";
import { getPageRanges, putPage, putPageBlob, sealBlob, setPageProperties } from "./page-blob-routes.js";
import { type SnapshotHandler, snapshotParameter } from "./snapshot-routes.js";
import { tierHeader } from "./tag-headers.js";

/**
 * The Blob service's blob operations, each turned into calls of the store's blob port (which
 * checks names, metadata, sizes and conditions) and answered as the service answers them.
 */

/** The most one Put Blob may carry (the service's limit since version 2019-12-12). */
const MAX_PUT_BLOB_BYTES = 5000 * 1024 * 1024;

/**
 * A Blob service SAS may override response headers (`rsct`, `rscc`, …): they replace the stored
 * ones. Only a service SAS signs them; on any other request (an account SAS signs none, the key
 * needs none) they are ignored. A value a header cannot carry (a control character, a character
 * past U+00FF) is 400 InvalidQueryParameterValue, checked before the blob is read; so is Latin-1
 * past ASCII, which Node's response cannot send as sent (docs/server.md).
 */
function sasOverrides(ctx: BlobContext, caller: StorageCaller): OutgoingHttpHeaders {
  if (!caller.signsOverrides) return {};
  const pairs: [string, string][] = [
    ["rsct", "content-type"],
    ["rscc", "cache-control"],
    ["rscd", "content-disposition"],
    ["rsce", "content-encoding"],
    ["rscl", "content-language"],
  ];
  const out: OutgoingHttpHeaders = {};
  for (const [param, name] of pairs) {
    const value = ctx.query.get(param);
    if (!value) continue;
    if (/[^\u0020-\u007e\t]/.test(value)) {
      throw new ProtocolError(
        400,
        "InvalidQueryParameterValue",
        `Value for one of the query parameters specified in the request URI is invalid: ${param} holds a character a response header cannot carry.`,
      );
    }
    out[name] = value;
  }
  return out;
}

/** What a blob operation works on: the blob's container and client on the caller's scoped store, its target for the core, the request's HTTP conditions. */
export interface BlobCall {
  readonly container: BlobContainer;
  readonly client: BlobClient;
  readonly name: string;
  readonly target: { readonly container: string; readonly blob: string };
  readonly conditions: BlobRequestConditions;
}

export type BlobHandler = (ctx: BlobContext, caller: StorageCaller, blob: BlobCall) => Promise<void>;

function blobOf(
  ctx: BlobContext,
  caller: StorageCaller,
): { containerName: string; container: BlobContainer; client: BlobClient; name: string } {
  const { container: containerName, blob: name } = ctx.resource as { container: string; blob: string };
  const container = caller.store.container(containerName);
  return { containerName, container, client: container.getBlobClient(name), name };
}

/**
 * A blob operation's handler, as the operation list takes it: the blob it names and the request's
 * HTTP conditions first (a malformed condition is 400 before anything else is read).
 */
export function onBlob(handler: BlobHandler): (ctx: BlobContext, caller: StorageCaller) => Promise<void> {
  return (ctx, caller) => {
    const { containerName, container, client, name } = blobOf(ctx, caller);
    const target = { container: containerName, blob: name };
    return handler(ctx, caller, { container, client, name, target, conditions: httpConditions(ctx) });
  };
}

/** Any operation on a version (`?versionid=`): not served. */
export async function refuseVersions(): Promise<void> {
  throw notServed("versions");
}

/**
 * A snapshot operation's handler, as the operation list takes it (`?snapshot=`: snapshot-routes.ts),
 * before any HTTP condition is read; the SAS's response overrides are checked for every one.
 */
export function onSnapshot(
  handler: SnapshotHandler,
): (ctx: BlobContext, caller: StorageCaller) => Promise<void> {
  return (ctx, caller) =>
    handler(
      ctx,
      caller,
      blobOf(ctx, caller).client.withSnapshot(snapshotParameter(ctx)),
      sasOverrides(ctx, caller),
    );
}

/** Get Blob and Get Blob Properties (HEAD). */
export async function getBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  { client, target, conditions }: BlobCall,
): Promise<void> {
  askCore(caller, "readBlob", target);
  return answerRead(ctx, client, conditions, sasOverrides(ctx, caller));
}

/** Delete Blob. */
export async function deleteBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  { client, target, conditions }: BlobCall,
): Promise<void> {
  askCore(caller, "deleteBlob", target);
  refuseUnkeptHeaders(ctx);
  const deleteSnapshots = deleteSnapshotsHeader(ctx);
  const done = await client.delete({ conditions, ...(deleteSnapshots ? { deleteSnapshots } : {}) });
  // false when a delete retention policy kept the blob (Undelete Blob brings it back).
  send(ctx, 202, { "x-ms-delete-type-permanent": String(done.softDeleted !== true) });
}

/** Append Block and Append Block From URL (`x-ms-copy-source`). */
export async function appendBlock(
  ctx: BlobContext,
  caller: StorageCaller,
  { container, name, target, conditions }: BlobCall,
): Promise<void> {
  askCore(caller, "appendBlock", target);
  refuseUnkeptHeaders(ctx);
  const append = { ...conditions, ...appendConditions(ctx) };
  if (isCopy(ctx)) return appendBlockFromUrl(ctx, caller, container, name, append);
  const caps = caller.store.blobCapabilities!;
  const expected = expectedChecksums(ctx);
  const bytes = await readBodyBytes(ctx.req, caps.maxAppendBlockBytes);
  const verified = checkChecksums(expected, bytes, "crc64");
  // Append Block carries 1 byte to 4 MiB: an empty body is the service's InvalidHeaderValue (Content-Length).
  if (bytes.length === 0) {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for one of the HTTP headers is not in the correct format: Content-Length",
    );
  }
  const result = await container
    .getAppendBlobClient(name)
    .appendBlock(bytes, bytes.length, { conditions: append });
  writeResult(ctx, 201, result, {
    "x-ms-blob-append-offset": result.blobAppendOffset,
    "x-ms-blob-committed-block-count": String(result.blobCommittedBlockCount),
    ...verified,
  });
}

/** Put Page (Put Page From URL is not served). */
export async function putPageOf(
  ctx: BlobContext,
  caller: StorageCaller,
  { container, name, target, conditions }: BlobCall,
): Promise<void> {
  askCore(caller, "writeBlob", target);
  refuseUnkeptHeaders(ctx);
  if (isCopy(ctx)) throw notServed("Put Page From URL (x-ms-copy-source on Put Page)");
  return putPage(ctx, container, name, conditions, caller.store.blobCapabilities!.maxPageWriteBytes);
}

/** Get Page Ranges. */
export async function getPageRangesOf(
  ctx: BlobContext,
  caller: StorageCaller,
  { container, name, target, conditions }: BlobCall,
): Promise<void> {
  askCore(caller, "readBlob", target);
  return getPageRanges(ctx, container, name, conditions, requestedRange(ctx));
}

/** Append Blob Seal. */
export async function sealBlobOf(
  ctx: BlobContext,
  caller: StorageCaller,
  { container, name, target, conditions }: BlobCall,
): Promise<void> {
  askCore(caller, "writeBlob", target);
  refuseUnkeptHeaders(ctx);
  return sealBlob(ctx, container, name, conditions);
}

/** Set Blob Properties of a page blob's size or sequence number. */
export async function setPagePropertiesOf(
  ctx: BlobContext,
  caller: StorageCaller,
  { container, name, target, conditions }: BlobCall,
): Promise<void> {
  askCore(caller, "writeBlob", target);
  refuseUnkeptHeaders(ctx);
  return setPageProperties(ctx, container, name, conditions);
}

/** What the service answers a blob request no operation matches (after the conditions are read, as before). */
export function unmatchedBlobLevelRequest(ctx: BlobContext): never {
  const comp = ctx.query.get("comp");
  httpConditions(ctx);
  if (ctx.method === "GET" || ctx.method === "HEAD" || ctx.method === "PUT" || ctx.method === "DELETE") {
    throw notServed(`comp=${comp} on a blob`);
  }
  throw unsupportedVerb(ctx.method);
}

/** `x-ms-delete-snapshots`: include or only; any other value is the service's InvalidHeaderValue. */
function deleteSnapshotsHeader(ctx: BlobContext): "include" | "only" | undefined {
  const value = header(ctx, "x-ms-delete-snapshots");
  if (value === undefined || value === "include" || value === "only") return value;
  throw new ProtocolError(
    400,
    "InvalidHeaderValue",
    "The value for one of the HTTP headers is not in the correct format: x-ms-delete-snapshots",
  );
}

/** x-ms-blob-condition-appendpos and x-ms-blob-condition-maxsize, as the port's append conditions. */
function appendConditions(ctx: BlobContext): { appendPosition?: number; maxSize?: number } {
  const position = header(ctx, "x-ms-blob-condition-appendpos");
  const maxSize = header(ctx, "x-ms-blob-condition-maxsize");
  return {
    ...(position === undefined
      ? {}
      : { appendPosition: integerHeader("x-ms-blob-condition-appendpos", position) }),
    ...(maxSize === undefined ? {} : { maxSize: integerHeader("x-ms-blob-condition-maxsize", maxSize) }),
  };
}

function integerHeader(name: string, value: string): number {
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      `The value for one of the HTTP headers is not in the correct format: ${name}`,
    );
  }
  return Number(value);
}

/** Put Blob bodies up to this size are read whole (as the embedded store keeps them, in the row). */
const SMALL_PUT_BYTES = 64 * 1024;

export async function putBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCoreToWrite(caller, { container: container.containerName, blob: name });
  const type = header(ctx, "x-ms-blob-type");
  // A body's x-ms-blob-content-md5 checks it: malformed, 400 InvalidMd5 before anything else. An
  // append or page blob is created empty: its MD5 is a property, kept as given (as Set Blob Properties keeps it).
  if (type !== "AppendBlob" && type !== "PageBlob") blobMd5(ctx);
  refuseUnkeptHeaders(ctx);
  if (type === "AppendBlob") {
    if (tierHeader(ctx).tier !== undefined) {
      throw new TableKitError(
        "AccessTierNotSupportedForBlobType",
        "The access tier is not supported for this blob type.",
      );
    }
    const result = await container.getAppendBlobClient(name).create(blobOptions(ctx, conditions, "set"));
    writeResult(ctx, 201, result);
    return;
  }
  if (type === "PageBlob") return putPageBlob(ctx, container, name, conditions);
  if (type !== "BlockBlob") {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "x-ms-blob-type must be BlockBlob, AppendBlob or PageBlob.",
    );
  }
  const length = Number(header(ctx, "content-length") ?? "0");
  if (length > MAX_PUT_BLOB_BYTES) throw tooLarge(MAX_PUT_BLOB_BYTES);
  // x-ms-blob-content-md5 takes precedence over Content-MD5 as the body's check.
  const blobDigest = blobMd5(ctx);
  const expected = blobDigest ? { md5: blobDigest } : expectedChecksums(ctx);
  const blockBlob = container.getBlockBlobClient(name);
  if (header(ctx, "content-length") !== undefined && length <= SMALL_PUT_BYTES) {
    // A small body is read whole first: one upload of bytes, without a stream's machinery.
    const bytes = await readBodyBytes(ctx.req, SMALL_PUT_BYTES);
    const verified = checkChecksums(expected, bytes);
    const result = await blockBlob.upload(bytes, bytes.length, blobOptions(ctx, conditions));
    writeResult(ctx, 201, result, verified);
    return;
  }
  const checked = checkedBody(expected, ctx.req);
  const result = await writeChecked(checked, () =>
    blockBlob.uploadStream(checked.body, undefined, undefined, blobOptions(ctx, conditions)),
  );
  writeResult(ctx, 201, result);
}
