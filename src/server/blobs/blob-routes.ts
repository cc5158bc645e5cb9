import type { OutgoingHttpHeaders } from "node:http";
import { TableKitError } from "../../model/index.js";
import type {
  BlobClient,
  BlobContainer,
  BlobPart,
  BlobProperties,
  BlobRequestConditions,
} from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBodyBytes, tooLarge } from "../http/read-body.js";
import { send, standardHeaders, streamResponse } from "../http/responses.js";
import { metadataFromHeaders, metadataHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { httpDate } from "../protocol/xml.js";
import {
  type HttpConditions,
  httpConditions,
  underConditions,
  underWriteConditions,
} from "./blob-conditions.js";
import type { BlobContext, BlobDeps } from "./blob-service.js";
import { allowBlob, allowBlobWrite, notServed } from "./blob-service.js";
import { getBlockList, putBlock, putBlockList } from "./block-list-routes.js";
import { checkedBody, checkMd5, expectedMd5, writeChecked } from "./content-checksum.js";
import { abortCopy, copyBlob, isCopy, putBlockFromUrl } from "./copy-routes.js";
import { answerSnapshot, snapshotBlob, snapshotParameter } from "./snapshot-routes.js";

/**
 * The Blob service's blob operations, each turned into calls of the store's blob port (which
 * checks names, metadata, sizes and conditions) and answered as the service answers them.
 */

/** The most one Put Blob may carry (the service's limit since version 2019-12-12). */
const MAX_PUT_BLOB_BYTES = 5000 * 1024 * 1024;

/** Blob properties the port does not keep: refused rather than dropped. */
const UNKEPT_HEADERS = [
  "x-ms-blob-cache-control",
  "x-ms-blob-content-encoding",
  "x-ms-blob-content-language",
  "x-ms-blob-content-disposition",
  "x-ms-blob-content-md5",
  "x-ms-lease-id",
  "x-ms-tags",
  "x-ms-access-tier",
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

/** A blob's properties, or undefined when it does not exist (what conditions are evaluated against). */
export function propertiesOrNone(client: BlobClient): () => Promise<BlobProperties | undefined> {
  return () =>
    client.getProperties().catch((err: unknown) => {
      if (err instanceof TableKitError && err.code === "BlobNotFound") return undefined;
      throw err;
    });
}

export function header(ctx: BlobContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}

export function blobHeaders(p: BlobProperties): OutgoingHttpHeaders {
  return {
    etag: p.etag,
    "last-modified": httpDate(p.lastModified),
    "x-ms-blob-type": p.blobType,
    "content-type": p.contentType ?? "application/octet-stream",
    "x-ms-lease-state": "available",
    "x-ms-lease-status": "unlocked",
    "x-ms-server-encrypted": "true",
    "accept-ranges": "bytes",
    ...(p.blobCommittedBlockCount === undefined
      ? {}
      : { "x-ms-blob-committed-block-count": String(p.blobCommittedBlockCount) }),
    ...(p.copyId === undefined
      ? {}
      : {
          "x-ms-copy-id": p.copyId,
          "x-ms-copy-status": p.copyStatus,
          "x-ms-copy-source": p.copySource,
          "x-ms-copy-progress": p.copyProgress,
          ...(p.copyCompletedOn ? { "x-ms-copy-completion-time": httpDate(p.copyCompletedOn) } : {}),
        }),
    ...metadataHeaders(p.metadata),
  };
}

/**
 * A Blob service SAS may override response headers (`rsct`, `rscc`, …): they replace the stored
 * ones. Only a service SAS signs them; on any other request (an account SAS signs none, the key
 * needs none) they are ignored. A value a header cannot carry (a control character, a character
 * past U+00FF) is 400 InvalidQueryParameterValue, checked before the blob is read; so is Latin-1
 * past ASCII, which Node's response cannot send as sent (docs/server.md).
 */
function sasOverrides(ctx: BlobContext, caller: StorageCaller): OutgoingHttpHeaders {
  if (caller.kind !== "sas" || caller.signsOverrides !== true) return {};
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

export async function answerBlob(ctx: BlobContext, caller: StorageCaller, deps: BlobDeps): Promise<void> {
  const { container: containerName, blob: name } = ctx.resource as { container: string; blob: string };
  const container = deps.store(ctx.account).container(containerName);
  const client = container.getBlobClient(name);
  const comp = ctx.query.get("comp");
  if (ctx.query.has("versionid")) throw notServed("versions");
  if (ctx.query.has("snapshot"))
    return answerSnapshot(ctx, caller, deps, client.withSnapshot(snapshotParameter(ctx)));
  const conditions = httpConditions(ctx);
  const properties = propertiesOrNone(client);
  switch (`${ctx.method} ${comp ?? ""}`) {
    case "GET ":
    case "HEAD ": {
      allowBlob(caller, "readBlob", containerName, deps, ctx.account, ctx.method);
      const range = requestedRange(ctx);
      const overrides = sasOverrides(ctx, caller);
      const download = await underConditions(conditions, true, properties, (c) =>
        client.download(
          range?.offset,
          range?.count,
          c.ifMatch === undefined ? {} : { conditions: { ifMatch: c.ifMatch } },
        ),
      ).catch(async (err: unknown) => {
        // A 416 names the blob's length, as HTTP asks (Content-Range: bytes */length).
        const size =
          err instanceof TableKitError && err.code === "InvalidRange" ? await properties() : undefined;
        if (size) ctx.res.setHeader("content-range", `bytes */${size.contentLength}`);
        throw err;
      });
      const headers: OutgoingHttpHeaders = {
        ...standardHeaders(ctx),
        ...blobHeaders(download),
        "content-length": String(download.contentLength),
        ...(download.contentRange ? { "content-range": download.contentRange } : {}),
        ...overrides,
      };
      ctx.res.writeHead(range ? 206 : 200, headers);
      if (ctx.method === "HEAD") {
        download.readableStreamBody.destroy();
        ctx.res.end();
        return;
      }
      await streamResponse(ctx, download.readableStreamBody, download.contentLength);
      return;
    }
    case "PUT ":
      if (isCopy(ctx)) return copyBlob(ctx, caller, deps, container, name, conditions);
      return putBlob(ctx, caller, deps, container, name, conditions);
    case "PUT copy":
      return abortCopy(ctx, caller, deps, client);
    case "DELETE ": {
      allowBlob(caller, "deleteBlob", containerName, deps, ctx.account);
      refuseUnkeptHeaders(ctx);
      const deleteSnapshots = deleteSnapshotsHeader(ctx);
      await underConditions(conditions, false, properties, (c) =>
        client.delete({ conditions: c, ...(deleteSnapshots ? { deleteSnapshots } : {}) }),
      );
      send(ctx, 202, { "x-ms-delete-type-permanent": "true" });
      return;
    }
    case "PUT snapshot":
      return snapshotBlob(ctx, caller, deps, client, conditions);
    case "PUT block":
      if (isCopy(ctx)) return putBlockFromUrl(ctx, caller, deps, container, name);
      return putBlock(ctx, caller, deps, container, name);
    case "PUT blocklist":
      return putBlockList(ctx, caller, deps, container, name, conditions);
    case "GET blocklist":
      return getBlockList(ctx, caller, deps, container, name);
    case "PUT appendblock": {
      allowBlob(caller, "appendBlock", containerName, deps, ctx.account);
      refuseUnkeptHeaders(ctx);
      const caps = deps.store(ctx.account).blobCapabilities!;
      const md5 = expectedMd5(ctx);
      const bytes = await readBodyBytes(ctx.req, caps.maxAppendBlockBytes);
      checkMd5(md5, bytes);
      // Append Block carries 1 byte to 4 MiB: an empty body is the service's InvalidHeaderValue (Content-Length).
      if (bytes.length === 0) {
        throw new ProtocolError(
          400,
          "InvalidHeaderValue",
          "The value for one of the HTTP headers is not in the correct format: Content-Length",
        );
      }
      const position = header(ctx, "x-ms-blob-condition-appendpos");
      const maxSize = header(ctx, "x-ms-blob-condition-maxsize");
      const result = await underConditions(conditions, false, properties, (c) =>
        container.getAppendBlobClient(name).appendBlock(bytes, bytes.length, {
          conditions: {
            ...c,
            ...(position === undefined
              ? {}
              : { appendPosition: integerHeader("x-ms-blob-condition-appendpos", position) }),
            ...(maxSize === undefined
              ? {}
              : { maxSize: integerHeader("x-ms-blob-condition-maxsize", maxSize) }),
          },
        }),
      );
      writeResult(ctx, 201, result, {
        "x-ms-blob-append-offset": result.blobAppendOffset,
        "x-ms-blob-committed-block-count": String(result.blobCommittedBlockCount),
      });
      return;
    }
    case "PUT metadata":
    case "PUT properties":
      return rewriteProperties(ctx, caller, deps, container, name, conditions, comp === "metadata");
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

export function blobOptions(ctx: BlobContext, conditions: BlobRequestConditions) {
  const contentType = header(ctx, "x-ms-blob-content-type");
  return {
    ...(contentType === undefined ? {} : { blobHTTPHeaders: { blobContentType: contentType } }),
    metadata: metadataFromHeaders(ctx.req),
    conditions,
  };
}

/** Put Blob bodies up to this size are read whole (as the embedded store keeps them, in the row). */
const SMALL_PUT_BYTES = 64 * 1024;

async function putBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
  container: BlobContainer,
  name: string,
  conditions: HttpConditions,
): Promise<void> {
  const properties = propertiesOrNone(container.getBlobClient(name));
  const grant = await allowBlobWrite(
    caller,
    container.containerName,
    deps,
    ctx.account,
    async () => !!(await properties()),
  );
  refuseUnkeptHeaders(ctx);
  const type = header(ctx, "x-ms-blob-type");
  if (type === "AppendBlob") {
    const result = await underWriteConditions(grant, conditions, properties, (c) =>
      container.getAppendBlobClient(name).create(blobOptions(ctx, c)),
    );
    writeResult(ctx, 201, result);
    return;
  }
  if (type === "PageBlob") throw notServed("page blobs");
  if (type !== "BlockBlob") {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "x-ms-blob-type must be BlockBlob, AppendBlob or PageBlob.",
    );
  }
  const length = Number(header(ctx, "content-length") ?? "0");
  if (length > MAX_PUT_BLOB_BYTES) throw tooLarge(MAX_PUT_BLOB_BYTES);
  const md5 = expectedMd5(ctx);
  const blockBlob = container.getBlockBlobClient(name);
  if (header(ctx, "content-length") !== undefined && length <= SMALL_PUT_BYTES) {
    // A small body is read whole first: one upload of bytes, without a stream's machinery.
    const bytes = await readBodyBytes(ctx.req, SMALL_PUT_BYTES);
    checkMd5(md5, bytes);
    const result = await underWriteConditions(grant, conditions, properties, (c) =>
      blockBlob.upload(bytes, bytes.length, blobOptions(ctx, c)),
    );
    writeResult(ctx, 201, result);
    return;
  }
  const checked = checkedBody(md5, ctx.req);
  const result = await writeChecked(checked, () =>
    underWriteConditions(grant, conditions, properties, (c) =>
      blockBlob.uploadStream(checked.body, undefined, undefined, blobOptions(ctx, c)),
    ),
  );
  writeResult(ctx, 201, result);
}

/** Set Blob Metadata / Properties: the blob recommitted with its own bytes and the new metadata or content type, pinned to its ETag. */
async function rewriteProperties(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
  container: BlobContainer,
  name: string,
  conditions: HttpConditions,
  metadata: boolean,
): Promise<void> {
  allowBlob(caller, "writeBlob", container.containerName, deps, ctx.account);
  refuseUnkeptHeaders(ctx);
  const client = container.getBlobClient(name);
  const properties = propertiesOrNone(client);
  const current = await client.getProperties();
  if (current.blobType !== "BlockBlob")
    throw notServed("setting the metadata or properties of an append blob");
  const result = await underConditions(conditions, false, properties, async (c) => {
    const now = await client.getProperties(c.ifMatch ? { conditions: { ifMatch: c.ifMatch } } : {});
    const contentType = metadata
      ? now.contentType
      : (header(ctx, "x-ms-blob-content-type") ?? now.contentType);
    // The same bytes, kept from the blob as it is (linked where the store can: no copy).
    const whole: BlobPart = { kind: "current", offset: 0, size: now.contentLength };
    return container.getBlockBlobClient(name).commitParts([whole], {
      ...(contentType === undefined ? {} : { blobHTTPHeaders: { blobContentType: contentType } }),
      metadata: metadata ? metadataFromHeaders(ctx.req) : now.metadata,
      conditions: { ifMatch: now.etag },
      basedOn: now.etag,
      // The same bytes: the committed block list still describes them.
      keepBlockList: true,
    });
  });
  writeResult(ctx, 200, result);
}
