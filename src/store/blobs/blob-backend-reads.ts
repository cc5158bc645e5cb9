import type { Readable } from "node:stream";
import type { PublicAccessLevel, ResourceMetadata } from "../access/state-backend.js";
import type {
  AccessTier,
  BackendWriteResult,
  RehydratePriority,
  StoredBlobProperties,
} from "./blob-backend-writes.js";
import type { LeaseView } from "./blob-leases.js";
import type { BlobTags } from "./blob-tags.js";
import type { TagQuery } from "./tag-expression.js";

/** The blob port contract's reads: ranges and downloads, blob and container listings, tag queries, tier changes. */

/**
 * A byte range: absent means the whole blob. A requested range that starts at or past the end of
 * the blob is InvalidRange (also on an empty blob), as the Blob service answers.
 */
export interface BackendRange {
  readonly offset: number;
  /** Absent: to the end. */
  readonly count?: number;
}

export interface BackendDownload {
  readonly properties: StoredBlobProperties;
  /** The bytes of the range (or blob), streamed: a backend never holds a whole blob in memory. */
  readonly body: Readable;
  /** The range served, when one was asked for. */
  readonly range?: { readonly offset: number; readonly count: number };
}

export interface BackendListQuery {
  /** Names starting with this (may be empty). */
  readonly prefix: string;
  /** Roll names up to the first delimiter after the prefix into virtual directories. */
  readonly delimiter?: string;
  /** Blobs plus prefixes in the page: 1..capabilities.maxListPageSize. */
  readonly maxPageSize: number;
  readonly continuation?: string;
  /**
   * Only when capabilities.nameMarkers, never with `continuation`: start after `name` (which sorts
   * at or after the prefix); `directory`: after every name starting with `name` (a virtual
   * directory of this listing, ending in the delimiter).
   */
  readonly after?: { readonly name: string; readonly directory: boolean };
  readonly includeMetadata: boolean;
  /** Each blob's tags in `StoredBlobItem.tags` (only asked when capabilities.tags). */
  readonly includeTags?: boolean;
  /** Each blob's snapshots too, just before it, oldest first (only when capabilities.snapshots). */
  readonly includeSnapshots?: boolean;
  /** Each blob's copy record in `properties.copy` (where capabilities.copyProperties). */
  readonly includeCopy?: boolean;
  /**
   * Soft-deleted blobs too (with `includeSnapshots`, soft-deleted snapshots too), each with
   * `deleted` set, in their place in name order (only when capabilities.softDelete).
   */
  readonly includeDeleted?: boolean;
  /**
   * Names with staged blocks and no committed blob too (only asked when capabilities.blocks), each
   * an empty block blob with `uncommitted` set, as the service lists them.
   */
  readonly includeUncommitted?: boolean;
}

export interface StoredBlobItem {
  readonly kind: "blob";
  readonly name: string;
  readonly properties: StoredBlobProperties;
  /** When the query asked for `includeTags`. */
  readonly tags?: BlobTags;
  /** Set on a snapshot: its time, `YYYY-MM-DDThh:mm:ss.fffffffZ`. */
  readonly snapshot?: string;
  /** Set on a soft-deleted blob or snapshot (listed with `includeDeleted`). */
  readonly deleted?: StoredDeletion;
  /** A name with staged blocks only (listed with `includeUncommitted`): no committed blob yet. */
  readonly uncommitted?: boolean;
}

/** When a soft-deleted blob or snapshot was deleted, and the whole days left before it is gone. */
export interface StoredDeletion {
  readonly deletedOn: Date;
  readonly remainingRetentionDays: number;
}

/** What a delete did: `softDeleted` when it kept what it removed (a delete retention policy). */
export interface BackendDeleteResult {
  readonly softDeleted: boolean;
}

/** Which of a blob's snapshots a delete takes too: `include` the blob and them, `only` them. */
export type DeleteSnapshots = "include" | "only";

export interface BackendSnapshotResult extends BackendWriteResult {
  /** The snapshot's time, `YYYY-MM-DDThh:mm:ss.fffffffZ`: unique among the blob's snapshots. */
  readonly snapshot: string;
}

export interface BackendListPage {
  /** Blobs and virtual directories (`{ kind: "prefix", name }`), in name order. */
  readonly items: readonly (StoredBlobItem | { readonly kind: "prefix"; readonly name: string })[];
  readonly continuation?: string;
}

export interface StoredContainer {
  readonly name: string;
  readonly etag: string;
  readonly lastModified: Date;
  /** A backend with `state` reports the container's metadata (names as set) and public access here. */
  readonly metadata?: ResourceMetadata;
  readonly publicAccess?: PublicAccessLevel;
  /** Where capabilities.leases: the container's lease as of the read. */
  readonly lease?: LeaseView;
}

/** Find Blobs by Tags: the parsed query (its `container`, if any, scopes it), a page of at most `maxPageSize`. */
export interface BackendTagQuery {
  readonly query: TagQuery;
  readonly maxPageSize: number;
  readonly continuation?: string;
}

/** A blob found by its tags: with the tags the query names (as the service returns them). */
export interface StoredTaggedBlob {
  readonly containerName: string;
  readonly name: string;
  readonly tags: BlobTags;
}

/** A tier change: 200 when done, 202 when a rehydration from Archive was started. */
export interface BackendTierChange {
  readonly tier: AccessTier;
  readonly rehydratePriority?: RehydratePriority;
}
