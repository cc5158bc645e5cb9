import type { OutgoingHttpHeaders } from "node:http";
import { type BlobClient, type BlobRequestConditions, checkSnapshot } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { send } from "../http/responses.js";
import { metadataFromHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { askCore } from "./blob-ask.js";
import { httpConditions } from "./blob-conditions.js";
import { header, requestedRange, writeResult } from "./blob-http.js";
import { answerRead } from "./blob-read.js";
import type { BlobContext } from "./blob-service.js";
import { getBlockList } from "./block-list-routes.js";
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
  // A snapshot never changes: its conditions are evaluated against it.
  return answerRead(ctx, snapshot, httpConditions(ctx), overrides);
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

function refused(what: string): ProtocolError {
  return new ProtocolError(
    400,
    "InvalidQueryParameterValue",
    `Value for one of the query parameters specified in the request URI is invalid: a snapshot is read-only (${what}).`,
  );
}
