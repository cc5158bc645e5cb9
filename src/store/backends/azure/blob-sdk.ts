import { Readable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import type { SdkSignedIdentifier } from "./state-codec.js";

/**
 * The slice of `@azure/storage-blob` the blob backend uses, declared structurally (the SDK is an
 * optional peer dependency, loaded by `loadBlobSdk()` on the first blob call of an `azure:` store).
 */

type Conditions = {
  ifMatch?: string;
  ifNoneMatch?: string;
  appendPosition?: number;
  maxSize?: number;
  leaseId?: string;
  tagConditions?: string;
};
export interface SdkHttpHeaders {
  blobContentType?: string;
  blobCacheControl?: string;
  blobContentEncoding?: string;
  blobContentLanguage?: string;
  blobContentDisposition?: string;
  blobContentMD5?: Uint8Array;
}
interface LeaseResult {
  etag?: string;
  lastModified?: Date;
  leaseId?: string;
  leaseTime?: number;
}
/** `BlobLeaseClient`, on a blob or a container. */
export interface SdkLeaseClient {
  acquireLease(duration: number, options?: CallOptions): Promise<LeaseResult>;
  renewLease(options?: CallOptions): Promise<LeaseResult>;
  changeLease(proposedLeaseId: string, options?: CallOptions): Promise<LeaseResult>;
  releaseLease(options?: CallOptions): Promise<LeaseResult>;
  breakLease(breakPeriod: number, options?: CallOptions): Promise<LeaseResult>;
}
interface LeaseProperties {
  leaseState?: string;
  leaseStatus?: string;
  leaseDuration?: string;
}
interface CallOptions {
  abortSignal?: AbortSignal;
}
interface WriteOptions extends CallOptions {
  blobHTTPHeaders?: SdkHttpHeaders;
  metadata?: Record<string, string>;
  conditions?: Conditions;
  tags?: Record<string, string>;
  tier?: string;
}
interface Written {
  etag?: string;
  lastModified?: Date;
}
export interface SdkBlobProperties extends LeaseProperties {
  etag?: string;
  lastModified?: Date;
  contentLength?: number;
  contentType?: string;
  cacheControl?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  contentMD5?: Uint8Array;
  /** On a ranged download: the whole blob's MD5. */
  blobContentMD5?: Uint8Array;
  createdOn?: Date;
  metadata?: Record<string, string>;
  blobType?: string;
  blobCommittedBlockCount?: number;
  contentRange?: string;
  tagCount?: number;
  accessTier?: string;
  accessTierInferred?: boolean;
  accessTierChangedOn?: Date;
  archiveStatus?: string;
  rehydratePriority?: string;
  blobSequenceNumber?: number;
  isSealed?: boolean;
}
/** Find Blobs by Tags' page, on the service and on a container. */
export interface SdkFindSegment {
  continuationToken?: string;
  blobs: { name: string; containerName: string; tags?: Record<string, string> }[];
}
export interface SdkBlobItem {
  name: string;
  snapshot?: string;
  deleted?: boolean;
  properties: SdkBlobProperties & { deletedOn?: Date; remainingRetentionDays?: number };
  metadata?: Record<string, string>;
  tags?: Record<string, string>;
}
interface Pages<S> {
  byPage(settings: { maxPageSize?: number; continuationToken?: string }): AsyncIterableIterator<S>;
}
export interface SdkListSegment {
  continuationToken?: string;
  segment: { blobItems: SdkBlobItem[]; blobPrefixes?: { name: string }[] };
}

export interface SdkContainerClient {
  create(options?: CallOptions & { metadata?: Record<string, string>; access?: string }): Promise<unknown>;
  setMetadata(metadata: Record<string, string>, options?: CallOptions): Promise<unknown>;
  getAccessPolicy(
    options?: CallOptions,
  ): Promise<{ blobPublicAccess?: string; signedIdentifiers?: SdkSignedIdentifier[] }>;
  setAccessPolicy(
    access: string | undefined,
    identifiers: SdkSignedIdentifier[],
    options?: CallOptions,
  ): Promise<unknown>;
  delete(options?: CallOptions & { conditions?: { leaseId?: string } }): Promise<unknown>;
  getProperties(options?: CallOptions): Promise<Written & LeaseProperties>;
  getBlobLeaseClient(proposeLeaseId?: string): SdkLeaseClient;
  getBlockBlobClient(name: string): SdkBlockBlobClient;
  getAppendBlobClient(name: string): {
    create(options?: WriteOptions): Promise<Written>;
    appendBlock(
      body: Uint8Array,
      length: number,
      options?: CallOptions & { conditions?: Conditions },
    ): Promise<Written & { blobAppendOffset?: string; blobCommittedBlockCount?: number }>;
    seal(options?: CallOptions & { conditions?: Conditions }): Promise<Written>;
  };
  getPageBlobClient(name: string): SdkPageBlobClient;
  getBlobClient(name: string): SdkBlobClient;
  findBlobsByTags(expression: string, options?: CallOptions): Pages<SdkFindSegment>;
  listBlobsFlat(
    options?: {
      prefix?: string;
      includeMetadata?: boolean;
      includeTags?: boolean;
      includeSnapshots?: boolean;
      includeUncommitedBlobs?: boolean;
      includeDeleted?: boolean;
    } & CallOptions,
  ): Pages<SdkListSegment>;
  listBlobsByHierarchy(
    delimiter: string,
    options?: {
      prefix?: string;
      includeMetadata?: boolean;
      includeTags?: boolean;
      includeSnapshots?: boolean;
      includeUncommitedBlobs?: boolean;
      includeDeleted?: boolean;
    } & CallOptions,
  ): Pages<SdkListSegment>;
}

export interface SdkBlockBlobClient {
  withSnapshot(snapshot: string): SdkBlockBlobClient;
  uploadData(data: Uint8Array, options?: WriteOptions): Promise<Written>;
  uploadStream(
    stream: NodeJS.ReadableStream,
    bufferSize?: number,
    maxConcurrency?: number,
    options?: WriteOptions,
  ): Promise<Written>;
  stageBlock(
    blockId: string,
    body: Uint8Array | NodeJS.ReadableStream,
    contentLength: number,
    options?: CallOptions,
  ): Promise<unknown>;
  commitBlockList(blocks: string[], options?: WriteOptions): Promise<Written>;
  getBlockList(
    listType: "committed" | "uncommitted" | "all",
    options?: CallOptions,
  ): Promise<
    Written & {
      contentType?: string;
      blobContentLength?: number;
      committedBlocks?: { name: string; size: number }[];
      uncommittedBlocks?: { name: string; size: number }[];
    }
  >;
}

export interface SdkBlobClient {
  download(
    offset?: number,
    count?: number,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<SdkBlobProperties & { readableStreamBody?: NodeJS.ReadableStream }>;
  getProperties(options?: CallOptions & { conditions?: Conditions }): Promise<SdkBlobProperties>;
  delete(
    options?: CallOptions & { conditions?: Conditions; deleteSnapshots?: "include" | "only" },
  ): Promise<unknown>;
  createSnapshot(
    options?: CallOptions & { conditions?: Conditions; metadata?: Record<string, string> },
  ): Promise<Written & { snapshot?: string }>;
  withSnapshot(snapshot: string): SdkBlobClient;
  undelete(options?: CallOptions): Promise<unknown>;
  setHTTPHeaders(
    headers?: SdkHttpHeaders,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<Written>;
  setMetadata(
    metadata?: Record<string, string>,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<Written>;
  getBlobLeaseClient(proposeLeaseId?: string): SdkLeaseClient;
  setTags(
    tags: Record<string, string>,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<unknown>;
  getTags(options?: CallOptions & { conditions?: Conditions }): Promise<{ tags?: Record<string, string> }>;
  setAccessTier(
    tier: string,
    options?: CallOptions & { conditions?: Conditions; rehydratePriority?: string },
  ): Promise<{ _response: { status: number } }>;
}

type PageConditions = Conditions & {
  ifSequenceNumberLessThanOrEqualTo?: number;
  ifSequenceNumberLessThan?: number;
  ifSequenceNumberEqualTo?: number;
};
type Sequenced = Written & { blobSequenceNumber?: number };

export interface SdkPageBlobClient {
  create(size: number, options?: WriteOptions & { blobSequenceNumber?: number }): Promise<Written>;
  uploadPages(
    body: Uint8Array,
    offset: number,
    count: number,
    options?: CallOptions & { conditions?: PageConditions },
  ): Promise<Sequenced>;
  clearPages(
    offset: number,
    count: number,
    options?: CallOptions & { conditions?: PageConditions },
  ): Promise<Sequenced>;
  getPageRanges(
    offset?: number,
    count?: number,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<Written & { blobContentLength?: number; pageRange?: { start: number; end: number }[] }>;
  getPageRangesDiff(
    offset: number,
    count: number | undefined,
    prevSnapshot: string,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<
    Written & {
      blobContentLength?: number;
      pageRange?: { start: number; end: number }[];
      clearRange?: { start: number; end: number }[];
    }
  >;
  withSnapshot(snapshot: string): SdkPageBlobClient;
  resize(size: number, options?: CallOptions & { conditions?: Conditions }): Promise<Sequenced>;
  updateSequenceNumber(
    action: "max" | "update" | "increment",
    sequenceNumber?: number,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<Sequenced>;
}

export interface SdkBlobServiceClient {
  readonly url: string;
  getContainerClient(name: string): SdkContainerClient;
  listContainers(options?: { prefix?: string; includeMetadata?: boolean } & CallOptions): Pages<{
    continuationToken?: string;
    containerItems: {
      name: string;
      properties: { etag?: string; lastModified?: Date; publicAccess?: string } & LeaseProperties;
      metadata?: Record<string, string>;
    }[];
  }>;
  getProperties(options?: CallOptions): Promise<object>;
  setProperties(properties: object, options?: CallOptions): Promise<unknown>;
  findBlobsByTags(expression: string, options?: CallOptions): Pages<SdkFindSegment>;
}

export interface BlobSdk {
  BlobServiceClient: {
    fromConnectionString(connectionString: string, options?: object): SdkBlobServiceClient;
    new (url: string, credential?: object, options?: object): SdkBlobServiceClient;
  };
}

/** Loads the SDK, or NotSupported telling the user what to install. */
export async function loadBlobSdk(): Promise<BlobSdk> {
  try {
    return (await import("@azure/storage-blob")) as unknown as BlobSdk;
  } catch (cause) {
    throw new TableKitError(
      "NotSupported",
      "Blobs on an azure: store need the optional peer dependency @azure/storage-blob: npm install @azure/storage-blob",
      { cause },
    );
  }
}

/** A Node Readable over whatever stream the SDK handed back. */
export function asReadable(stream: NodeJS.ReadableStream | undefined): Readable {
  if (!stream) return Readable.from([]);
  return stream instanceof Readable ? stream : Readable.from(stream as AsyncIterable<Uint8Array>);
}
