import type { InitialResourceState, StateBackend } from "../access/state-backend.js";
import type { CallOptions } from "../call-options.js";
import type { PageBlobBackend } from "./blob-backend-pages.js";
import type {
  BackendDeleteResult,
  BackendDownload,
  BackendListPage,
  BackendListQuery,
  BackendRange,
  BackendSnapshotResult,
  BackendTagQuery,
  BackendTierChange,
  DeleteSnapshots,
  StoredContainer,
  StoredTaggedBlob,
} from "./blob-backend-reads.js";
import type {
  BackendAppend,
  BackendAppendResult,
  BackendCommitBlocks,
  BackendCompose,
  BackendConditions,
  BackendCopy,
  BackendCopySource,
  BackendLeaseResult,
  BackendSetProperties,
  BackendStageBlock,
  BackendUpload,
  BackendWriteResult,
  BlobPart,
  Metadata,
  StoredBlobProperties,
  StoredBlockLists,
  StoredCopy,
} from "./blob-backend-writes.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import type { LeaseAction } from "./blob-leases.js";
import type { BlobTags } from "./blob-tags.js";

/**
 * What a backend of the blob port implements: raw operations only. `BlobContainer` and its blob
 * clients have already validated names, metadata, conditions, ranges and sizes against
 * `capabilities` before they call any of these; a backend maps its own failures to TableKitError
 * codes (ContainerNotFound, BlobNotFound, ConditionNotMet, …) with the original error as `cause`.
 */

export type {
  BackendCreatePageBlob,
  BackendPageBlobChange,
  BackendPageRangesQuery,
  BackendPageWrite,
  BackendPageWriteResult,
  PageBlobBackend,
  SequenceConditions,
  StoredPageRange,
} from "./blob-backend-pages.js";
export type {
  BackendDeleteResult,
  BackendDownload,
  BackendListPage,
  BackendListQuery,
  BackendRange,
  BackendSnapshotResult,
  BackendTagQuery,
  BackendTierChange,
  DeleteSnapshots,
  StoredBlobItem,
  StoredContainer,
  StoredDeletion,
  StoredTaggedBlob,
} from "./blob-backend-reads.js";
export type {
  AccessTier,
  ArchiveStatus,
  BackendAppend,
  BackendAppendResult,
  BackendBody,
  BackendCommitBlocks,
  BackendCompose,
  BackendConditions,
  BackendCopy,
  BackendCopySource,
  BackendLeaseResult,
  BackendSetProperties,
  BackendStageBlock,
  BackendUpload,
  BackendWriteResult,
  BlobPart,
  BlobType,
  BlockListName,
  ContentHeaders,
  Metadata,
  RehydratePriority,
  StoredBlobProperties,
  StoredBlock,
  StoredBlockLists,
  StoredCopy,
} from "./blob-backend-writes.js";

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
   * Resolves to whether what it removed was kept as soft-deleted, where the backend knows.
   */
  delete(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
    deleteSnapshots?: DeleteSnapshots,
  ): Promise<BackendDeleteResult | undefined>;
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
  deleteSnapshot?(
    name: string,
    snapshot: string,
    call: CallOptions,
  ): Promise<BackendDeleteResult | undefined>;
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
