/** The blob port's limits and known departures, as data: the core checks against them. */
export interface BlobCapabilities {
  /** A display name: for messages only, never for branching. */
  readonly backend: string;
  /** Longest container name (63 on Azure; less on S3 with a bucket prefix). */
  readonly maxContainerNameLength: number;
  /** Container names a backend forbids beyond the Azure rules (S3's reserved bucket prefixes). */
  readonly reservedContainerPrefixes: readonly string[];
  /** Longest blob name, and what counts: UTF-16 code units (Azure) or UTF-8 bytes (S3 keys). */
  readonly maxBlobNameLength: number;
  readonly blobNameUnit: "utf16" | "utf8";
  /** Metadata names plus values, in bytes. */
  readonly maxMetadataBytes: number;
  /** Largest blob one upload may write. */
  readonly maxBlobBytes: number;
  /** Append blobs exist on this backend (S3 has none: write numbered block blobs instead). */
  readonly appendBlobs: boolean;
  readonly maxAppendBlockBytes: number;
  readonly maxAppendBlocks: number;
  /** Append blobs can be sealed (no more appends). */
  readonly sealAppendBlobs: boolean;
  /** Page blobs exist on this backend (sparse, 512-byte pages). */
  readonly pageBlobs: boolean;
  /** Largest page blob (8 TiB on Azure). */
  readonly maxPageBlobBytes: number;
  /** Most bytes one Put Page writes or clears (4 MiB). */
  readonly maxPageWriteBytes: number;
  /**
   * Block blobs can be built from staged blocks (`stageBlock`, `commitBlockList`, `getBlockList`);
   * false: those calls are NotSupported (S3, whose multipart uploads do not keep a block list).
   */
  readonly blocks: boolean;
  /** Largest staged block. */
  readonly maxBlockBytes: number;
  /** Longest block id, in bytes before base64. */
  readonly maxBlockIdBytes: number;
  /** Most blocks one block list may commit. */
  readonly maxCommittedBlocks: number;
  /** Most blocks staged and not yet committed, per blob. */
  readonly maxUncommittedBlocks: number;
  /** Snapshot Blob, reading and deleting snapshots, listing them (S3 has none: false). */
  readonly snapshots: boolean;
  /** Blobs written by a copy report its x-ms-copy-* properties (`copy` in properties and listings). */
  readonly copyProperties: boolean;
  /**
   * Copy Blob from an archived source into an online tier (`tier` given: a rehydration by copy)
   * makes the copy; false: the source's bytes cannot be read, so such a copy is BlobArchived.
   */
  readonly copyFromArchive: boolean;
  /**
   * Copy Blob of a page blob of the store makes a page blob with its pages (also onto itself), of
   * an append blob an append blob (sealed when asked); false: copies stream through Put Blob and
   * make block blobs (Azure: docs/blobs.md#copy).
   */
  readonly copiesPageBlobs: boolean;
  /** Incremental Copy Blob (`PageBlobClient.startCopyIncremental`) from a page blob snapshot of the store. */
  readonly incrementalCopy: boolean;
  /** Writes and deletes honour `ifMatch` / `ifNoneMatch: "*"` atomically. */
  readonly conditionalWrites: boolean;
  /** Blobs keep Cache-Control, Content-Encoding, -Language, -Disposition (S3: its object headers). */
  readonly contentHeaders: boolean;
  /** Blobs keep a Content-MD5 (given, or computed on a single upload). */
  readonly contentMD5: boolean;
  /** `setHTTPHeaders` and `setMetadata` change a blob in place. */
  readonly setProperties: boolean;
  /** Metadata names come back in the case they were set (S3 lower-cases them). */
  readonly metadataKeepsCase: boolean;
  /** Leases on blobs and containers (`getBlobLeaseClient`); false: NotSupported. */
  readonly leases: boolean;
  /**
   * Blob index tags (`setTags`, `getTags`, the upload option `tags`, `includeTags` in listings);
   * `findByTags`: `findBlobsByTags` on the service and its containers; `tagConditions`: writes and
   * reads honour `conditions.tagConditions` atomically (docs/blobs.md#blob-index-tags).
   */
  readonly tags: boolean;
  readonly findByTags: boolean;
  readonly tagConditions: boolean;
  /**
   * Soft delete (docs/blobs.md#soft-delete): with the service properties' delete retention policy
   * on, deletes and overwrites keep what they remove for the retention days; `undelete` and the
   * listing option `includeDeleted`. False: those are NotSupported and deletes are final.
   */
  readonly softDelete: boolean;
  /** Access tiers (Hot, Cool, Cold, Archive) on block blobs: `setAccessTier`, the upload option `tier`. */
  readonly accessTiers: boolean;
  /** Largest listing page. */
  readonly maxListPageSize: number;
  /**
   * The backend resumes a blob or container listing after any given name (`BackendListQuery.after`,
   * `listContainers`' `after`): a page ending on a blob or container gets that name as its token,
   * and a name passed as a token resumes after it, as Azurite's markers do (docs/blobs.md, Semantics: Listing).
   * False: every token is checksummed (Azure's markers are the service's own; S3's are keys' own).
   */
  readonly nameMarkers: boolean;
  /** How names are ordered in listings: by UTF-16 code units or by UTF-8 bytes. */
  readonly nameOrder: "utf16" | "utf8";
  /** Data outlives the process (false for `memory:`). */
  readonly persistent: boolean;
  /**
   * The store keeps when each container was deleted, so the option `deletedNameHold` can refuse a
   * create of a name deleted moments ago with ContainerBeingDeleted (docs/blobs.md).
   */
  readonly deletedNameHold: boolean;
  /** Known departures from the Blob service's documentation, each with a short id and an explanation. */
  readonly divergences: readonly { readonly id: string; readonly description: string }[];
}

/**
 * The Blob service's documented rules (service version 2022-11-02 and later), which the embedded
 * engine keeps exactly and the azure backend reports; S3 has its own.
 */
export const AZURE_BLOB_RULES = Object.freeze({
  maxContainerNameLength: 63,
  reservedContainerPrefixes: [] as readonly string[],
  maxBlobNameLength: 1024,
  blobNameUnit: "utf16",
  maxMetadataBytes: 8 * 1024,
  // A block blob of 50,000 blocks of 4,000 MiB.
  maxBlobBytes: 50_000 * 4000 * 1024 * 1024,
  appendBlobs: true,
  maxAppendBlockBytes: 100 * 1024 * 1024,
  maxAppendBlocks: 50_000,
  sealAppendBlobs: true,
  pageBlobs: true,
  maxPageBlobBytes: 8 * 1024 ** 4,
  maxPageWriteBytes: 4 * 1024 * 1024,
  blocks: true,
  maxBlockBytes: 4000 * 1024 * 1024,
  maxBlockIdBytes: 64,
  maxCommittedBlocks: 50_000,
  maxUncommittedBlocks: 100_000,
  snapshots: true,
  copyProperties: true,
  copyFromArchive: true,
  copiesPageBlobs: true,
  incrementalCopy: true,
  conditionalWrites: true,
  contentHeaders: true,
  contentMD5: true,
  setProperties: true,
  metadataKeepsCase: true,
  leases: true,
  tags: true,
  findByTags: true,
  tagConditions: true,
  accessTiers: true,
  softDelete: true,
  maxListPageSize: 5000,
} as const satisfies Partial<BlobCapabilities>);
