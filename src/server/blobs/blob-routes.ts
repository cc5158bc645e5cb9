import type { OutgoingHttpHeaders } from "node:http";
import { TableKitError } from "../../model/index.js";
import type { BlobContainer, BlobRequestConditions } from "../../store/index.js";
import { isNotModified } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBodyBytes, tooLarge } from "../http/read-body.js";
import { send, standardHeaders, streamResponse } from "../http/responses.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { askCore, askCoreToWrite, notServed } from "./blob-ask.js";
import { httpConditions, notModified } from "./blob-conditions.js";
import {
  blobHeaders,
  blobOptions,
  header,
  refuseUnkeptHeaders,
  requestedRange,
  writeResult,
} from "./blob-http.js";
import {
  blobMd5,
  getBlobMetadata,
  leaseResource,
  md5Headers,
  setBlobMetadata,
  setBlobProperties,
} from "./blob-property-routes.js";
import type { BlobContext } from "./blob-service.js";
import { getBlockList, putBlock, putBlockList } from "./block-list-routes.js";
import {
  checkChecksummedLength,
  checkChecksums,
  checkedBody,
  expectedChecksums,
  rangeChecksumHeader,
  rangeChecksumWanted,
  writeChecked,
} from "./content-checksum.js";
import { abortCopy, appendBlockFromUrl, copyBlob, isCopy, putBlockFromUrl } from "./copy-routes.js";
import { incrementalCopy } from "./incremental-copy-route.js";
import {
  asksPageProperties,
  getPageRanges,
  putPage,
  putPageBlob,
  sealBlob,
  setPageProperties,
} from "./page-blob-routes.js";
import { answerSnapshot, snapshotBlob, snapshotParameter } from "./snapshot-routes.js";
import { tierHeader } from "./tag-headers.js";
import { answerBlobTags, answerBlobTier } from "./tag-routes.js";

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

