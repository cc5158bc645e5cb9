import type {
  AppendBlockOptions,
  BlobClient,
  BlobContainer,
  BlobCopySourceConditions,
  BlobRequestConditions,
  CopySource,
} from "../../store/index.js";
import { copySourceRefusal } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { send } from "../http/responses.js";
import { metadataFromHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { askCore, askCoreToWrite, notServed } from "./blob-ask.js";
import { header, writeResult } from "./blob-http.js";
import type { BlobContext } from "./blob-service.js";
import { copySourceAccess } from "./copy-source-access.js";
import { tagsHeader, tierHeader } from "./tag-headers.js";

/**
 * Copy Blob, Copy Blob From URL, Put Blob From URL, Put Block From URL and Abort Copy Blob. A
 * source in the caller's own account, with the account key, is read through the store (no HTTP);
 * any other source URL is fetched, so it must be readable as its own server answers it (public,
 * or with a SAS in the URL), as the service requires.
 */

export function isCopy(ctx: BlobContext): boolean {
  return header(ctx, "x-ms-copy-source") !== undefined;
}

/**
 * The source: a blob of an account this server holds, read through the store its credential opens
 * (copy-source-access.ts), or any other URL, fetched (public, or with a SAS in it, as its server
 * answers). A source credential that fails is CannotVerifyCopySource with the source's status.
 */
async function copySource(ctx: BlobContext, caller: StorageCaller): Promise<CopySource> {
  // A bearer token for the source: refused rather than the source read under another rule.
  if (header(ctx, "x-ms-copy-source-authorization") !== undefined)
    throw notServed("the x-ms-copy-source-authorization header");
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
  const held = heldSource(ctx, url);
  if (!held) return text;
  const snapshot = url.searchParams.get("snapshot");
  const open = (store: StorageCaller["store"]) => {
    const blob = store.container(held.container).getBlobClient(held.blob);
    return snapshot ? blob.withSnapshot(snapshot) : blob;
  };
  // The destination's Shared Key authorizes a source in its own account (no SAS on the source).
  if (held.account === ctx.account && caller.keyHolder && !url.searchParams.has("sig"))
    return open(caller.store);
  const access = copySourceAccess(ctx);
  let sourceCaller: StorageCaller | undefined;
  try {
    sourceCaller = access ? await access({ ...held, query: url.searchParams }) : undefined;
  } catch (err) {
    throw copySourceRefusal(err);
  }
  return sourceCaller ? open(sourceCaller.store) : text;
}

/** The account, container and blob a source URL names on this server (path-style or this host), if it does. */
function heldSource(
  ctx: BlobContext,
  url: URL,
): { account: string; container: string; blob: string } | undefined {
  const base = new URL(ctx.baseUrl);
  if (url.origin !== base.origin) return undefined;
  let rest: string;
  let account = ctx.account;
  if (url.pathname.startsWith(base.pathname)) {
    rest = url.pathname.slice(base.pathname.length);
  } else if (ctx.pathStyle) {
    // Another account on this server: /account/container/blob.
    const [, other, ...tail] = url.pathname.split("/");
    if (!other) return undefined;
    account = decodeURIComponent(other);
    rest = tail.join("/");
  } else {
    return undefined;
  }
  const [container, ...blob] = rest.split("/");
  if (!container || blob.length === 0 || blob.join("/") === "") return undefined;
  return { account, container: decodeURIComponent(container), blob: decodeURIComponent(blob.join("/")) };
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
  const type = header(ctx, "x-ms-blob-type");
  // x-ms-source-content-md5 belongs to the synchronous copies (Copy Blob From URL, Put Blob From URL).
  const sync = type !== undefined || header(ctx, "x-ms-requires-sync")?.toLowerCase() === "true";
  const md5 = sync ? sourceMd5(ctx) : undefined;
  const source = await copySource(ctx, caller);
  const metadata = givenMetadata(ctx);
  const common = {
    sourceConditions: sourceConditions(ctx),
    ...(metadata ? { metadata } : {}),
    ...tagsHeader(ctx),
    ...tagOption(ctx),
    ...tierHeader(ctx),
    ...(md5 ? { sourceContentMD5: md5 } : {}),
  };
  const echo = md5 ? { "content-md5": Buffer.from(md5).toString("base64") } : {};
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
    writeResult(ctx, 201, result, echo);
    return;
  }
  const result = await client.syncCopyFromURL(source, {
    ...common,
    ...(seal ? { sealBlob: true } : {}),
    conditions,
    sourceUrl: header(ctx, "x-ms-copy-source")!,
  });
  writeResult(ctx, 202, result, {
    "x-ms-copy-id": result.copyId,
    "x-ms-copy-status": result.copyStatus,
    ...echo,
  });
}

/** x-ms-copy-source-tag-option: REPLACE (the default) or COPY, as written (case-sensitive). */
function tagOption(ctx: BlobContext): { copySourceTags?: "REPLACE" | "COPY" } {
  const value = header(ctx, "x-ms-copy-source-tag-option");
  if (value === undefined) return {};
  if (value !== "REPLACE" && value !== "COPY") {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for the x-ms-copy-source-tag-option header is REPLACE or COPY.",
    );
  }
  // COPY with x-ms-tags: the service takes the tags from one place only.
  if (value === "COPY" && header(ctx, "x-ms-tags") !== undefined) {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "x-ms-copy-source-tag-option: COPY takes the source's tags; x-ms-tags cannot be given as well.",
    );
  }
  return { copySourceTags: value };
}

/** x-ms-source-content-md5: the 16 bytes of an MD5, base64; anything else 400 InvalidHeaderValue. */
function sourceMd5(ctx: BlobContext): Uint8Array | undefined {
  const md5 = header(ctx, "x-ms-source-content-md5");
  if (md5 === undefined) return undefined;
  const bytes = Buffer.from(md5, "base64");
  if (bytes.length !== 16) {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for the x-ms-source-content-md5 header is not valid.",
    );
  }
  return bytes;
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
  const md5 = sourceMd5(ctx);
  await container
    .getBlockBlobClient(name)
    .stageBlockFromURL(blockId, await copySource(ctx, caller), offset, count, {
      sourceConditions: sourceConditions(ctx),
      ...(md5 ? { sourceContentMD5: md5 } : {}),
    });
  send(ctx, 201, {
    "x-ms-request-server-encrypted": "true",
    ...(md5 ? { "content-md5": Buffer.from(md5).toString("base64") } : {}),
  });
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
  const sourceContentMD5 = sourceMd5(ctx);
  const { offset, count } = sourceRange(ctx);
  const result = await container
    .getAppendBlobClient(name)
    .appendBlockFromURL(await copySource(ctx, caller), offset, count, {
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
