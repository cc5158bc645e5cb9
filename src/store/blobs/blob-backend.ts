import type { Readable } from "node:stream";
import type {
  InitialResourceState,
  PublicAccessLevel,
  ResourceMetadata,
  StateBackend,
} from "../access/state-backend.js";
import type { CallOptions } from "../call-options.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import type { LeaseAction, LeaseOutcome, LeaseView } from "./blob-leases.js";
import type { BlobTags } from "./blob-tags.js";
import type { TagConditions, TagQuery } from "./tag-expression.js";

/**
 * What a backend of the blob port implements: raw operations only. `BlobContainer` and its blob
 * clients have already validated names, metadata, conditions, ranges and sizes against
 * `capabilities` before they call any of these; a backend maps its own failures to TableKitError
 * codes (ContainerNotFound, BlobNotFound, ConditionNotMet, …) with the original error as `cause`.
 */

export type BlobType = "BlockBlob" | "AppendBlob" | "PageBlob";

/** A block blob's access tier (the online tiers and Archive, whose bytes cannot be read). */
export type AccessTier = "Hot" | "Cool" | "Cold" | "Archive";
export type RehydratePriority = "High" | "Standard";
export type ArchiveStatus =
  | "rehydrate-pending-to-hot"
  | "rehydrate-pending-to-cool"
  | "rehydrate-pending-to-cold";

/**
 * Metadata as the port carries it: names in the case they were set (they compare
 * case-insensitively: never two that differ only in case), values printable ASCII, maybe empty.
 */
export type Metadata = Record<string, string>;

/** Checked conditions: at most one of the two, `ifNoneMatch` only ever `*`. */
export interface BackendConditions {
  /** `*` (the blob exists) or a quoted ETag. */
  readonly ifMatch?: string;
  readonly ifNoneMatch?: "*";
  /** The caller's lease id: needed to write a leased blob, and must be the active lease's when given. */
  readonly leaseId?: string;
  /** `x-ms-if-tags`: the blob's tags must meet it (ConditionNotMet), checked in the same write or read. */
  readonly tagConditions?: TagConditions;
}

/**
 * The content headers a blob keeps beside its content type; each absent one is not set (Set Blob
 * Properties replaces them all, clearing what it is not given).
 */
export interface ContentHeaders {
  readonly cacheControl?: string;
  readonly contentEncoding?: string;
  readonly contentLanguage?: string;
  readonly contentDisposition?: string;
  /** The MD5 of the whole blob, base64 (16 bytes). */
  readonly contentMD5?: string;
}

/** A body the core has checked: bytes, or chunks it counts (and stops past the size limit) as they pass. */
export type BackendBody =
  | { readonly kind: "bytes"; readonly bytes: Uint8Array }
  | { readonly kind: "stream"; readonly chunks: AsyncIterable<Uint8Array> };

export interface BackendUpload {
  readonly blobType: BlobType;
  readonly body: BackendBody;
  readonly contentType?: string;
  readonly headers?: ContentHeaders;
  readonly metadata: Metadata;
  readonly conditions: BackendConditions;
  /** The new blob's tags (replacing any the blob had); only given when capabilities.tags. */
  readonly tags?: BlobTags;
  /** A block blob's tier; absent: the account's default (Hot, inferred). Only when capabilities.accessTiers. */
  readonly tier?: AccessTier;
  /** Hints for backends that upload in parallel parts (the SDK's bufferSize and maxConcurrency). */
  readonly partBytes?: number;
  readonly concurrency?: number;
  /** Set when the upload is a copy's: recorded as the blob's copy properties (capabilities.copyProperties). */
  readonly copy?: StoredCopy;
}

/**
 * A part of a block blob committed from parts (Put Block List): a file's whole bytes (a staged
 * block, already durable; the backend may link it, so the caller may remove the file afterwards but
 * never change it), or a range of the blob as it is at the ETag the commit is based on (a kept block).
 */
export type BlobPart =
  | { readonly kind: "file"; readonly path: string; readonly size: number }
  | { readonly kind: "current"; readonly offset: number; readonly size: number };

/** A commit from parts: an upload's properties, and the ETag that `current` parts refer to. */
export interface BackendCompose extends Omit<BackendUpload, "body" | "blobType"> {
  /** ConditionNotMet when a part is `current` and the blob no longer has this ETag. */
  readonly basedOn?: string;
  /**
   * The parts are the blob's own bytes unchanged (Set Blob Properties rewrites it so): its
   * committed block list stays. Otherwise the commit is a plain write, which leaves none.
   */
  readonly keepBlockList?: boolean;
}

