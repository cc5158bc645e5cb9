import type { OutgoingHttpHeaders } from "node:http";
import { TableKitError } from "../../model/index.js";
import {
  type AccessTier,
  type BlobContainer,
  type BlobProperties,
  type BlobTags,
  type FilterBlobItem,
  type RehydratePriority,
  type Store,
  tagsFromPairs,
} from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { maxResults } from "../protocol/query-parameters.js";
import { child, escapeXml, httpDate, invalidXml, parseXml } from "../protocol/xml.js";
import type { BlobContext, BlobDeps } from "./blob-service.js";
import { allowBlob } from "./blob-service.js";

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
/** The service's bound on the `x-ms-tags` header, encoded. */
export const MAX_TAGS_HEADER = 2 * 1024;
const PAGE = 5000;

function header(ctx: BlobContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** `x-ms-if-tags` as the port's `tagConditions` (parsed, and refused when malformed, by the port). */
export function ifTags(ctx: BlobContext): { tagConditions?: string } {
  const value = header(ctx, "x-ms-if-tags");
  return value === undefined ? {} : { tagConditions: value };
}

/** `x-ms-tags: k1=v1&k2=v2` (URL-encoded, `+` for space) as tags; InvalidTag when it is not. */
export function tagsHeader(ctx: BlobContext): { tags?: BlobTags } {
  const value = header(ctx, "x-ms-tags");
  if (value === undefined || value === "") return {};
  if (value.length > MAX_TAGS_HEADER) {
    throw new TableKitError(
      "TagsTooLarge",
      `The x-ms-tags header holds at most ${MAX_TAGS_HEADER} characters.`,
    );
  }
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, "%20"));
    } catch (cause) {
      throw new TableKitError("InvalidTag", "The x-ms-tags header is not URL-encoded.", { cause });
    }
  };
  const pairs = value.split("&").map((pair): [string, string] => {
    const cut = pair.indexOf("=");
    return cut < 0 ? [decode(pair), ""] : [decode(pair.slice(0, cut)), decode(pair.slice(cut + 1))];
  });
  return { tags: tagsFromPairs(pairs) };
}

/** `x-ms-access-tier` on an upload: the port checks the name and the blob type. */
export function tierHeader(ctx: BlobContext): { tier?: AccessTier } {
  const value = header(ctx, "x-ms-access-tier");
  return value === undefined || value === "" ? {} : { tier: value as AccessTier };
}

/** The tag count and tier headers of Get Blob and Get Blob Properties. */
export function annotationHeaders(p: BlobProperties): OutgoingHttpHeaders {
  return {
    ...(p.tagCount ? { "x-ms-tag-count": String(p.tagCount) } : {}),
    ...(p.accessTier ? { "x-ms-access-tier": p.accessTier } : {}),
    ...(p.accessTierInferred === undefined
      ? {}
      : { "x-ms-access-tier-inferred": String(p.accessTierInferred) }),
    ...(p.accessTierChangedOn ? { "x-ms-access-tier-change-time": httpDate(p.accessTierChangedOn) } : {}),
    ...(p.archiveStatus ? { "x-ms-archive-status": p.archiveStatus } : {}),
    ...(p.rehydratePriority ? { "x-ms-rehydrate-priority": p.rehydratePriority } : {}),
  };
}

/** The tier and tag-count elements of a listed blob's `<Properties>`. */
export function annotationXml(p: Partial<BlobProperties>): string {
  return `${p.accessTier ? `<AccessTier>${p.accessTier}</AccessTier>` : ""}${
    // Listings carry AccessTierInferred only when it is true, as the service writes them.
    p.accessTierInferred ? "<AccessTierInferred>true</AccessTierInferred>" : ""
  }${p.accessTierChangedOn ? `<AccessTierChangeTime>${httpDate(p.accessTierChangedOn)}</AccessTierChangeTime>` : ""}${
    p.archiveStatus ? `<ArchiveStatus>${p.archiveStatus}</ArchiveStatus>` : ""
  }${p.rehydratePriority ? `<RehydratePriority>${p.rehydratePriority}</RehydratePriority>` : ""}${
    p.tagCount ? `<TagCount>${p.tagCount}</TagCount>` : ""
  }`;
}

export function tagSetXml(tags: BlobTags | undefined): string {
  if (tags === undefined) return "";
  return `<Tags><TagSet>${Object.entries(tags)
    .map(([k, v]) => `<Tag><Key>${escapeXml(k)}</Key><Value>${escapeXml(v)}</Value></Tag>`)
    .join("")}</TagSet></Tags>`;
}

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
  caller: StorageCaller,
  deps: BlobDeps,
  container: BlobContainer,
  name: string,
): Promise<void> {
  const client = container.getBlobClient(name);
  const conditions = ifTags(ctx);
  if (ctx.query.has("snapshot") || ctx.query.has("versionid")) {
    throw new ProtocolError(
      501,
      "NotImplemented",
      "tablekit serve does not serve tags of snapshots or versions.",
    );
  }
  if (ctx.method === "PUT") {
    allowBlob(caller, "writeBlobTags", container.containerName, deps, ctx.account);
    const pairs = parseTagsBody(await readBody(ctx.req, MAX_TAGS_BODY));
    await client.setTags(tagsFromPairs(pairs), { conditions });
    send(ctx, 204, {});
    return;
  }
  allowBlob(caller, "readBlobTags", container.containerName, deps, ctx.account);
  const { tags } = await client.getTags({ conditions });
  send(ctx, 200, XML, `${HEAD}${tagSetXml(tags)}`);
}

/** PUT comp=tier on a blob: 200, or 202 when a rehydration from Archive starts. */
export async function answerBlobTier(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
  container: BlobContainer,
  name: string,
): Promise<void> {
  allowBlob(caller, "setBlobTier", container.containerName, deps, ctx.account);
  if (ctx.query.has("snapshot") || ctx.query.has("versionid")) {
    throw new ProtocolError(
      501,
      "NotImplemented",
      "tablekit serve does not serve tiers of snapshots or versions.",
    );
  }
  const tier = header(ctx, "x-ms-access-tier");
  if (tier === undefined || tier === "") {
    throw new ProtocolError(
      400,
      "MissingRequiredHeader",
      "An HTTP header that's mandatory for this request is not specified: x-ms-access-tier",
    );
  }
  const priority = header(ctx, "x-ms-rehydrate-priority");
  const { status } = await container.getBlobClient(name).setAccessTier(tier as AccessTier, {
    conditions: ifTags(ctx),
    ...(priority === undefined ? {} : { rehydratePriority: priority as RehydratePriority }),
  });
  send(ctx, status, {});
}

/** GET ?comp=blobs&where=… on the account, or ?restype=container&comp=blobs&where=… on a container. */
export async function answerFindBlobs(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
  containerName?: string,
): Promise<void> {
  if (ctx.method !== "GET")
    throw new ProtocolError(405, "UnsupportedHttpVerb", "Find Blobs by Tags is a GET.");
  allowBlob(
    caller,
    containerName === undefined ? "findBlobsByTags" : "findBlobsByTagsInContainer",
    containerName,
    deps,
    ctx.account,
  );
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
  const store: Store = deps.store(ctx.account);
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
