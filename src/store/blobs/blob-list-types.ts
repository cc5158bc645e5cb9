import type { OperationOptions } from "../call-options.js";
import type { BlobType, Metadata } from "./blob-backend.js";
import type { BlobProperties } from "./blob-client-types.js";
import type { LeaseDuration, LeaseState, LeaseStatus } from "./blob-leases.js";
import type { BlobTags } from "./blob-tags.js";

/** What listing a container's blobs takes and yields (`@azure/storage-blob`'s shapes, in part). */

/** A blob as listings yield it (`@azure/storage-blob`'s BlobItem, in part). */
export interface BlobItem {
  name: string;
  properties: {
    etag: string;
    lastModified: Date;
    contentLength: number;
    contentType?: string;
    cacheControl?: string;
    contentEncoding?: string;
    contentLanguage?: string;
    contentDisposition?: string;
    contentMD5?: Uint8Array;
    blobType: BlobType;
    createdOn?: Date;
    leaseState?: LeaseState;
    leaseStatus?: LeaseStatus;
    leaseDuration?: LeaseDuration;
    /** Append blobs: sealed. */
    isSealed?: boolean;
    /** Page blobs: the sequence number. */
    blobSequenceNumber?: number;
    /** Soft-deleted items: when they were deleted, whole days before they are gone. */
    deletedOn?: Date;
    remainingRetentionDays?: number;
  } & Pick<
    BlobProperties,
    | "tagCount"
    | "accessTier"
    | "accessTierInferred"
    | "accessTierChangedOn"
    | "archiveStatus"
    | "rehydratePriority"
    | "copyId"
    | "copyStatus"
    | "copySource"
    | "copyProgress"
    | "copyCompletedOn"
    | "isIncrementalCopy"
    | "destinationSnapshot"
  >;
  /** Present when the listing asked for `includeMetadata`. */
  metadata?: Metadata;
  /** Present when the listing asked for `includeTags` (and the blob has tags). */
  tags?: BlobTags;
  /** Set on a snapshot (listed with `includeSnapshots`, just before its blob): its time. */
  snapshot?: string;
  /** True on a soft-deleted blob or snapshot (listed with `includeDeleted`). */
  deleted?: true;
}

/** A virtual directory of a hierarchical listing: every name that continues `name`. */
export interface BlobPrefix {
  name: string;
}

export interface ListBlobsOptions extends OperationOptions {
  /** Only blobs whose names start with this. */
  prefix?: string;
  includeMetadata?: boolean;
  /** Each blob's index tags, in `tags` (NotSupported where the store keeps none). */
  includeTags?: boolean;
  /** Each blob's snapshots too, oldest first, just before the blob (NotSupported without capabilities.snapshots). */
  includeSnapshots?: boolean;
  /** Each copied blob's `copyId`, `copyStatus`, … (where capabilities.copyProperties; elsewhere none are kept). */
  includeCopy?: boolean;
  /**
   * Soft-deleted blobs too, with `deleted: true`, `deletedOn` and `remainingRetentionDays`; with
   * `includeSnapshots`, soft-deleted snapshots too (docs/blobs.md#soft-delete; NotSupported without capabilities.softDelete).
   */
  includeDeleted?: boolean;
  /**
   * Names with staged blocks and no committed blob too, each an empty block blob (the SDK's
   * spelling; NotSupported without capabilities.blocks).
   */
  includeUncommitedBlobs?: boolean;
}

export interface ListBlobsFlatSegment {
  prefix: string;
  segment: { blobItems: BlobItem[] };
  continuationToken?: string;
}

export interface ListBlobsHierarchySegment {
  prefix: string;
  delimiter: string;
  segment: { blobItems: BlobItem[]; blobPrefixes: BlobPrefix[] };
  continuationToken?: string;
}

/** A listing-by-hierarchy item: a virtual directory or a blob. */
export type HierarchyItem = ({ kind: "prefix" } & BlobPrefix) | ({ kind: "blob" } & BlobItem);