/** Which list Put Block List takes a block from: `latest` is the uncommitted one if staged, else the committed one. */
export type BlockListName = "committed" | "uncommitted" | "latest";

/** A block as a block list names it. */
export interface StoredBlock {
  /** Base64, as staged. */
  readonly name: string;
  readonly size: number;
}

/** A block staged for a blob: its checked id and body (already counted against maxBlockBytes). */
export interface BackendStageBlock {
  readonly id: string;
  readonly body: BackendBody;
  /** The length the caller declared, when it did (the body is checked against it). */
  readonly contentLength?: number;
}

/** A commit of a block list: an upload's properties, and the blocks in order. */
export interface BackendCommitBlocks extends Omit<BackendUpload, "body" | "blobType"> {
  readonly blocks: readonly { readonly id: string; readonly list: BlockListName }[];
}

/** A blob's block lists: `properties` undefined when the blob does not exist (only staged blocks). */
export interface StoredBlockLists {
  readonly committed: readonly StoredBlock[];
  readonly uncommitted: readonly StoredBlock[];
  readonly properties?: StoredBlobProperties;
}

export interface BackendAppend {
  readonly bytes: Uint8Array;
  readonly conditions: BackendConditions & { readonly appendPosition?: number; readonly maxSize?: number };
}

/** A blob's stored properties, as every backend reports them. */
export interface StoredBlobProperties {
  readonly etag: string;
  readonly lastModified: Date;
  readonly contentLength: number;
  readonly contentType?: string;
  readonly headers?: ContentHeaders;
  readonly metadata: Metadata;
  readonly blobType: BlobType;
  /** Append blobs: how many blocks were appended. */
  readonly committedBlockCount?: number;
  /** When the blob was first created (an overwrite keeps it); absent where a backend does not know. */
  readonly createdOn?: Date;
  /** Where capabilities.leases: the blob's lease as of the read. */
  readonly lease?: LeaseView;
  /** How many index tags the blob has (absent: none, or a backend without tags). */
  readonly tagCount?: number;
  /** Block blobs on a backend with tiers: the tier, whether it is the default (never set), when it was set. */
  readonly accessTier?: AccessTier;
  readonly accessTierInferred?: boolean;
  readonly accessTierChangedOn?: Date;
  /** A rehydration from Archive under way. */
  readonly archiveStatus?: ArchiveStatus;
  readonly rehydratePriority?: RehydratePriority;
  /** Append blobs: sealed (no more appends). Absent: not sealed. */
  readonly sealed?: boolean;
  /** Page blobs: the sequence number. */
  readonly sequenceNumber?: number;
  /** The copy that wrote the blob, while no other write has changed it (capabilities.copyProperties). */
  readonly copy?: StoredCopy;
}

/** A concluded (or pending) copy into a blob: the service's x-ms-copy-* properties. */
export interface StoredCopy {
  readonly id: string;
  readonly status: "pending" | "success" | "aborted" | "failed";
  /** The source URL as given (a SAS signature in it is kept out by the core). */
  readonly source: string;
  /** `<bytes copied>/<bytes total>`. */
  readonly progress: string;
  readonly completedOn?: Date;
  /** Incremental Copy Blob wrote it: only its snapshots may be read; and the snapshot it made. */
  readonly incremental?: boolean;
  readonly destinationSnapshot?: string;
}

/** A blob of this store to copy from: by container, name and (optionally) snapshot. */
export interface BackendCopySource {
  readonly container: string;
  readonly name: string;
  readonly snapshot?: string;
  /** The source's ETag must still be this (the caller's source conditions, checked here atomically). */
  readonly ifMatch?: string;
}

/** Copy Blob inside one store: the destination's metadata (the source's when absent) and conditions. */
export interface BackendCopy {
  readonly metadata?: Metadata;
  /** The destination's tags (none when absent); only given when capabilities.tags. */
  readonly tags?: BlobTags;
  /**
   * The destination's tier (absent: the default). An archived source is copied only with an online
   * tier given (the core checks); AccessTierNotSupportedForBlobType when the source is no block blob.
   */
  readonly tier?: AccessTier;
  readonly conditions: BackendConditions;
  /** The copy's id and the source URL it reports. */
  readonly id: string;
  readonly sourceUrl: string;
  /** Seal the copy when it is an append blob (where capabilities.sealAppendBlobs). */
  readonly seal?: boolean;
}

