import { type StoreTarget, storeFor } from "../data-tables/store-registry.js";
import { TableKitError } from "../model/errors.js";
import type { ResourceMetadata } from "../store/access/state-backend.js";
import type { BlobBytes } from "../store/blobs/blob-body.js";
import type {
  BlobContainer,
  BlobItem,
  BlobPrefix,
  ContainerCreateOptions,
  ContainerProperties,
  HierarchyItem,
  ListBlobsFlatSegment,
  ListBlobsHierarchySegment,
  ListBlobsOptions,
} from "../store/blobs/blob-container.js";
import type { FindBlobsByTagsSegment } from "../store/blobs/find-by-tags.js";
import type { OperationOptions } from "../store/call-options.js";
import {
  AppendBlobClient,
  BlobClient,
  type BlobWriteResponse,
  BlockBlobClient,
  type BlockBlobUploadOptions,
  PageBlobClient,
} from "./blob-clients.js";
import { BlobLeaseClient } from "./blob-lease-client.js";
import { type BlobResponseHeaders, blobError, blobHeaders, blobListing } from "./responses.js";

export type {
  BlobItem,
  BlobPrefix,
  ContainerCreateOptions,
  ContainerProperties,
  HierarchyItem,
  ListBlobsOptions,
};

export interface ContainerCreateResponse extends BlobResponseHeaders {
  etag?: string;
  lastModified?: Date;
}

export interface ContainerIfResponse extends BlobResponseHeaders {
  succeeded: boolean;
  errorCode?: string;
}

export interface ListBlobsFlatSegmentResponse extends ListBlobsFlatSegment, BlobResponseHeaders {
  serviceEndpoint: string;
  containerName: string;
  continuationToken: string;
}

export interface ListBlobsHierarchySegmentResponse extends ListBlobsHierarchySegment, BlobResponseHeaders {
  serviceEndpoint: string;
  containerName: string;
  continuationToken: string;
}

/**
 * `@azure/storage-blob`'s ContainerClient over any store's blob port: create, delete, exists,
 * properties and metadata, blob clients, uploads and deletes by name, flat and hierarchical listings.
 */
export class ContainerClient {
  readonly containerName: string;
  readonly url: string;

  /** @internal Made by `BlobServiceClient.getContainerClient`. */
  constructor(
    private readonly target: StoreTarget,
    containerName: string,
  ) {
    if (typeof containerName !== "string" || containerName === "") {
      throw new TableKitError("InvalidInput", "A container name is required");
    }
    this.containerName = containerName;
    this.url = `${target.endpoint}/${containerName}`;
  }

  private async container(): Promise<BlobContainer> {
    return (await storeFor(this.target)).container(this.containerName);
  }

  private fail(err: unknown, method: string, query = "?restype=container"): unknown {
    return blobError(err, `${this.url}${query}`, method);
  }

  async create(options?: ContainerCreateOptions): Promise<ContainerCreateResponse> {
    try {
      const container = await this.container();
      await container.create(options);
      const { etag, lastModified } = await container.getProperties();
      return { ...blobHeaders(), etag, lastModified };
    } catch (err) {
      throw this.fail(err, "PUT");
    }
  }

  async createIfNotExists(options?: ContainerCreateOptions): Promise<ContainerIfResponse> {
    try {
      const { succeeded } = await (await this.container()).createIfNotExists(options);
      return succeeded ? { succeeded, ...blobHeaders() } : { succeeded, errorCode: "ContainerAlreadyExists" };
    } catch (err) {
      throw this.fail(err, "PUT");
    }
  }

  async delete(options?: OperationOptions): Promise<BlobResponseHeaders> {
    try {
      await (await this.container()).delete(options);
    } catch (err) {
      throw this.fail(err, "DELETE");
    }
    return blobHeaders();
  }

  async deleteIfExists(options?: OperationOptions): Promise<ContainerIfResponse> {
    try {
      const { succeeded } = await (await this.container()).deleteIfExists(options);
      return succeeded ? { succeeded, ...blobHeaders() } : { succeeded, errorCode: "ContainerNotFound" };
    } catch (err) {
      throw this.fail(err, "DELETE");
    }
  }

  async exists(options?: OperationOptions): Promise<boolean> {
    try {
      return await (await this.container()).exists(options);
    } catch (err) {
      throw this.fail(err, "GET");
    }
  }

