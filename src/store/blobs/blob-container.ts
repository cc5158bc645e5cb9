import { TableKitError } from "../../model/index.js";
import { refuseHeldName } from "../access/deleted-name-hold.js";
import { checkResourceMetadata, copyMetadata } from "../access/resource-metadata.js";
import type { PublicAccessLevel, ResourceMetadata, StateBackend } from "../access/state-backend.js";
import { requireState } from "../access/state-port.js";
import type { BlobOperation } from "../access/storage-operations.js";
import { datedIdentifiers, datedPolicies, type SignedIdentifier } from "../access/stored-access-policies.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { AppendBlobClient } from "./append-blob-client.js";
import { requireTags } from "./blob-annotations.js";
import type { BlobType, ContainerBackend, Metadata, StoredBlobItem } from "./blob-backend.js";
import { BlobBatchClient } from "./blob-batch-client.js";
import type { BlobBytes } from "./blob-body.js";
import {
  BlobClient,
  type BlobDeleteOptions,
  type BlobProperties,
  type BlobWriteResponse,
  copyProperties,
  tierProperties,
} from "./blob-client.js";
import { conditionNotMet } from "./blob-conditions.js";
import { headerProperties } from "./blob-headers.js";
import { BlobLeaseClient } from "./blob-lease-client.js";
import type { LeaseDuration, LeaseState, LeaseStatus } from "./blob-leases.js";
import {
  blobNameMarkers,
  blobScope,
  resumeAfter,
  type SegmentedAsyncIterableIterator,
  segmentedIterator,
} from "./blob-paging.js";
import { checkLeaseId, validateContainerName } from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess, succeededUnless } from "./blob-service.js";
import { requireSnapshots } from "./blob-snapshot.js";
import { deletionFields, requireSoftDelete } from "./blob-soft-delete.js";
import type { BlobTags } from "./blob-tags.js";
import { BlockBlobClient, type BlockBlobUploadOptions } from "./block-blob-client.js";
import { type FilterBlobItem, type FindBlobsByTagsSegment, findBlobsByTags } from "./find-by-tags.js";
import { PageBlobClient } from "./page-blob-client.js";

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

export interface ContainerCreateOptions extends OperationOptions {
  /** Name/value pairs kept with the container (names kept in case, compared ignoring it). */
  metadata?: ResourceMetadata;
  /** Anonymous reads: of blobs (`blob`), and listing too (`container`); absent: private. */
  access?: PublicAccessLevel;
}

/** `getProperties`'s result (`@azure/storage-blob`'s ContainerGetPropertiesResponse, in part). */
export interface ContainerProperties {
  etag: string;
  lastModified: Date;
  metadata: ResourceMetadata;
  blobPublicAccess?: PublicAccessLevel;
  /** Where capabilities.leases. */
  leaseState?: LeaseState;
  leaseStatus?: LeaseStatus;
  leaseDuration?: LeaseDuration;
}

export interface ContainerDeleteOptions extends OperationOptions {
  /** The lease a leased container needs to be deleted. */
  conditions?: { leaseId?: string };
}

export interface ContainerGetAccessPolicyResponse {
  blobPublicAccess?: PublicAccessLevel;
  signedIdentifiers: SignedIdentifier[];
}

function checkAccess(access: unknown): PublicAccessLevel | undefined {
  if (access === undefined || access === "blob" || access === "container") return access;
  throw new TableKitError(
    "InvalidInput",
    `access must be "blob", "container" or absent; got ${JSON.stringify(access)}`,
  );
}

export type HierarchyItem = ({ kind: "prefix" } & BlobPrefix) | ({ kind: "blob" } & BlobItem);

/**
 * One container, like `@azure/storage-blob`'s ContainerClient: create and delete it, reach its
 * blobs, upload and delete by name, list flat or by hierarchy. A handle does no I/O until used.
 */
export class BlobContainer {
  private readonly backend: ContainerBackend;

  constructor(
    private readonly port: BlobPort,
    readonly containerName: string,
  ) {
    this.backend = port.service.container(containerName);
  }

  /** The backend's call options, once the store is open, the name valid and the token allows `operation`. */
  private async begin(options: OperationOptions | undefined, operation: BlobOperation): Promise<CallOptions> {
    const call = beginBlobCall(this.port, options);
    validateContainerName(this.containerName, this.port.capabilities);
    await checkBlobAccess(this.port, operation, this.containerName, undefined, call);
    return call;
  }