/** Set Blob Properties (content type and headers, all replaced) or Set Blob Metadata (replaced). */
export type BackendSetProperties =
  | {
      readonly kind: "headers";
      readonly contentType?: string;
      readonly headers: ContentHeaders;
      readonly conditions: BackendConditions;
    }
  | { readonly kind: "metadata"; readonly metadata: Metadata; readonly conditions: BackendConditions };

/** A lease operation's answer with the resource's ETag and time (a lease changes neither). */
export interface BackendLeaseResult extends LeaseOutcome {
  readonly etag: string;
  readonly lastModified: Date;
}

export interface BackendWriteResult {
  readonly etag: string;
  readonly lastModified: Date;
}

export interface BackendAppendResult extends BackendWriteResult {
  /** Where the block landed: the blob's length before it. */
  readonly appendOffset: number;
  readonly committedBlockCount: number;
}

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

/** Page blob sequence-number conditions (`x-ms-if-sequence-number-le/lt/eq`): SequenceNumberConditionNotMet. */
export interface SequenceConditions {
  readonly ifSequenceNumberLessThanOrEqual?: number;
  readonly ifSequenceNumberLessThan?: number;
  readonly ifSequenceNumberEqual?: number;
}

/** A new (empty, all zeros) page blob of `size` bytes, a multiple of 512. */
export interface BackendCreatePageBlob {
  readonly size: number;
  readonly sequenceNumber: number;
  readonly contentType?: string;
  /** Cache-Control, Content-Encoding, -Language, -Disposition and a given Content-MD5 (none is computed). */
  readonly headers?: ContentHeaders;
  /** Index tags (only when capabilities.tags); none: the blob has none. */
  readonly tags?: BlobTags;
  readonly metadata: Metadata;
  readonly conditions: BackendConditions;
}

/** Pages written (`bytes`, `count` long) or cleared (no `bytes`): 512-aligned, inside the blob. */
export interface BackendPageWrite {
  readonly offset: number;
  readonly count: number;
  readonly bytes?: Uint8Array;
  readonly conditions: BackendConditions & SequenceConditions;
}

export interface BackendPageWriteResult extends BackendWriteResult {
  readonly sequenceNumber: number;
}

/** A range of written pages: `start` and `end` inclusive, as Get Page Ranges and the SDK give them. */
export interface StoredPageRange {
  readonly start: number;
  readonly end: number;
}

/** Get Page Ranges of a snapshot (`snapshot`), or what changed since an older one (`previousSnapshot`). */
export interface BackendPageRangesQuery {
  readonly snapshot?: string;
  readonly previousSnapshot?: string;
}

/** A page blob's resize and sequence-number actions (Set Blob Properties). */
export interface BackendPageBlobChange {
  /** A new size, a multiple of 512: pages past it are dropped. */
  readonly size?: number;
  /** `max`: the larger of the stored and `sequenceNumber`; `update`: set it; `increment`: add one. */
  readonly sequenceNumberAction?: "max" | "update" | "increment";
  readonly sequenceNumber?: number;
  readonly conditions: BackendConditions;
}

/**
 * Page blobs (where capabilities.pageBlobs): sparse, zeros where no page was written. BlobNotFound,
 * InvalidBlobType on another blob type, ConditionNotMet, SequenceNumberConditionNotMet, InvalidRange
 * (a write or clear past the blob's size).
 */
export interface PageBlobBackend {
  createPageBlob(name: string, create: BackendCreatePageBlob, call: CallOptions): Promise<BackendWriteResult>;
  writePages(name: string, write: BackendPageWrite, call: CallOptions): Promise<BackendPageWriteResult>;
  /**
   * The written ranges within `range` (the whole blob without it), in order, as the backend keeps
   * them (adjacent ranges may or may not be merged). InvalidRange when `range` starts past the end.
   * With `query.snapshot`, of that snapshot (its conditions are the core's, checked before); with
   * `query.previousSnapshot` (where capabilities.snapshots), the ranges written since that
   * older snapshot and `clearRanges`, those cleared since: PreviousSnapshotNotFound,
   * PreviousSnapshotCannotBeNewer.
   */
  getPageRanges(
    name: string,
    range: BackendRange | undefined,
    conditions: BackendConditions,
    call: CallOptions,
    query?: BackendPageRangesQuery,
  ): Promise<{
    ranges: StoredPageRange[];
    clearRanges?: StoredPageRange[];
    properties: StoredBlobProperties;
  }>;
  changePageBlob(
    name: string,
    change: BackendPageBlobChange,
    call: CallOptions,
  ): Promise<BackendPageWriteResult>;
  /**
   * Incremental Copy Blob (where capabilities.incrementalCopy): the source snapshot's pages become
   * the destination's and a snapshot of it is taken, in one write; the destination is marked an
   * incremental copy (`copy.incremental`, `copy.destinationSnapshot`) and reads of it are
   * OperationNotAllowedOnIncrementalCopyBlob. A destination that exists and is not an incremental
   * copy of the same blob: IncrementalCopyBlobMismatch; a snapshot not later than the one copied
   * last: IncrementalCopyOfEarlierSnapshotNotAllowed; a missing source: CannotVerifyCopySource.
   */
  copyIncremental?(
    name: string,
    source: BackendCopySource & { readonly snapshot: string },
    copy: BackendCopy,
    call: CallOptions,
  ): Promise<BackendWriteResult & { readonly copy: StoredCopy }>;
}

