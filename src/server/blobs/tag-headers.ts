import type { OutgoingHttpHeaders } from "node:http";
import { TableKitError } from "../../model/index.js";
import { type AccessTier, type BlobProperties, type BlobTags, tagsFromPairs } from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";
import { escapeXml, httpDate } from "../protocol/xml.js";

/**
 * The headers and XML of blob index tags and access tiers: `x-ms-tags`, `x-ms-access-tier`,
 * `x-ms-if-tags` read from requests; the tag count and tier headers, listing elements and TagSet
 * written in responses. Pure translation: the port checks every rule.
 */

/** The service's bound on the `x-ms-tags` header, encoded. */
export const MAX_TAGS_HEADER = 2 * 1024;

function header(ctx: RequestContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** `x-ms-if-tags` as the port's `tagConditions` (parsed, and refused when malformed, by the port). */
export function ifTags(ctx: RequestContext): { tagConditions?: string } {
  const value = header(ctx, "x-ms-if-tags");
  return value === undefined ? {} : { tagConditions: value };
}

/** `x-ms-tags: k1=v1&k2=v2` (URL-encoded, `+` for space) as tags; InvalidTag when it is not. */
export function tagsHeader(ctx: RequestContext): { tags?: BlobTags } {
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
export function tierHeader(ctx: RequestContext): { tier?: AccessTier } {
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
export function annotationXml(p: Partial<BlobProperties>, beforeTagCount = ""): string {
  return `${p.accessTier ? `<AccessTier>${p.accessTier}</AccessTier>` : ""}${
    // Listings carry AccessTierInferred only when it is true, as the service writes them.
    p.accessTierInferred ? "<AccessTierInferred>true</AccessTierInferred>" : ""
  }${p.accessTierChangedOn ? `<AccessTierChangeTime>${httpDate(p.accessTierChangedOn)}</AccessTierChangeTime>` : ""}${
    p.archiveStatus ? `<ArchiveStatus>${p.archiveStatus}</ArchiveStatus>` : ""
  }${p.rehydratePriority ? `<RehydratePriority>${p.rehydratePriority}</RehydratePriority>` : ""}${beforeTagCount}${
    p.tagCount ? `<TagCount>${p.tagCount}</TagCount>` : ""
  }`;
}

export function tagSetXml(tags: BlobTags | undefined): string {
  if (tags === undefined) return "";
  return `<Tags><TagSet>${Object.entries(tags)
    .map(([k, v]) => `<Tag><Key>${escapeXml(k)}</Key><Value>${escapeXml(v)}</Value></Tag>`)
    .join("")}</TagSet></Tags>`;
}
