import type { OutgoingHttpHeaders } from "node:http";
import {
  type BlobClient,
  type BlobRequestConditions,
  checkSnapshot,
  isNotModified,
} from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { send, standardHeaders, streamResponse } from "../http/responses.js";
import { metadataFromHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { askCore } from "./blob-ask.js";
import { httpConditions, notModified } from "./blob-conditions.js";
import { blobHeaders, header, requestedRange, writeResult } from "./blob-http.js";
import { md5Headers } from "./blob-property-routes.js";
import type { BlobContext } from "./blob-service.js";
import { getBlockList } from "./block-list-routes.js";
import { checkChecksummedLength, rangeChecksumHeader, rangeChecksumWanted } from "./content-checksum.js";
import { getPageRanges } from "./page-blob-routes.js";
import { answerBlobTags } from "./tag-routes.js";

/**
 * Snapshots over HTTP: Snapshot Blob (`comp=snapshot`), and reading (bytes, properties, tags,
 * block list, page ranges) or deleting a snapshot (`?snapshot=<time>`). A snapshot is read-only: any write naming one is 400
 * InvalidQueryParameterValue, as the service answers.
 */

/** The `snapshot` query parameter, checked (400 InvalidQueryParameterValue). */
export function snapshotParameter(ctx: BlobContext): string {
  return checkSnapshot(ctx.query.get("snapshot") ?? "");
}

export async function snapshotBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  client: BlobClient,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCore(caller, "createBlob", { container: client.containerName, blob: client.name });
  // Metadata given replaces the blob's on the snapshot; none given keeps the blob's.
  const given = ctx.req.rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase().startsWith("x-ms-meta-"));
  const result = await client.createSnapshot({
    conditions,
    ...(given ? { metadata: metadataFromHeaders(ctx.req) } : {}),
  });
  writeResult(ctx, 201, result, { "x-ms-snapshot": result.snapshot });
}

/** A snapshot operation's handler: the snapshot's client and the SAS's response overrides. */
export type SnapshotHandler = (
  ctx: BlobContext,
  caller: StorageCaller,
  snapshot: BlobClient,
  overrides: OutgoingHttpHeaders,
) => Promise<void>;

const targetOf = (snapshot: BlobClient) => ({ container: snapshot.containerName, blob: snapshot.name });

/** Get Blob and Get Blob Properties of a snapshot. */
export const getSnapshot: SnapshotHandler = async (ctx, caller, snapshot, overrides) => {
  askCore(caller, "readBlob", targetOf(snapshot));
  return readSnapshot(ctx, snapshot, overrides);
};

/** Get and Set Blob Tags of a snapshot (Set Blob Tags takes `snapshot` since 2020-08-04). */
export const snapshotTags: SnapshotHandler = async (ctx, caller, snapshot) => {
  const container = caller.store.container(snapshot.containerName);
  const allow = (op: Parameters<typeof askCore>[1]) => askCore(caller, op, targetOf(snapshot));
  return answerBlobTags(ctx, allow, container, snapshot.name, snapshot.snapshot!);
};

/** Get Block List of a snapshot: the committed list it kept. */
export const snapshotBlockList: SnapshotHandler = async (ctx, caller, snapshot) =>
  getBlockList(
    ctx,
    caller,
    caller.store.container(snapshot.containerName),
    snapshot.name,
    snapshot.snapshot!,
  );

/** Get Page Ranges of a snapshot (and, with `prevsnapshot`, the diff). */
export const snapshotPageRanges: SnapshotHandler = async (ctx, caller, snapshot) => {
  askCore(caller, "readBlob", targetOf(snapshot));
  const container = caller.store.container(snapshot.containerName);
  return getPageRanges(
    ctx,
    container,
    snapshot.name,
    httpConditions(ctx),
    requestedRange(ctx),
    snapshot.snapshot!,
  );
};

/** Delete Blob of one snapshot (`x-ms-delete-snapshots` names a blob's snapshots, not a snapshot's). */
export const deleteSnapshot: SnapshotHandler = async (ctx, caller, snapshot) => {
  askCore(caller, "deleteBlob", targetOf(snapshot));
  if (header(ctx, "x-ms-delete-snapshots") !== undefined) throw refused("x-ms-delete-snapshots");
  const done = await snapshot.delete();
  send(ctx, 202, { "x-ms-delete-type-permanent": String(done.softDeleted !== true) });
};

/** Any other operation naming a snapshot: a snapshot is read-only (400), an unknown verb as on a blob. */
export const refuseOnSnapshot: SnapshotHandler = async (ctx) => {
  if (ctx.method === "PUT" || ctx.method === "GET" || ctx.method === "HEAD" || ctx.method === "DELETE") {
    throw refused("snapshot");
  }
  throw unsupportedVerb(ctx.method);
};

/**
 * Get Blob (or its properties) of a snapshot: ranges and their MD5 or CRC64 as on the blob (a
 * snapshot never changes, so its conditions are evaluated against it).
 */
async function readSnapshot(
  ctx: BlobContext,
  snapshot: BlobClient,
  overrides: OutgoingHttpHeaders,
): Promise<void> {
  const conditions = httpConditions(ctx);
  if (ctx.method === "HEAD") {
    // Get Blob Properties ignores Range, as on the blob.
    const found = await snapshot.getProperties({ conditions }).catch(asNotModified);
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
  const download = await snapshot.download(range?.offset, range?.count, { conditions }).catch(asNotModified);
  if (checksum) {
    try {
      checkChecksummedLength(checksum, download.contentLength);
    } catch (err) {
      download.readableStreamBody.destroy();
      throw err;
    }
  }
  const rangeBytes = checksum ? await readAll(download.readableStreamBody) : undefined;
  ctx.res.writeHead(range ? 206 : 200, {
    ...standardHeaders(ctx),
    ...blobHeaders(download),
    ...md5Headers(download, range !== undefined, checksum === "md5" ? rangeBytes : undefined),
    ...(checksum === "crc64" && rangeBytes ? rangeChecksumHeader("crc64", rangeBytes) : {}),
    "content-length": String(download.contentLength),
    ...(download.contentRange ? { "content-range": download.contentRange } : {}),
    ...overrides,
  });
  if (rangeBytes) {
    ctx.res.end(rangeBytes);
    return;
  }
  await streamResponse(ctx, download.readableStreamBody, download.contentLength);
}

/** A read's If-None-Match / If-Modified-Since that held the snapshot unchanged: 304. */
function asNotModified(err: unknown): never {
  if (isNotModified(err)) throw notModified();
  throw err;
}

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function refused(what: string): ProtocolError {
  return new ProtocolError(
    400,
    "InvalidQueryParameterValue",
    `Value for one of the query parameters specified in the request URI is invalid: a snapshot is read-only (${what}).`,
  );
}
