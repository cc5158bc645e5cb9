import type { Readable } from "node:stream";
import type { OperationOptions } from "../call-options.js";
import type {
  AccessTier,
  ArchiveStatus,
  BlobType,
  DeleteSnapshots,
  Metadata,
  RehydratePriority,
  StoredCopy,
} from "./blob-backend.js";
import type { LeaseDuration, LeaseState, LeaseStatus } from "./blob-leases.js";
import type { BlobRequestConditions } from "./blob-rules.js";

/** What blob clients take and answer: properties, options and write responses, under the SDK's names. */

/** A blob's properties (`@azure/storage-blob`'s BlobGetPropertiesResponse, in part). */
export interface BlobProperties {
  etag: string;
  lastModified: Date;
  contentLength: number;
  contentType?: string;
  cacheControl?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  /** The whole blob's MD5 (on a ranged download: the range's, when asked for with rangeGetContentMD5). */
  contentMD5?: Uint8Array;
  /** Names in the case set where capabilities.metadataKeepsCase, else lower-cased. */
  metadata: Metadata;
  blobType: BlobType;
  /** Append blobs only. */
  blobCommittedBlockCount?: number;
  /** When the blob was created (an overwrite keeps it), where the backend knows. */
  createdOn?: Date;
  /** Where capabilities.leases. */
  leaseState?: LeaseState;
  leaseStatus?: LeaseStatus;
  leaseDuration?: LeaseDuration;
  /** How many index tags the blob has (absent when none). */
  tagCount?: number;
  /** Block blobs, where the store has tiers: the tier, whether it is the default, when it was last set. */
  accessTier?: AccessTier;
  accessTierInferred?: boolean;
  accessTierChangedOn?: Date;
  /** `rehydrate-pending-to-…` while a blob leaves Archive. */
  archiveStatus?: ArchiveStatus;
  rehydratePriority?: RehydratePriority;
  /** Append blobs only: sealed (appends refused with BlobIsSealed). */
  isSealed?: boolean;
  /** Page blobs only. */
  blobSequenceNumber?: number;
  /** Set while the blob is as a copy wrote it (capabilities.copyProperties), as the SDK names them. */
  copyId?: string;
  copyStatus?: StoredCopy["status"];
  copySource?: string;
  copyProgress?: string;
  copyCompletedOn?: Date;
  /** Written by Incremental Copy Blob (only its snapshots may be read), and the snapshot that copy took. */
  isIncrementalCopy?: boolean;
  destinationSnapshot?: string;
}

/**
 * Conditions on the tag and tier calls: `tagConditions` (`x-ms-if-tags`) and `leaseId` (Set Blob
 * Tags needs the active lease's id on a leased blob; a given id must be the active lease's).
 */
export interface BlobTagOptions extends OperationOptions {
  conditions?: Pick<BlobRequestConditions, "tagConditions" | "leaseId">;
}

export interface BlobSetTierOptions extends BlobTagOptions {
  /** How soon a blob leaving Archive is rehydrated: High or Standard. */
  rehydratePriority?: RehydratePriority;
}

export interface BlobDownloadResponse extends BlobProperties {
  /** The bytes, streamed (`contentLength` counts those of the range). */
  readableStreamBody: Readable;
  /** `bytes <first>-<last>/<size>` when a range was asked for. */
  contentRange?: string;
}

export interface BlobReadOptions extends OperationOptions {
  /**
   * `ifMatch` fails the read with ConditionNotMet once the blob has changed; `ifNoneMatch` and
   * `ifModifiedSince` fail it with ConditionNotMet whose `details.notModified` is true (HTTP 304);
   * `leaseId` fails it with the lease codes unless it is the blob's active lease.
   */
  conditions?: BlobRequestConditions;
}

export interface BlobSetOptions extends OperationOptions {
  /** The HTTP conditions, and the lease id a leased blob needs. */
  conditions?: BlobRequestConditions;
}

export interface BlobDownloadOptions extends BlobReadOptions {
  onProgress?: (progress: { loadedBytes: number }) => void;
}

/**
 * What Delete Blob did: `softDeleted` true when a delete retention policy kept what it removed
 * (Undelete Blob brings it back), false when it is gone; absent where the backend does not say
 * (Azure: the SDK does not report it).
 */
export interface BlobDeleteResult {
  softDeleted?: boolean;
}

export interface BlobDeleteOptions extends OperationOptions {
  conditions?: BlobRequestConditions;
  /**
   * A blob with snapshots: `include` deletes it and them, `only` them alone; absent, its delete is
   * SnapshotsPresent (as the service answers).
   */
  deleteSnapshots?: DeleteSnapshots;
}

export interface BlobCreateSnapshotOptions extends OperationOptions {
  /** The snapshot's metadata; absent, the blob's. */
  metadata?: Metadata;
  conditions?: BlobRequestConditions;
}

export interface BlobCreateSnapshotResponse extends BlobWriteResponse {
  /** The snapshot's time: `withSnapshot(snapshot)` reads it. */
  snapshot: string;
}

/** What the SDK's write calls answer. */
export interface BlobWriteResponse {
  etag: string;
  lastModified: Date;
  /** Put Blob From URL: the `sourceContentMD5` the source's bytes were checked against. */
  contentMD5?: Uint8Array;
}