  async getProperties(options?: OperationOptions): Promise<ContainerProperties & BlobResponseHeaders> {
    try {
      return { ...blobHeaders(), ...(await (await this.container()).getProperties(options)) };
    } catch (err) {
      throw this.fail(err, "GET");
    }
  }

  async setMetadata(metadata?: ResourceMetadata, options?: OperationOptions): Promise<BlobResponseHeaders> {
    try {
      await (await this.container()).setMetadata(metadata, options);
    } catch (err) {
      throw this.fail(err, "PUT", "?restype=container&comp=metadata");
    }
    return blobHeaders();
  }

  /** The public access level and stored access policies. */
  async getAccessPolicy(...args: Parameters<BlobContainer["getAccessPolicy"]>) {
    try {
      return { ...blobHeaders(), ...(await (await this.container()).getAccessPolicy(...args)) };
    } catch (err) {
      throw this.fail(err, "GET", "?restype=container&comp=acl");
    }
  }

  /** Replaces the public access level (absent: private) and the stored access policies. */
  async setAccessPolicy(...args: Parameters<BlobContainer["setAccessPolicy"]>) {
    try {
      return { ...blobHeaders(), ...(await (await this.container()).setAccessPolicy(...args)) };
    } catch (err) {
      throw this.fail(err, "PUT", "?restype=container&comp=acl");
    }
  }

  getBlobClient(blobName: string): BlobClient {
    return new BlobClient({ target: this.target, containerName: this.containerName, name: blobName });
  }

  getBlockBlobClient(blobName: string): BlockBlobClient {
    return new BlockBlobClient({ target: this.target, containerName: this.containerName, name: blobName });
  }

  getAppendBlobClient(blobName: string): AppendBlobClient {
    return new AppendBlobClient({ target: this.target, containerName: this.containerName, name: blobName });
  }

  getPageBlobClient(blobName: string): PageBlobClient {
    return new PageBlobClient({ target: this.target, containerName: this.containerName, name: blobName });
  }

  /** A lease on the container (a leased container refuses a delete without its lease id). */
  getBlobLeaseClient(proposeLeaseId?: string): BlobLeaseClient {
    return new BlobLeaseClient(
      async (leaseId) => (await this.container()).getBlobLeaseClient(leaseId),
      `${this.url}?restype=container`,
      proposeLeaseId,
    );
  }

  /** Find Blobs by Tags within this container; iterate, or `.byPage()` for `{ where, blobs, continuationToken }`. */
  findBlobsByTags(tagFilterSqlExpression: string, options?: OperationOptions) {
    return blobListing(
      async () => (await this.container()).findBlobsByTags(tagFilterSqlExpression, options),
      (segment: FindBlobsByTagsSegment) => ({ serviceEndpoint: `${this.target.endpoint}/`, ...segment }),
      (err) => this.fail(err, "GET", "?restype=container&comp=blobs"),
    );
  }

  async uploadBlockBlob(
    blobName: string,
    body: BlobBytes,
    contentLength: number,
    options?: BlockBlobUploadOptions,
  ): Promise<{ blockBlobClient: BlockBlobClient; response: BlobWriteResponse }> {
    const blockBlobClient = this.getBlockBlobClient(blobName);
    return { blockBlobClient, response: await blockBlobClient.upload(body, contentLength, options) };
  }

  async deleteBlob(blobName: string, options?: OperationOptions): Promise<BlobResponseHeaders> {
    return this.getBlobClient(blobName).delete(options);
  }

  /** Blobs in name order; iterate, or `.byPage({ maxPageSize, continuationToken })` for the SDK's segments. */
  listBlobsFlat(options?: ListBlobsOptions) {
    return blobListing(
      async () => (await this.container()).listBlobsFlat(options),
      (segment: ListBlobsFlatSegment) => ({
        serviceEndpoint: `${this.target.endpoint}/`,
        containerName: this.containerName,
        ...segment,
      }),
      (err) => this.fail(err, "GET", "?restype=container&comp=list"),
    );
  }

  /** Blobs and virtual directories (`kind: "prefix"`) one level below the prefix. */
  listBlobsByHierarchy(delimiter: string, options?: ListBlobsOptions) {
    return blobListing(
      async () => (await this.container()).listBlobsByHierarchy(delimiter, options),
      (segment: ListBlobsHierarchySegment) => ({
        serviceEndpoint: `${this.target.endpoint}/`,
        containerName: this.containerName,
        ...segment,
      }),
      (err) => this.fail(err, "GET", "?restype=container&comp=list"),
    );
  }
}
