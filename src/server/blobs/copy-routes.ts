import type {
  AppendBlockOptions,
  BlobClient,
  BlobContainer,
  BlobCopySourceConditions,
  BlobRequestConditions,
  CopySource,
} from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { send } from "../http/responses.js";
import { metadataFromHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { askCore, askCoreToWrite, notServed } from "./blob-ask.js";
import { header, writeResult } from "./blob-http.js";
import type { BlobContext } from "./blob-service.js";

/**
 * Copy Blob, Copy Blob From URL, Put Blob From URL, Put Block From URL and Abort Copy Blob. A
 * source in the caller's own account, with the account key, is read through the store (no HTTP);
 * any other source URL is fetched, so it must be readable as its own server answers it (public,
 * or with a SAS in the URL), as the service requires.
 */

export function isCopy(ctx: BlobContext): boolean {
  return header(ctx, "x-ms-copy-source") !== undefined;
}

/** The source: a blob client of this store, or the URL to fetch. */
function copySource(ctx: BlobContext, caller: StorageCaller): CopySource {
  const text = header(ctx, "x-ms-copy-source")!;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for the x-ms-copy-source header is not a URL.",
    );
  }
  const base = new URL(ctx.baseUrl);
  // A source URL with its own SAS is read with that SAS (over HTTP), which may refuse the read.
  const ownSas = url.searchParams.has("sig");
  if (caller.keyHolder && !ownSas && url.origin === base.origin && url.pathname.startsWith(base.pathname)) {
    const [container, ...rest] = url.pathname.slice(base.pathname.length).split("/");
    if (container && rest.length > 0) {
      const blob = caller.store
        .container(decodeURIComponent(container))
        .getBlobClient(decodeURIComponent(rest.join("/")));
      const snapshot = url.searchParams.get("snapshot");
      return snapshot ? blob.withSnapshot(snapshot) : blob;
    }
  }
  return text;
}

function sourceConditions(ctx: BlobContext): BlobCopySourceConditions {
  const date = (name: string) => {
    const v = header(ctx, name);
    return v === undefined || Number.isNaN(Date.parse(v)) ? undefined : new Date(v);
  };
  const ifMatch = header(ctx, "x-ms-source-if-match");
  const ifNoneMatch = header(ctx, "x-ms-source-if-none-match");
  const ifModifiedSince = date("x-ms-source-if-modified-since");
  const ifUnmodifiedSince = date("x-ms-source-if-unmodified-since");
  return {
    ...(ifMatch ? { ifMatch } : {}),
    ...(ifNoneMatch ? { ifNoneMatch } : {}),
    ...(ifModifiedSince ? { ifModifiedSince } : {}),
    ...(ifUnmodifiedSince ? { ifUnmodifiedSince } : {}),
  };
}

/** Metadata given on the request, or undefined when none is (Copy Blob then keeps the source's). */
function givenMetadata(ctx: BlobContext): Record<string, string> | undefined {
  const given = ctx.req.rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase().startsWith("x-ms-meta-"));
  return given ? metadataFromHeaders(ctx.req) : undefined;
}

/** PUT with x-ms-copy-source: Put Blob From URL when x-ms-blob-type is given, else Copy Blob (From URL). */
export async function copyBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  // A token with `c` and no `w` copies to a new blob only (the SAS permission table): the port
  // makes that write create-only.
  askCoreToWrite(caller, { container: container.containerName, blob: name });
  // The seal is not copied: x-ms-seal-blob asks for a sealed copy of an append blob.
  const seal = header(ctx, "x-ms-seal-blob")?.toLowerCase() === "true";
  const client = container.getBlobClient(name);
  const source = copySource(ctx, caller);
  const metadata = givenMetadata(ctx);
  const common = {
    sourceConditions: sourceConditions(ctx),
    ...(metadata ? { metadata } : {}),
  };
  const type = header(ctx, "x-ms-blob-type");
  if (type !== undefined) {
    if (type !== "BlockBlob") {
      throw new ProtocolError(400, "InvalidHeaderValue", "Put Blob From URL writes block blobs only.");
    }
    const contentType = header(ctx, "x-ms-blob-content-type");
    const result = await container.getBlockBlobClient(name).syncUploadFromURL(source, {
      ...common,
      conditions,
      ...(contentType === undefined ? {} : { blobHTTPHeaders: { blobContentType: contentType } }),
    });
    writeResult(ctx, 201, result);
    return;
  }
  const result = await client.syncCopyFromURL(source, {
    ...common,
    ...(seal ? { sealBlob: true } : {}),
    conditions,
    sourceUrl: header(ctx, "x-ms-copy-source")!,
  });
  writeResult(ctx, 202, result, { "x-ms-copy-id": result.copyId, "x-ms-copy-status": result.copyStatus });
}