export interface BlobServiceBackend {
  readonly capabilities: BlobCapabilities;
  /** Container metadata, public access, stored access policies, service properties (state-backend.ts); absent: NotSupported. */
  readonly state?: StateBackend;
  /**
   * Throws ContainerAlreadyExists. A new container starts with `initial` (metadata, public access),
   * written with it, and no stored policies (`initial` is given only to a backend with `state`).
   */
  createContainer(name: string, call: CallOptions, initial?: InitialResourceState): Promise<void>;
  /**
   * Throws ContainerNotFound. Deletes every blob of the container and its state. A container with an
   * active lease needs `leaseId` (the lease codes of `checkLease`).
   */
  deleteContainer(name: string, call: CallOptions, leaseId?: string): Promise<void>;
  /**
   * Containers whose names start with `prefix`, in name order; `after` (only when
   * capabilities.nameMarkers, never with `continuation`): those named after it.
   */
  listContainers(
    query: {
      readonly prefix: string;
      readonly maxPageSize: number;
      readonly continuation?: string;
      readonly after?: string;
    },
    call: CallOptions,
  ): Promise<{ items: StoredContainer[]; continuation?: string }>;
  /** A handle on a container; no I/O. */
  container(name: string): ContainerBackend;
  /**
   * Blobs of every container (or of `query.container`) whose tags meet the query, ordered by
   * container then blob name. Only called when capabilities.findByTags.
   */
  findBlobsByTags?(
    query: BackendTagQuery,
    call: CallOptions,
  ): Promise<{ items: StoredTaggedBlob[]; continuation?: string }>;
}

