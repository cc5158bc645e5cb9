import {
  type AccessTier,
  type BlobContainer,
  type BlobOperation,
  type FilterBlobItem,
  type RehydratePriority,
  tagsFromPairs,
} from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { maxResults } from "../protocol/query-parameters.js";
import { child, escapeXml, invalidXml, parseXml } from "../protocol/xml.js";
import type { BlobContext } from "./blob-service.js";
import { ifTags, tagSetXml } from "./tag-headers.js";

/** Throws unless the caller may run `operation` (the route's askCore, handed in: no import of blob-service at run time). */
export type AllowBlob = (operation: BlobOperation) => void;

/**
 * Blob index tags and access tiers over HTTP: Set/Get Blob Tags (`comp=tags`), Set Blob Tier
 * (`comp=tier`), Find Blobs by Tags (`comp=blobs&where=`) on the account and a container, and the
 * headers uploads and reads carry (`x-ms-tags`, `x-ms-access-tier`, `x-ms-if-tags`). The port
 * checks every rule; this only translates.
 */

const XML = { "content-type": "application/xml" };
const HEAD = '<?xml version="1.0" encoding="utf-8"?>';
/** A Tags document of 10 tags of 128 + 256 characters fits well within this. */
const MAX_TAGS_BODY = 64 * 1024;
const PAGE = 5000;

/** `<Tags><TagSet><Tag><Key/><Value/></Tag>…</TagSet></Tags>` as key/value pairs. */
function parseTagsBody(text: string): [string, string][] {
  const root = parseXml(text);
  if (root.name !== "Tags") throw invalidXml("The body of Set Blob Tags is a <Tags> document.");
  const set = child(root, "TagSet");
  if (!set) return [];
  return set.children.map((tag) => {
    const key = tag.name === "Tag" ? child(tag, "Key") : undefined;
    if (!key) throw invalidXml("Each <Tag> holds a <Key> and a <Value>.");
    return [key.text, child(tag, "Value")?.text ?? ""];
  });
}

/** PUT/GET comp=tags on a blob. */
export async function answerBlobTags(
  ctx: BlobContext,
  allow: AllowBlob,
  container: BlobContainer,
  name: string,
  snapshot?: string,
): Promise<void> {
  // Get and Set Blob Tags of a snapshot (`snapshot`: its tags, kept as they were, or replaced).
  const blob = container.getBlobClient(name);
  const client = snapshot === undefined ? blob : blob.withSnapshot(snapshot);
  const leaseId = ctx.req.headers["x-ms-lease-id"];
  const conditions = {
    ...ifTags(ctx),
    // A leased blob's tags are set with its lease id; a given id must be the active lease's (the port checks).
    ...(typeof leaseId === "string" ? { leaseId } : {}),
  };
  if (ctx.method === "PUT") {
    allow("writeBlobTags");
    const pairs = parseTagsBody(await readBody(ctx.req, MAX_TAGS_BODY));
    await client.setTags(tagsFromPairs(pairs), { conditions });
    send(ctx, 204, {});
    return;
  }
  allow("readBlobTags");
  const { tags } = await client.getTags({ conditions });
  send(ctx, 200, XML, `${HEAD}${tagSetXml(tags)}`);
}

/** PUT comp=tier on a blob: 200, or 202 when a rehydration from Archive starts. */
export async function answerBlobTier(
  ctx: BlobContext,
  allow: AllowBlob,
  container: BlobContainer,
  name: string,
): Promise<void> {
  allow("setBlobTier");
  if (ctx.query.has("snapshot") || ctx.query.has("versionid")) {
    throw new ProtocolError(
      501,
      "NotImplemented",
      "tablekit serve does not serve tiers of snapshots or versions.",
    );
  }
  const tier = ctx.req.headers["x-ms-access-tier"] as string | undefined;
  if (tier === undefined || tier === "") {
    throw new ProtocolError(
      400,
      "MissingRequiredHeader",
      "An HTTP header that's mandatory for this request is not specified: x-ms-access-tier",
    );
  }
  const priority = ctx.req.headers["x-ms-rehydrate-priority"] as string | undefined;
  const { status } = await container.getBlobClient(name).setAccessTier(tier as AccessTier, {
    conditions: ifTags(ctx),
    ...(priority === undefined ? {} : { rehydratePriority: priority as RehydratePriority }),
  });
  send(ctx, status, {});
}

/** GET ?comp=blobs&where=… on the account, or ?restype=container&comp=blobs&where=… on a container. */
export async function answerFindBlobs(
  ctx: BlobContext,
  allow: AllowBlob,
  caller: StorageCaller,
  containerName?: string,
): Promise<void> {
  if (ctx.method !== "GET")
    throw new ProtocolError(405, "UnsupportedHttpVerb", "Find Blobs by Tags is a GET.");
  allow(containerName === undefined ? "findBlobsByTags" : "findBlobsByTagsInContainer");
  const where = ctx.query.get("where");
  if (where === null) {
    throw new ProtocolError(
      400,
      "MissingRequiredQueryParameter",
      "A query parameter that's mandatory for this request is not specified: where",
    );
  }
  const marker = ctx.query.get("marker") ?? undefined;
  const size = maxResults(ctx, PAGE);
  const store = caller.store;
  const listing =
    containerName === undefined
      ? store.findBlobsByTags(where)
      : store.container(containerName).findBlobsByTags(where);
  const next = await listing
    .byPage({
      ...(size === undefined ? {} : { maxPageSize: size }),
      ...(marker ? { continuationToken: marker } : {}),
    })
    .next();
  const page = next.done ? { blobs: [] as FilterBlobItem[], continuationToken: undefined } : next.value;
  const blobs = page.blobs
    .map(
      (b) =>
        `<Blob><Name>${escapeXml(b.name)}</Name><ContainerName>${escapeXml(b.containerName)}</ContainerName>${tagSetXml(
          b.tags,
        )}</Blob>`,
    )
    .join("");
  const container = containerName === undefined ? "" : ` ContainerName="${escapeXml(containerName)}"`;
  send(
    ctx,
    200,
    XML,
    `${HEAD}<EnumerationResults ServiceEndpoint="${escapeXml(ctx.baseUrl)}"${container}><Where>${escapeXml(
      where,
    )}</Where><Blobs>${blobs}</Blobs><NextMarker>${escapeXml(page.continuationToken ?? "")}</NextMarker></EnumerationResults>`,
  );
}
