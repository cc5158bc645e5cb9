import { createHash } from "node:crypto";
import { TableKitError } from "../../model/index.js";
import type { BlobContainer, BlobRequestConditions, BlockListEntry } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { httpDate, invalidXml, parseXml } from "../protocol/xml.js";
import { askCore, askCoreToWrite } from "./blob-ask.js";
import { blobOptions, header, refuseUnkeptHeaders, writeResult } from "./blob-http.js";
import type { BlobContext } from "./blob-service.js";
import { blockListXml } from "./blob-xml.js";
import { checkChecksums, checkedBody, expectedChecksums, writeChecked } from "./content-checksum.js";
import { ifTags } from "./tag-headers.js";

/**
 * Put Block, Put Block List and Get Block List: each one call of the blob port, which checks the
 * ids and limits, keeps the staged blocks and the committed block list, and commits without
 * copying a byte where the store can.
 */

/** The most a Put Block List body may carry (50,000 ids of 64 bytes, in XML). */
const MAX_BLOCK_LIST_XML = 8 * 1024 * 1024;

const LISTS = { Committed: "committed", Uncommitted: "uncommitted", Latest: "latest" } as const;

function parseBlockList(xml: string): BlockListEntry[] {
  const root = parseXml(xml);
  if (root.name !== "BlockList") throw invalidXml();
  return root.children.map((c) => {
    const list = Object.hasOwn(LISTS, c.name) ? LISTS[c.name as keyof typeof LISTS] : undefined;
    if (!list) throw invalidXml();
    return { id: c.text, list };
  });
}

export async function putBlock(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
): Promise<void> {
  askCoreToWrite(caller, { container: container.containerName, blob: name });
  refuseUnkeptHeaders(ctx);
  const declared = header(ctx, "content-length");
  // The port refuses a declared length past the block limit (413) before a byte is read.
  const length = declared === undefined ? undefined : Number(declared);
  const checked = checkedBody(expectedChecksums(ctx), ctx.req, "crc64");
  await writeChecked(checked, () =>
    container.getBlockBlobClient(name).stageBlock(ctx.query.get("blockid") ?? "", checked.body, length),
  );
  send(ctx, 201, { "x-ms-request-server-encrypted": "true", ...checked.headers() });
}

export async function putBlockList(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCoreToWrite(caller, { container: container.containerName, blob: name });
  refuseUnkeptHeaders(ctx);
  const xml = await readBody(ctx.req, MAX_BLOCK_LIST_XML);
  // A transactional checksum covers the block list sent (Md5Mismatch before anything is written);
  // the answer's Content-MD5 is always that of the list, as Put Block List documents it.
  const bytes = Buffer.from(xml, "utf8");
  const verified = checkChecksums(expectedChecksums(ctx), bytes);
  const blocks = parseBlockList(xml);
  const result = await container
    .getBlockBlobClient(name)
    .commitBlockList(blocks, blobOptions(ctx, conditions));
  writeResult(ctx, 201, result, {
    "content-md5": createHash("md5").update(bytes).digest("base64"),
    ...verified,
  });
}

export async function getBlockList(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  snapshot?: string,
): Promise<void> {
  askCore(caller, "readBlob", { container: container.containerName, blob: name });
  const type = (ctx.query.get("blocklisttype") ?? "committed").toLowerCase();
  if (type !== "committed" && type !== "uncommitted" && type !== "all") {
    throw new ProtocolError(
      400,
      "InvalidQueryParameterValue",
      `blocklisttype=${type} is not committed, uncommitted or all.`,
    );
  }
  // x-ms-if-tags: checked against the blob's tags first (a read: nothing changes in between that matters).
  const tagged = ifTags(ctx);
  if (tagged.tagConditions !== undefined) {
    await container.getBlobClient(name).getProperties({ conditions: tagged });
  }
  // An anonymous caller (a public container) sees committed blocks only, of a blob that exists.
  const anonymous = caller.anonymous;
  const blob = container.getBlockBlobClient(name);
  const client = snapshot === undefined ? blob : blob.withSnapshot(snapshot);
  const list = await client.getBlockList(anonymous ? "committed" : type);
  if (anonymous && list.etag === undefined) {
    throw new TableKitError("BlobNotFound", "The specified blob does not exist.");
  }
  const listed = (blocks: { name: string; size: number }[]) =>
    blocks.map((b) => ({ id: b.name, size: b.size }));
  send(
    ctx,
    200,
    {
      "content-type": "application/xml",
      ...(list.etag && list.lastModified
        ? { etag: list.etag, "last-modified": httpDate(list.lastModified) }
        : {}),
      "x-ms-blob-content-length": String(list.blobContentLength ?? 0),
    },
    blockListXml(
      type === "uncommitted" ? undefined : listed(list.committedBlocks),
      type === "committed" ? undefined : listed(list.uncommittedBlocks),
    ),
  );
}
