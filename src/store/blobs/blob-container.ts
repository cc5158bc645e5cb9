import { TableKitError } from "../../model/index.js";
import { refuseHeldName } from "../access/deleted-name-hold.js";
import { checkResourceMetadata, copyMetadata } from "../access/resource-metadata.js";
import type { PublicAccessLevel, ResourceMetadata, StateBackend } from "../access/state-backend.js";
import { requireState } from "../access/state-port.js";
import type { BlobOperation } from "../access/storage-operations.js";
import { datedIdentifiers, datedPolicies, type SignedIdentifier } from "../access/stored-access-policies.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { AppendBlobClient } from "./append-blob-client.js";
import type { ContainerBackend } from "./blob-backend.js";
import { BlobBatchClient } from "./blob-batch-client.js";
import type { BlobBytes } from "./blob-body.js";
import { BlobClient, type BlobDeleteOptions, type BlobWriteResponse } from "./blob-client.js";
import { conditionNotMet } from "./blob-conditions.js";
import type {
  ContainerCreateOptions,
  ContainerDeleteOptions,
  ContainerGetAccessPolicyResponse,
  ContainerProperties,
  ContainerWriteResponse,
} from "./blob-container-types.js";
import { BlobLeaseClient } from "./blob-lease-client.js";
import type {
  BlobItem,
  HierarchyItem,
  ListBlobsFlatSegment,
  ListBlobsHierarchySegment,
  ListBlobsOptions,
} from "./blob-list-types.js";
import { type ListingScope, listByHierarchy, listFlat } from "./blob-listing.js";
import type { SegmentedAsyncIterableIterator } from "./blob-paging.js";
import { checkLeaseId, validateContainerName } from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess, succeededUnless } from "./blob-service.js";
import { BlockBlobClient, type BlockBlobUploadOptions } from "./block-blob-client.js";
import { type FilterBlobItem, type FindBlobsByTagsSegment, findBlobsByTags } from "./find-by-tags.js";
import { PageBlobClient } from "./page-blob-client.js";

export type {
  ContainerCreateOptions,
  ContainerDeleteOptions,
  ContainerGetAccessPolicyResponse,
  ContainerProperties,
  ContainerWriteResponse,
} from "./blob-container-types.js";
export type {
  BlobItem,
  BlobPrefix,
  HierarchyItem,
  ListBlobsFlatSegment,
  ListBlobsHierarchySegment,
  ListBlobsOptions,
} from "./blob-list-types.js";

function checkAccess(access: unknown): PublicAccessLevel | undefined {
  if (access === undefined || access === "blob" || access === "container") return access;
  throw new TableKitError(
    "InvalidInput",
    `access must be "blob", "container" or absent; got ${JSON.stringify(access)}`,
  );
}

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
    return listFlat(this.listing(), options);
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
    return listByHierarchy(this.listing(), delimiter, options);
  }

  private listing(): ListingScope {
    return {
      port: this.port,
      backend: this.backend,
      containerName: this.containerName,
      begin: (options, operation) => this.begin(options, operation),
    };
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
}

function containerNotFound(containerName: string): TableKitError {
  return new TableKitError("ContainerNotFound", "The specified container does not exist.", {
    details: { containerName },
  });
}
