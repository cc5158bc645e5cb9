import { connectionStringTarget, type StoreTarget, storeFor } from "../data-tables/store-registry.js";
import { TableKitError } from "../model/errors.js";
import { accountOf } from "../storage-queue/queue-client.js";
import type {
  ContainerItem,
  ListContainersOptions,
  ListContainersSegment,
} from "../store/blobs/blob-service.js";
import type { FindBlobsByTagsSegment } from "../store/blobs/find-by-tags.js";
import type { OperationOptions } from "../store/call-options.js";
import {
  ContainerClient,
  type ContainerCreateOptions,
  type ContainerCreateResponse,
} from "./container-client.js";
import { type BlobResponseHeaders, blobError, blobListing } from "./responses.js";

export type { ContainerItem, ListContainersOptions };

export interface ServiceListContainersSegmentResponse extends ListContainersSegment, BlobResponseHeaders {
  serviceEndpoint: string;
  prefix?: string;
  continuationToken: string;
}

/**
 * `@azure/storage-blob`'s BlobServiceClient over any tablekit store's blob port. Clients made from
 * the same connection string (or store URL) share one store, with the queue and table clients too.
 */
export class BlobServiceClient {
  readonly url: string;
  readonly accountName: string;
  private readonly target: StoreTarget;

  /** A tablekit store URL (`memory:`, `file:…`); Azure accounts through `fromConnectionString`. */
  constructor(url: string, _credential?: object, _options?: object) {
    if (typeof url === "string" && /^https?:\/\//i.test(url)) {
      throw new TableKitError(
        "InvalidStoreUrl",
        "tablekit/storage-blob reaches Azure through BlobServiceClient.fromConnectionString(connectionString)",
      );
    }
    this.target = connectionStringTarget(url, "blob");
    this.url = this.target.endpoint;
    this.accountName = accountOf(this.url);
  }

  /** A client from an Azure connection string, or from any tablekit store URL. */
  static fromConnectionString(connectionString: string, _options?: object): BlobServiceClient {
    return new BlobServiceClient(connectionString);
  }

  getContainerClient(containerName: string): ContainerClient {
    return new ContainerClient(this.target, containerName);
  }

  /** Creates a container: its client and the create response, as the SDK's. */
  async createContainer(
    containerName: string,
    options?: ContainerCreateOptions,
  ): Promise<{ containerClient: ContainerClient; containerCreateResponse: ContainerCreateResponse }> {
    const containerClient = this.getContainerClient(containerName);
    return { containerClient, containerCreateResponse: await containerClient.create(options) };
  }

  async deleteContainer(containerName: string, options?: OperationOptions): Promise<BlobResponseHeaders> {
    return this.getContainerClient(containerName).delete(options);
  }

  /** Find Blobs by Tags across the account's containers; iterate, or `.byPage()` for the segments. */
  findBlobsByTags(tagFilterSqlExpression: string, options?: OperationOptions) {
    return blobListing(
      async () => (await storeFor(this.target)).findBlobsByTags(tagFilterSqlExpression, options),
      (segment: FindBlobsByTagsSegment) => ({ serviceEndpoint: `${this.url}/`, ...segment }),
      (err) => blobError(err, `${this.url}/?comp=blobs`, "GET"),
    );
  }

  /** Containers in name order; iterate, or `.byPage({ maxPageSize, continuationToken })`. */
  listContainers(options?: ListContainersOptions) {
    return blobListing(
      async () => (await storeFor(this.target)).listContainers(options),
      (segment: ListContainersSegment) => ({
        serviceEndpoint: `${this.url}/`,
        prefix: options?.prefix,
        ...segment,
      }),
      (err) => blobError(err, `${this.url}/?comp=list`, "GET"),
    );
  }
}
