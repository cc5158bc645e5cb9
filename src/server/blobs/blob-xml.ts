import type { BlobItem, ContainerItem, HierarchyItem } from "../../store/index.js";
import { escapeXml, httpDate } from "../protocol/xml.js";
import { deletedXml, deletionPropertiesXml } from "./soft-delete-routes.js";
import { annotationXml, tagSetXml } from "./tag-headers.js";

/** The Blob service's XML bodies: container and blob listings, block lists. */

const HEAD = '<?xml version="1.0" encoding="utf-8"?>';

function metadataXml(metadata: Readonly<Record<string, string>> | undefined): string {
  if (metadata === undefined) return "";
  return `<Metadata>${Object.entries(metadata)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join("")}</Metadata>`;
}

export interface ListingHead {
  readonly serviceEndpoint: string;
  readonly prefix?: string;
  readonly marker?: string;
  readonly maxResults?: number;
  readonly delimiter?: string;
  readonly nextMarker?: string;
}

function head(listing: ListingHead): string {
  return `${listing.prefix !== undefined ? `<Prefix>${escapeXml(listing.prefix)}</Prefix>` : ""}${
    listing.marker !== undefined ? `<Marker>${escapeXml(listing.marker)}</Marker>` : ""
  }${listing.maxResults !== undefined ? `<MaxResults>${listing.maxResults}</MaxResults>` : ""}${
    listing.delimiter !== undefined ? `<Delimiter>${escapeXml(listing.delimiter)}</Delimiter>` : ""
  }`;
}

/** A listed blob's or container's lease, as the listings show it. */
function leaseXml(p: { leaseState?: string; leaseStatus?: string; leaseDuration?: string }): string {
  return `<LeaseStatus>${p.leaseStatus ?? "unlocked"}</LeaseStatus><LeaseState>${p.leaseState ?? "available"}</LeaseState>${
    p.leaseDuration ? `<LeaseDuration>${p.leaseDuration}</LeaseDuration>` : ""
  }`;
}

/** A listed blob's content headers and creation time (after its Content-Type). */
function contentXml(p: BlobItem["properties"]): string {
  const one = (tag: string, value: string | undefined) =>
    value === undefined ? "" : `<${tag}>${escapeXml(value)}</${tag}>`;
  return `${one("Content-Encoding", p.contentEncoding)}${one("Content-Language", p.contentLanguage)}${one(
    "Content-MD5",
    p.contentMD5 ? Buffer.from(p.contentMD5).toString("base64") : undefined,
  )}${one("Content-Disposition", p.contentDisposition)}${one("Cache-Control", p.cacheControl)}${
    p.createdOn ? `<Creation-Time>${httpDate(p.createdOn)}</Creation-Time>` : ""
  }`;
}

/**
 * A copied blob's record, listed with include=copy (the port sets it only then, and on incremental
 * copies always). The destination snapshot is written under both names in use: List Blobs' docs
 * (and the legacy SDK) read CopyDestinationSnapshot, the current SDKs DestinationSnapshot.
 */
function copyXml(p: BlobItem["properties"]): string {
  if (p.copyId === undefined) return "";
  const one = (tag: string, value: string | undefined) =>
    value === undefined ? "" : `<${tag}>${escapeXml(value)}</${tag}>`;
  return `${one("CopyId", p.copyId)}${one("CopyStatus", p.copyStatus)}${one("CopySource", p.copySource)}${one(
    "CopyProgress",
    p.copyProgress,
  )}${one("CopyCompletionTime", p.copyCompletedOn ? httpDate(p.copyCompletedOn) : undefined)}${
    p.isIncrementalCopy ? "<IncrementalCopy>true</IncrementalCopy>" : ""
  }${one("CopyDestinationSnapshot", p.destinationSnapshot)}${one(
    "DestinationSnapshot",
    p.destinationSnapshot,
  )}`;
}

export function containerListingXml(
  listing: ListingHead & {
    readonly containers: readonly (ContainerItem & {
      readonly metadata?: Readonly<Record<string, string>>;
      readonly publicAccess?: string;
    })[];
  },
): string {
  const one = (c: (typeof listing.containers)[number]) =>
    `<Container><Name>${escapeXml(c.name)}</Name><Properties><Last-Modified>${httpDate(
      c.properties.lastModified,
    )}</Last-Modified><Etag>${escapeXml(c.properties.etag)}</Etag>${leaseXml(c.properties)}${
      c.publicAccess ? `<PublicAccess>${c.publicAccess}</PublicAccess>` : ""
    }<HasImmutabilityPolicy>false</HasImmutabilityPolicy><HasLegalHold>false</HasLegalHold></Properties>${metadataXml(
      c.metadata,
    )}</Container>`;
  return `${HEAD}<EnumerationResults ServiceEndpoint="${escapeXml(listing.serviceEndpoint)}">${head(
    listing,
  )}<Containers>${listing.containers.map(one).join("")}</Containers><NextMarker>${escapeXml(
    listing.nextMarker ?? "",
  )}</NextMarker></EnumerationResults>`;
}

export function blobListingXml(
  listing: ListingHead & { readonly containerName: string; readonly items: readonly HierarchyItem[] },
): string {
  const one = (item: HierarchyItem) => {
    if (item.kind === "prefix") return `<BlobPrefix><Name>${escapeXml(item.name)}</Name></BlobPrefix>`;
    const p = item.properties;
    const snapshot = item.snapshot === undefined ? "" : `<Snapshot>${item.snapshot}</Snapshot>`;
    return `<Blob><Name>${escapeXml(item.name)}</Name>${snapshot}${deletedXml(item)}<Properties><Last-Modified>${httpDate(
      p.lastModified,
    )}</Last-Modified><Etag>${escapeXml(p.etag.replace(/^"|"$/g, ""))}</Etag><Content-Length>${p.contentLength}</Content-Length><Content-Type>${escapeXml(
      p.contentType ?? "application/octet-stream",
    )}</Content-Type>${contentXml(p)}<BlobType>${p.blobType}</BlobType>${
      p.blobSequenceNumber === undefined
        ? ""
        : `<x-ms-blob-sequence-number>${p.blobSequenceNumber}</x-ms-blob-sequence-number>`
    }${p.isSealed ? "<Sealed>true</Sealed>" : ""}${leaseXml(p)}${copyXml(p)}<ServerEncrypted>true</ServerEncrypted>${annotationXml(
      p,
      deletionPropertiesXml(p),
    )}</Properties>${metadataXml(item.metadata)}${tagSetXml(item.tags)}</Blob>`;
  };
  return `${HEAD}<EnumerationResults ServiceEndpoint="${escapeXml(listing.serviceEndpoint)}" ContainerName="${escapeXml(
    listing.containerName,
  )}">${head(listing)}<Blobs>${listing.items.map(one).join("")}</Blobs><NextMarker>${escapeXml(
    listing.nextMarker ?? "",
  )}</NextMarker></EnumerationResults>`;
}

export interface ListedBlock {
  readonly id: string;
  readonly size: number;
}

export function blockListXml(
  committed: readonly ListedBlock[] | undefined,
  uncommitted: readonly ListedBlock[] | undefined,
): string {
  const blocks = (list: readonly ListedBlock[]) =>
    list.map((b) => `<Block><Name>${escapeXml(b.id)}</Name><Size>${b.size}</Size></Block>`).join("");
  return `${HEAD}<BlockList>${committed ? `<CommittedBlocks>${blocks(committed)}</CommittedBlocks>` : ""}${
    uncommitted ? `<UncommittedBlocks>${blocks(uncommitted)}</UncommittedBlocks>` : ""
  }</BlockList>`;
}