  /** ContainerAlreadyExists when it exists. A new container starts with no stored access policies. */
  async create(options: ContainerCreateOptions = {}): Promise<ContainerWriteResponse> {
    const call = await this.begin(options, "createContainer");
    const metadata = checkResourceMetadata(options.metadata);
    const publicAccess = checkAccess(options.access);
    const initial = { metadata, ...(publicAccess ? { publicAccess } : {}) };
    const stateful = Object.keys(metadata).length > 0 || publicAccess !== undefined;
    if (stateful) this.state("container metadata and public access");
    const { service, deletedNameHoldSeconds } = this.port;
    await refuseHeldName(
      service.state,
      this.containerName,
      deletedNameHoldSeconds,
      "ContainerBeingDeleted",
      call,
    );
    await this.port.service.createContainer(this.containerName, call, stateful ? initial : undefined);
    return this.written(call);
  }

  /**
   * The container's ETag and time after a write, read by the core itself (as the service answers
   * them): the token that wrote needs no read right for it.
   */
  private async written(call: CallOptions): Promise<ContainerWriteResponse> {
    const found = await this.backend.getContainerProperties(call);
    if (!found) throw containerNotFound(this.containerName);
    return { etag: found.etag, lastModified: found.lastModified };
  }

  private state(what: string): StateBackend {
    return requireState(this.port.service.state, this.port.capabilities.backend, what);
  }

  /**
   * Replaces the container's metadata (`{}` or none removes it); ContainerNotFound when absent.
   * `conditions.ifModifiedSince`, the one condition the service takes here: ConditionNotMet unless
   * the container changed after it.
   */
  async setMetadata(
    metadata?: ResourceMetadata,
    options: OperationOptions & { conditions?: { ifModifiedSince?: Date } } = {},
  ): Promise<ContainerWriteResponse> {
    const call = await this.begin(options, "setContainerMetadata");
    const checked = checkResourceMetadata(metadata);
    const since = options.conditions?.ifModifiedSince;
    if (since !== undefined) {
      const found = await this.backend.getContainerProperties(call);
      if (!found) throw containerNotFound(this.containerName);
      if (Math.floor(found.lastModified.getTime() / 1000) <= Math.floor(since.getTime() / 1000)) {
        throw conditionNotMet();
      }
    }
    await this.state("container metadata").setState(this.containerName, { metadata: checked }, call);
    return this.written(call);
  }

  /** The public access level and stored access policies; ContainerNotFound when absent. */
  async getAccessPolicy(options: OperationOptions = {}): Promise<ContainerGetAccessPolicyResponse> {
    const call = await this.begin(options, "getContainerAcl");
    const found = await this.state("stored access policies").getState(this.containerName, "access", call);
    return {
      ...(found.publicAccess ? { blobPublicAccess: found.publicAccess } : {}),
      signedIdentifiers: datedIdentifiers(found.policies),
    };
  }

  /**
   * Replaces the public access level (absent: private) and the stored access policies (at most
   * five; permissions from `racwdxltmeop`), as `ContainerClient.setAccessPolicy`.
   */
  async setAccessPolicy(
    access?: PublicAccessLevel,
    identifiers?: SignedIdentifier[],
    options: OperationOptions = {},
  ): Promise<ContainerWriteResponse> {
    const call = await this.begin(options, "setContainerAcl");
    const publicAccess = checkAccess(access);
    const policies = datedPolicies(identifiers, "container");
    await this.state("stored access policies").setState(
      this.containerName,
      { access: { ...(publicAccess ? { publicAccess } : {}), policies } },
      call,
    );
    return this.written(call);
  }

  async createIfNotExists(options: ContainerCreateOptions = {}): Promise<{ succeeded: boolean }> {
    return succeededUnless("ContainerAlreadyExists", async () => {
      await this.create(options);
    });
  }

  /**
   * Deletes the container and every blob in it; ContainerNotFound when absent. A container with an
   * active lease is deleted only with its id (`conditions.leaseId`): LeaseIdMissing otherwise.
   */
  async delete(options: ContainerDeleteOptions = {}): Promise<void> {
    const call = await this.begin(options, "deleteContainer");
    const leaseId = options.conditions?.leaseId;
    if (leaseId === undefined) return this.port.service.deleteContainer(this.containerName, call);
    await this.port.service.deleteContainer(
      this.containerName,
      call,
      checkLeaseId(leaseId, this.port.capabilities),
    );
  }

  /** A lease on this container (`@azure/storage-blob`'s BlobLeaseClient), with `proposeLeaseId` or a new GUID. */
  getBlobLeaseClient(proposeLeaseId?: string): BlobLeaseClient {
    return new BlobLeaseClient(this.port, this.containerName, undefined, proposeLeaseId);
  }

  async deleteIfExists(options: ContainerDeleteOptions = {}): Promise<{ succeeded: boolean }> {
    return succeededUnless("ContainerNotFound", () => this.delete(options));
  }

  async exists(options: OperationOptions = {}): Promise<boolean> {
    return (
      (await this.backend.getContainerProperties(await this.begin(options, "getContainerProperties"))) !==
      undefined
    );
  }

