import type { LeaseOutcome, LeaseView } from "./blob-leases.js";
import type { BlobTags } from "./blob-tags.js";
import type { TagConditions } from "./tag-expression.js";

/** The blob port contract's stored values and writes: blob types and tiers, conditions, uploads, blocks, appends, copies, property changes and what a write returns. */

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
