import type {
  AccessTier,
  ArchiveStatus,
  BackendWriteResult,
  BlobType,
  RehydratePriority,
  StoredBlobProperties,
  StoredDeletion,
} from "../../blobs/blob-backend.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import { contentHeadersOf, leaseViewOf } from "./blob-properties-sdk.js";
import type { SdkBlobClient, SdkBlobProperties, SdkContainerClient } from "./blob-sdk.js";

/** What `@azure/storage-blob` answers, as the blob port's stored values (properties, write results, deletions), and the annotations an upload carries. */

export function annotations(upload: { tags?: BlobTags; tier?: string }): { tags?: BlobTags; tier?: string } {
  return {
    ...(upload.tags && Object.keys(upload.tags).length > 0 ? { tags: upload.tags } : {}),
    ...(upload.tier ? { tier: upload.tier } : {}),
  };
}

export function blobAt(
  client: SdkContainerClient,
  name: string,
  snapshot: string | undefined,
): SdkBlobClient {
  const blob = client.getBlobClient(name);
  return snapshot === undefined ? blob : blob.withSnapshot(snapshot);
}

export function written(r: { etag?: string; lastModified?: Date }): BackendWriteResult {
  return { etag: r.etag ?? "", lastModified: r.lastModified ?? new Date(0) };
}

/** The blob's whole length: from `Content-Range` (`bytes a-b/total`) when a range was served. */
export function totalLength(p: SdkBlobProperties): number {
  const m = /\/(\d+)$/.exec(p.contentRange ?? "");
  return m ? Number(m[1]) : (p.contentLength ?? 0);
}

export function toStored(p: SdkBlobProperties, contentLength: number): StoredBlobProperties {
  const blobType: BlobType =
    p.blobType === "AppendBlob" || p.blobType === "PageBlob" ? p.blobType : "BlockBlob";
  const headers = contentHeadersOf(p);
  return {
    etag: p.etag ?? "",
    lastModified: p.lastModified ?? new Date(0),
    contentLength,
    ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
    // The service compares metadata names case-insensitively; the port reports them lower-cased.
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    blobType,
    ...(blobType === "AppendBlob"
      ? { committedBlockCount: p.blobCommittedBlockCount ?? 0, sealed: p.isSealed === true }
      : {}),
    ...(blobType === "PageBlob" ? { sequenceNumber: p.blobSequenceNumber ?? 0 } : {}),
    ...(headers ? { headers } : {}),
    ...(p.createdOn ? { createdOn: p.createdOn } : {}),
    lease: leaseViewOf(p),
    ...(p.tagCount ? { tagCount: p.tagCount } : {}),
    ...(p.accessTier && blobType === "BlockBlob" ? { accessTier: p.accessTier as AccessTier } : {}),
    ...(p.accessTierInferred !== undefined && blobType === "BlockBlob"
      ? { accessTierInferred: p.accessTierInferred }
      : p.accessTier && blobType === "BlockBlob"
        ? { accessTierInferred: false }
        : {}),
    ...(p.accessTierChangedOn ? { accessTierChangedOn: p.accessTierChangedOn } : {}),
    ...(p.archiveStatus ? { archiveStatus: p.archiveStatus as ArchiveStatus } : {}),
    ...(p.rehydratePriority ? { rehydratePriority: p.rehydratePriority as RehydratePriority } : {}),
  };
}

/** A soft-deleted item's times as the service lists them (DeletedTime, RemainingRetentionDays). */
export function deletionOf(p: { deletedOn?: Date; remainingRetentionDays?: number }): StoredDeletion {
  return { deletedOn: p.deletedOn ?? new Date(0), remainingRetentionDays: p.remainingRetentionDays ?? 0 };
}