  /** ContainerNotFound when absent. Metadata and public access as kept (`{}` and private on a backend without state). */
  async getProperties(options: OperationOptions = {}): Promise<ContainerProperties> {
    const found = await this.backend.getContainerProperties(
      await this.begin(options, "getContainerProperties"),
    );
    if (!found) throw containerNotFound(this.containerName);
    return {
      etag: found.etag,
      lastModified: found.lastModified,
      metadata: copyMetadata(found.metadata ?? {}),
      ...(found.publicAccess ? { blobPublicAccess: found.publicAccess } : {}),
      ...(found.lease === undefined
        ? {}
        : {
            leaseState: found.lease.state,
            leaseStatus: found.lease.status,
            ...(found.lease.duration === undefined ? {} : { leaseDuration: found.lease.duration }),
          }),
    };
  }

  getBlobClient(name: string): BlobClient {
    return new BlobClient(this.port, this.containerName, name);
  }

  /** Deletes or re-tiers up to 256 of this container's blobs, one result each (blob-batch-client.ts). */
  getBlobBatchClient(): BlobBatchClient {
    return new BlobBatchClient(
      (container, blob) => new BlobClient(this.port, container, blob),
      this.containerName,
    );
  }

  getBlockBlobClient(name: string): BlockBlobClient {
    return new BlockBlobClient(this.port, this.containerName, name);
  }

  getAppendBlobClient(name: string): AppendBlobClient {
    return new AppendBlobClient(this.port, this.containerName, name);
  }

  getPageBlobClient(name: string): PageBlobClient {
    return new PageBlobClient(this.port, this.containerName, name);
  }

  async uploadBlockBlob(
    name: string,
    body: BlobBytes,
    contentLength: number,
    options: BlockBlobUploadOptions = {},
  ): Promise<{ blockBlobClient: BlockBlobClient; response: BlobWriteResponse }> {
    const blockBlobClient = this.getBlockBlobClient(name);
    return { blockBlobClient, response: await blockBlobClient.upload(body, contentLength, options) };
  }

  async deleteBlob(name: string, options: BlobDeleteOptions = {}): Promise<void> {
    await this.getBlobClient(name).delete(options);
  }

  /** Every blob whose name starts with `prefix`, in name order; `byPage()` yields the SDK's segments. */
  listBlobsFlat(
    options: ListBlobsOptions = {},
  ): SegmentedAsyncIterableIterator<BlobItem, ListBlobsFlatSegment> {
    const prefix = options.prefix ?? "";
    return segmentedIterator(
      async (maxPageSize, continuation, after) => {
        const page = await this.listPage(options, maxPageSize, continuation, after);
        const withMetadata = options.includeMetadata === true;
        return {
          items: page.items.map((i) =>
            toBlobItem(i as StoredBlobItem, withMetadata, options.includeTags === true),
          ),
          continuation: page.continuation,
        };
      },
      this.pageSizes(options, prefix),
      (blobItems, continuationToken) => withToken({ prefix, segment: { blobItems } }, continuationToken),
    );
  }

  /**
   * Blobs and virtual directories one level below `prefix`: a name holding `delimiter` after the
   * prefix rolls up into the prefix that ends there. Items come in name order, directories as
   * `{ kind: "prefix", name }`; a page counts both.
   */
  listBlobsByHierarchy(
    delimiter: string,
    options: ListBlobsOptions = {},
  ): SegmentedAsyncIterableIterator<HierarchyItem, ListBlobsHierarchySegment> {
    const prefix = options.prefix ?? "";
    return segmentedIterator(
      async (maxPageSize, continuation, after) => {
        if (typeof delimiter !== "string" || delimiter === "") {
          throw new TableKitError("InvalidInput", "The delimiter is a non-empty string, e.g. '/'");
        }
        const page = await this.listPage(options, maxPageSize, continuation, after, delimiter);
        return {
          items: page.items.map(
            (i): HierarchyItem =>
              i.kind === "prefix"
                ? { kind: "prefix", name: i.name }
                : {
                    kind: "blob",
                    ...toBlobItem(i, options.includeMetadata === true, options.includeTags === true),
                  },
          ),
          continuation: page.continuation,
        };
      },
      this.pageSizes(options, prefix, typeof delimiter === "string" ? delimiter : ""),
      (items, continuationToken) =>
        withToken(
          {
            prefix,
            delimiter,
            segment: {
              blobItems: items.flatMap(({ kind, ...item }) => (kind === "blob" ? [item as BlobItem] : [])),
              blobPrefixes: items.flatMap((i) => (i.kind === "prefix" ? [{ name: i.name }] : [])),
            },
          },
          continuationToken,
        ),
    );
  }