/** x-ms-source-range `bytes=a-b` (or `bytes=a-`) as offset and count; absent, the whole source. */
function sourceRange(ctx: BlobContext): { offset: number; count: number | undefined } {
  const rangeText = header(ctx, "x-ms-source-range");
  if (rangeText === undefined) return { offset: 0, count: undefined };
  const m = /^bytes=(\d+)-(\d+)?$/.exec(rangeText.trim());
  if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for the x-ms-source-range header is not valid.",
    );
  }
  const offset = Number(m[1]);
  return { offset, count: m[2] === undefined ? undefined : Number(m[2]) - offset + 1 };
}

/** Put Block From URL: x-ms-source-range `bytes=a-b` of the source, or all of it. */
export async function putBlockFromUrl(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
): Promise<void> {
  askCore(caller, "writeBlob", { container: container.containerName, blob: name });
  const blockId = ctx.query.get("blockid") ?? "";
  const { offset, count } = sourceRange(ctx);
  await container
    .getBlockBlobClient(name)
    .stageBlockFromURL(blockId, copySource(ctx, caller), offset, count, {
      sourceConditions: sourceConditions(ctx),
    });
  send(ctx, 201, { "x-ms-request-server-encrypted": "true" });
}

/**
 * Append Block From URL: the source range (or all of the source) appended as one block, under the
 * append conditions and the source's. The request carries no body (Content-Length 0, as the
 * service requires); x-ms-source-content-md5 is checked against the bytes read.
 */
export async function appendBlockFromUrl(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: AppendBlockOptions["conditions"],
): Promise<void> {
  askCore(caller, "appendBlock", { container: container.containerName, blob: name });
  const length = header(ctx, "content-length");
  if (length !== undefined && length.trim() !== "0") {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for one of the HTTP headers is not in the correct format: Content-Length",
    );
  }
  if (header(ctx, "x-ms-source-content-crc64") !== undefined) {
    throw notServed("the x-ms-source-content-crc64 header on Append Block From URL");
  }
  const md5 = header(ctx, "x-ms-source-content-md5");
  const sourceContentMD5 = md5 === undefined ? undefined : Buffer.from(md5, "base64");
  if (sourceContentMD5 !== undefined && sourceContentMD5.length !== 16) {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for the x-ms-source-content-md5 header is not valid.",
    );
  }
  const { offset, count } = sourceRange(ctx);
  const result = await container
    .getAppendBlobClient(name)
    .appendBlockFromURL(copySource(ctx, caller), offset, count, {
      sourceConditions: sourceConditions(ctx),
      ...(conditions ? { conditions } : {}),
      ...(sourceContentMD5 ? { sourceContentMD5 } : {}),
    });
  writeResult(ctx, 201, result, {
    "x-ms-blob-append-offset": result.blobAppendOffset,
    "x-ms-blob-committed-block-count": String(result.blobCommittedBlockCount),
    "x-ms-request-server-encrypted": "true",
  });
}

/** Abort Copy Blob: no copy here is ever pending (409 NoPendingCopyOperation), as the port answers. */
export async function abortCopy(ctx: BlobContext, caller: StorageCaller, client: BlobClient): Promise<void> {
  askCore(caller, "writeBlob", { container: client.containerName, blob: client.name });
  if (header(ctx, "x-ms-copy-action") !== "abort") {
    throw new ProtocolError(400, "InvalidHeaderValue", "Abort Copy Blob needs x-ms-copy-action: abort.");
  }
  await client.abortCopyFromURL(ctx.query.get("copyid") ?? "");
}
