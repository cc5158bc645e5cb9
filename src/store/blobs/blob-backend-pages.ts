import type { CallOptions } from "../call-options.js";
import type { BackendRange } from "./blob-backend-reads.js";
import type {
  BackendConditions,
  BackendCopy,
  BackendCopySource,
  BackendWriteResult,
  ContentHeaders,
  Metadata,
  StoredBlobProperties,
  StoredCopy,
} from "./blob-backend-writes.js";
import type { BlobTags } from "./blob-tags.js";

/** The blob port contract for page blobs: sequence-number conditions, page writes, page ranges and the `PageBlobBackend` operations. */

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