  private async listPage(
    options: ListBlobsOptions,
    maxPageSize: number,
    continuation: string | undefined,
    after: string | undefined,
    delimiter?: string,
  ) {
    const call = await this.begin(options, "listBlobs");
    if (options.includeTags === true) requireTags(this.port.capabilities);
    const prefix = options.prefix ?? "";
    if (typeof prefix !== "string") throw new TableKitError("InvalidInput", "prefix must be a string");
    if (options.includeSnapshots === true) requireSnapshots(this.port.capabilities);
    if (options.includeDeleted === true) requireSoftDelete(this.port.capabilities);
    if (options.includeUncommitedBlobs === true && !this.port.capabilities.blocks) {
      throw new TableKitError(
        "NotSupported",
        `${this.port.capabilities.backend} keeps no staged blocks (blobCapabilities.blocks is false)`,
      );
    }
    return this.backend.list(
      {
        prefix,
        ...(delimiter === undefined ? {} : { delimiter }),
        maxPageSize,
        ...(continuation === undefined ? {} : { continuation }),
        ...this.resumeAfter(after, prefix, delimiter),
        includeMetadata: options.includeMetadata === true,
        ...(options.includeTags === true ? { includeTags: true } : {}),
        ...(options.includeSnapshots === true ? { includeSnapshots: true } : {}),
        ...(options.includeCopy === true ? { includeCopy: true } : {}),
        ...(options.includeDeleted === true ? { includeDeleted: true } : {}),
        ...(options.includeUncommitedBlobs === true ? { includeUncommitted: true } : {}),
      },
      call,
    );
  }

  /**
   * Find Blobs by Tags within this container (`"key" = 'v' AND …`, docs/blobs.md#blob-index-tags);
   * `byPage()` yields `{ where, blobs, continuationToken }`.
   */
  findBlobsByTags(
    expression: string,
    options: OperationOptions = {},
  ): SegmentedAsyncIterableIterator<FilterBlobItem, FindBlobsByTagsSegment> {
    return findBlobsByTags(this.port, expression, options, this.containerName);
  }

  /** Page sizes, what the listing's tokens are bound to, and whether they may be names. */
  private pageSizes<T extends { name: string; snapshot?: string; kind?: string }>(
    options: ListBlobsOptions,
    prefix: string,
    delimiter = "",
  ) {
    const caps = this.port.capabilities;
    const names = blobNameMarkers<T>(caps, options.includeDeleted === true);
    return {
      defaultPageSize: caps.maxListPageSize,
      maxPageSize: caps.maxListPageSize,
      tokenScope: blobScope("blobs", this.containerName, prefix, delimiter),
      ...(names ? { names } : {}),
    };
  }

  /** The backend's `after` for a name token (docs/blobs.md, Semantics: Listing). */
  private resumeAfter(marker: string | undefined, prefix: string, delimiter: string | undefined) {
    const after =
      marker === undefined
        ? undefined
        : resumeAfter(marker, prefix, delimiter, this.port.capabilities.nameOrder);
    return after === undefined ? {} : { after };
  }
}

function toBlobItem(item: StoredBlobItem, includeMetadata: boolean, includeTags: boolean): BlobItem {
  const p = item.properties;
  const deletion = deletionFields(item.deleted);
  return {
    name: item.name,
    ...deletion.item,
    ...(item.snapshot === undefined ? {} : { snapshot: item.snapshot }),
    properties: {
      etag: p.etag,
      lastModified: p.lastModified,
      contentLength: p.contentLength,
      ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
      ...headerProperties(p.headers),
      blobType: p.blobType,
      ...(p.createdOn === undefined ? {} : { createdOn: p.createdOn }),
      ...(p.lease === undefined
        ? {}
        : {
            leaseState: p.lease.state,
            leaseStatus: p.lease.status,
            ...(p.lease.duration === undefined ? {} : { leaseDuration: p.lease.duration }),
          }),
      ...tierProperties(p),
      ...(p.blobType === "AppendBlob" ? { isSealed: p.sealed === true } : {}),
      ...(p.sequenceNumber === undefined ? {} : { blobSequenceNumber: p.sequenceNumber }),
      ...(p.copy ? copyProperties(p.copy) : {}),
      ...deletion.properties,
    },
    ...(includeMetadata ? { metadata: { ...p.metadata } } : {}),
    ...(includeTags && item.tags && Object.keys(item.tags).length > 0 ? { tags: { ...item.tags } } : {}),
  };
}

function withToken<T extends object>(
  segment: T,
  continuationToken: string | undefined,
): T & { continuationToken?: string } {
  return continuationToken === undefined ? segment : { ...segment, continuationToken };
}

/** What a container write answers (`@azure/storage-blob`'s ContainerCreateResponse, in part). */
export interface ContainerWriteResponse {
  etag: string;
  lastModified: Date;
}

function containerNotFound(containerName: string): TableKitError {
  return new TableKitError("ContainerNotFound", "The specified container does not exist.", {
    details: { containerName },
  });
}