export async function answerBlob(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { container: containerName, blob: name } = ctx.resource as { container: string; blob: string };
  const container = caller.store.container(containerName);
  const client = container.getBlobClient(name);
  const target = { container: containerName, blob: name };
  const comp = ctx.query.get("comp");
  if (ctx.query.has("versionid")) throw notServed("versions");
  if (ctx.query.has("snapshot"))
    return answerSnapshot(
      ctx,
      caller,
      client.withSnapshot(snapshotParameter(ctx)),
      sasOverrides(ctx, caller),
    );
  const conditions = httpConditions(ctx);
  switch (`${ctx.method} ${comp ?? ""}`) {
    case "GET ":
    case "HEAD ": {
      askCore(caller, "readBlob", target);
      const overrides = sasOverrides(ctx, caller);
      // Get Blob Properties ignores Range and x-ms-range (HTTP defines range handling for GET
      // only): its Content-Length is the blob's, which the legacy SDK sizes its ranged reads by.
      if (ctx.method === "HEAD") {
        // Get Blob Properties: answers for an archived blob too, whose bytes cannot be opened.
        const found = await client.getProperties({ conditions }).catch((err: unknown) => {
          if (isNotModified(err)) throw notModified();
          throw err;
        });
        ctx.res.writeHead(200, {
          ...standardHeaders(ctx),
          ...blobHeaders(found),
          ...md5Headers(found, false),
          "content-length": String(found.contentLength),
          ...overrides,
        });
        ctx.res.end();
        return;
      }
      const range = requestedRange(ctx);
      const checksum = rangeChecksumWanted(ctx, range);
      const download = await client
        .download(range?.offset, range?.count, { conditions })
        .catch(async (err: unknown) => {
          if (isNotModified(err)) throw notModified();
          // A 416 names the blob's length, as HTTP asks (Content-Range: bytes */length).
          const size =
            err instanceof TableKitError && err.code === "InvalidRange"
              ? await client.getProperties().catch(() => undefined)
              : undefined;
          if (size) ctx.res.setHeader("content-range", `bytes */${size.contentLength}`);
          throw err;
        });
      // A range's checksum needs its bytes first (at most 4 MiB, checked above): read whole.
      if (checksum) {
        try {
          checkChecksummedLength(checksum, download.contentLength);
        } catch (err) {
          download.readableStreamBody.destroy();
          throw err;
        }
      }
      const rangeBytes = checksum ? await readAll(download.readableStreamBody) : undefined;
      const headers: OutgoingHttpHeaders = {
        ...standardHeaders(ctx),
        ...blobHeaders(download),
        ...md5Headers(download, range !== undefined, checksum === "md5" ? rangeBytes : undefined),
        ...(checksum === "crc64" && rangeBytes ? rangeChecksumHeader("crc64", rangeBytes) : {}),
        "content-length": String(download.contentLength),
        ...(download.contentRange ? { "content-range": download.contentRange } : {}),
        ...overrides,
      };
      ctx.res.writeHead(range ? 206 : 200, headers);
      if (rangeBytes) {
        ctx.res.end(rangeBytes);
        return;
      }
      await streamResponse(ctx, download.readableStreamBody, download.contentLength);
      return;
    }
    case "PUT ":
      if (isCopy(ctx)) return copyBlob(ctx, caller, container, name, conditions);
      return putBlob(ctx, caller, container, name, conditions);
    case "PUT incrementalcopy":
      return incrementalCopy(ctx, caller, container, name, conditions);
    case "PUT copy":
      return abortCopy(ctx, caller, client);
    case "PUT snapshot":
      return snapshotBlob(ctx, caller, client, conditions);
    case "DELETE ": {
      askCore(caller, "deleteBlob", target);
      refuseUnkeptHeaders(ctx);
      const deleteSnapshots = deleteSnapshotsHeader(ctx);
      await client.delete({ conditions, ...(deleteSnapshots ? { deleteSnapshots } : {}) });
      send(ctx, 202, { "x-ms-delete-type-permanent": "true" });
      return;
    }
    case "PUT block":
      if (isCopy(ctx)) return putBlockFromUrl(ctx, caller, container, name);
      return putBlock(ctx, caller, container, name);
    case "PUT blocklist":
      return putBlockList(ctx, caller, container, name, conditions);
    case "GET blocklist":
      return getBlockList(ctx, caller, container, name);
    case "PUT appendblock": {
      askCore(caller, "appendBlock", target);
      refuseUnkeptHeaders(ctx);
      const append = { ...conditions, ...appendConditions(ctx) };
      if (isCopy(ctx)) return appendBlockFromUrl(ctx, caller, container, name, append);
      const caps = caller.store.blobCapabilities!;
      const expected = expectedChecksums(ctx);
      const bytes = await readBodyBytes(ctx.req, caps.maxAppendBlockBytes);
      const verified = checkChecksums(expected, bytes);
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
      return;
    }
    case "PUT tags":
    case "GET tags":
      return answerBlobTags(ctx, (op) => askCore(caller, op, target), container, name);
    case "PUT tier":
      return answerBlobTier(ctx, (op) => askCore(caller, op, target), container, name);
    case "PUT page":
      askCore(caller, "writeBlob", target);
      refuseUnkeptHeaders(ctx);
      if (isCopy(ctx)) throw notServed("Put Page From URL (x-ms-copy-source on Put Page)");
      return putPage(ctx, container, name, conditions, caller.store.blobCapabilities!.maxPageWriteBytes);
    case "GET pagelist":
    case "HEAD pagelist":
      askCore(caller, "readBlob", target);
      return getPageRanges(ctx, container, name, conditions, requestedRange(ctx));
    case "PUT seal":
      askCore(caller, "writeBlob", target);
      refuseUnkeptHeaders(ctx);
      return sealBlob(ctx, container, name, conditions);
    case "PUT metadata":
      return setBlobMetadata(ctx, caller, container, name, conditions);
    case "PUT properties":
      if (asksPageProperties(ctx)) {
        askCore(caller, "writeBlob", target);
        refuseUnkeptHeaders(ctx);
        return setPageProperties(ctx, container, name, conditions);
      }
      return setBlobProperties(ctx, caller, container, name, conditions);
    case "GET metadata":
    case "HEAD metadata":
      return getBlobMetadata(ctx, caller, container, name, conditions);
    case "PUT lease":
      return leaseResource(ctx, caller, container, name, conditions);
    default:
      if (ctx.method === "GET" || ctx.method === "HEAD" || ctx.method === "PUT" || ctx.method === "DELETE") {
        throw notServed(`comp=${comp} on a blob`);
      }
      throw unsupportedVerb(ctx.method);
  }
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

async function putBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCoreToWrite(caller, { container: container.containerName, blob: name });
  blobMd5(ctx); // a malformed x-ms-blob-content-md5 is 400 InvalidMd5 before anything else
  refuseUnkeptHeaders(ctx);
  const type = header(ctx, "x-ms-blob-type");
  if (type === "AppendBlob") {
    if (tierHeader(ctx).tier !== undefined) {
      throw new TableKitError(
        "AccessTierNotSupportedForBlobType",
        "The access tier is not supported for this blob type.",
      );
    }
    const result = await container.getAppendBlobClient(name).create(blobOptions(ctx, conditions));
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

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