export interface ContainerBackend {
  /** Undefined when the container does not exist. */
  getContainerProperties(call: CallOptions): Promise<StoredContainer | undefined>;
  /** Creates or replaces a blob (an append blob is created empty). ContainerNotFound, BlobAlreadyExists, ConditionNotMet. */
  upload(name: string, upload: BackendUpload, call: CallOptions): Promise<BackendWriteResult>;
  /** BlobNotFound, ConditionNotMet, InvalidRange. */
  download(
    name: string,
    range: BackendRange | undefined,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<BackendDownload>;
  /** Undefined when the blob does not exist (and no condition was given); ConditionNotMet. */
  getProperties(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<StoredBlobProperties | undefined>;
  /**
   * Only where capabilities.setProperties: replaces the content headers or the metadata; a new
   * ETag, the bytes and block list unchanged. BlobNotFound, ConditionNotMet, the lease codes.
   */
  setProperties?(name: string, change: BackendSetProperties, call: CallOptions): Promise<BackendWriteResult>;
  /**
   * Only where capabilities.leases: a lease operation on the blob (`blob`) or, without one, on the
   * container itself (`applyLease` of blob-leases.ts). BlobNotFound, ContainerNotFound, the lease codes.
   */
  lease?(blob: string | undefined, action: LeaseAction, call: CallOptions): Promise<BackendLeaseResult>;
  /**
   * BlobNotFound, ConditionNotMet. A blob with snapshots is SnapshotsPresent unless
   * `deleteSnapshots` says what to do with them (given only when capabilities.snapshots).
   */
  delete(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
    deleteSnapshots?: DeleteSnapshots,
  ): Promise<void>;
  /**
   * Undelete Blob (present when capabilities.softDelete): restores the soft-deleted blob (unless a
   * live blob has its name) and every soft-deleted snapshot of it. A live blob with nothing
   * soft-deleted is left as it is. BlobNotFound when the name has neither; ContainerNotFound.
   */
  undelete?(name: string, call: CallOptions): Promise<void>;
  /**
   * Snapshots (present when capabilities.snapshots): a read-only copy of the blob as it is now,
   * with `metadata` when given, else the blob's. BlobNotFound, ConditionNotMet.
   */
  createSnapshot?(
    name: string,
    metadata: Metadata | undefined,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<BackendSnapshotResult>;
  /** A snapshot's bytes; BlobNotFound when the blob has no snapshot of that time. InvalidRange. */
  downloadSnapshot?(
    name: string,
    snapshot: string,
    range: BackendRange | undefined,
    call: CallOptions,
  ): Promise<BackendDownload>;
  /** Undefined when the blob has no snapshot of that time. */
  getSnapshotProperties?(
    name: string,
    snapshot: string,
    call: CallOptions,
  ): Promise<StoredBlobProperties | undefined>;
  /** BlobNotFound when the blob has no snapshot of that time. */
  deleteSnapshot?(name: string, snapshot: string, call: CallOptions): Promise<void>;
  /**
   * Optional: Copy Blob from a blob of the same store, synchronously, without streaming its bytes
   * through the process. A missing source is BlobNotFound with `details.source` true; a stale `source.ifMatch` is ConditionNotMet with `details.source` true.
   * Undefined: the core streams the bytes through upload.
   */
  copyBlob?(
    name: string,
    source: BackendCopySource,
    copy: BackendCopy,
    call: CallOptions,
  ): Promise<(BackendWriteResult & { readonly copy: StoredCopy }) | undefined>;
  list(query: BackendListQuery, call: CallOptions): Promise<BackendListPage>;
  /**
   * Optional: commits a block blob as `parts` in order without copying their bytes (links to the
   * files). Undefined when this store cannot (the client then streams the parts through upload).
   */
  composeBlocks?(
    name: string,
    parts: readonly BlobPart[],
    compose: BackendCompose,
    call: CallOptions,
  ): Promise<BackendWriteResult | undefined>;
  /**
   * Stages a block (replacing a staged block of the same id). The backend applies, atomically with
   * the write, the rules that depend on what is staged (`checkStagedBlock` of blob-rules.ts: one id
   * length per blob, the uncommitted count). ContainerNotFound. Only called when capabilities.blocks.
   */
  stageBlock(name: string, stage: BackendStageBlock, call: CallOptions): Promise<void>;
  /**
   * Commits the blob as the named blocks, in order, and makes them its committed block list in the
   * same write; every uncommitted block of the blob is then discarded. InvalidBlockList for a block
   * not in the list it is asked from; the upload conditions' codes.
   */
  commitBlocks(name: string, commit: BackendCommitBlocks, call: CallOptions): Promise<BackendWriteResult>;
  /**
   * The committed and uncommitted blocks; BlobNotFound when the blob neither exists nor has staged
   * blocks. With `snapshot` (only where capabilities.snapshots): that snapshot's committed blocks.
   */
  listBlocks(name: string, call: CallOptions, snapshot?: string): Promise<StoredBlockLists>;
  /**
   * The blob's tags, or with `snapshot` (where capabilities.snapshots) those its snapshot kept;
   * BlobNotFound, ConditionNotMet (tagConditions). Only called when capabilities.tags.
   */
  getTags?(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
    snapshot?: string,
  ): Promise<BlobTags>;
  /**
   * Replaces the blob's tags, or with `snapshot` (where capabilities.snapshots) that snapshot's
   * (Set Blob Tags' `snapshot` parameter, version 2020-08-04); its ETag and Last-Modified stay.
   * BlobNotFound, ConditionNotMet.
   */
  setTags?(
    name: string,
    tags: BlobTags,
    conditions: BackendConditions,
    call: CallOptions,
    snapshot?: string,
  ): Promise<void>;
  /**
   * Sets a block blob's tier (Set Blob Tier); ETag and Last-Modified stay. BlobNotFound,
   * AccessTierNotSupportedForBlobType, ConditionNotMet. Only called when capabilities.accessTiers.
   */
  setTier?(
    name: string,
    change: BackendTierChange,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<{ readonly status: 200 | 202 }>;
  /** BlobNotFound, InvalidBlobType, BlockCountExceedsLimit, BlobIsSealed, the append conditions' codes. */
  appendBlock(name: string, append: BackendAppend, call: CallOptions): Promise<BackendAppendResult>;
  /**
   * Seals an append blob (where capabilities.sealAppendBlobs): appends then fail with BlobIsSealed.
   * Sealing a sealed blob succeeds. BlobNotFound, InvalidBlobType, the append conditions' codes.
   */
  sealAppendBlob?(
    name: string,
    conditions: BackendAppend["conditions"],
    call: CallOptions,
  ): Promise<BackendWriteResult>;
  /** Page blobs; present exactly when capabilities.pageBlobs. */
  readonly pages?: PageBlobBackend;
}
