import type { Readable } from "node:stream";
import { type StoreTarget, storeFor } from "../data-tables/store-registry.js";
import { TableKitError } from "../model/errors.js";
import type { BlobBytes, BlobStream } from "../store/blobs/blob-body.js";
import type {
  BlobDeleteOptions,
  BlobDownloadOptions,
  BlobProperties,
  BlobReadOptions,
} from "../store/blobs/blob-client.js";
import type {
  BlockBlobUploadOptions,
  BlockListEntry,
  BlockListResponse,
  BlockBlobClient as PortBlockBlobClient,
  StageBlockOptions,
} from "../store/blobs/block-blob-client.js";
import type { OperationOptions } from "../store/call-options.js";
import type { Store } from "../store/store.js";
import { type BlobResponseHeaders, blobError, blobHeaders } from "./responses.js";

export type {
  BlobDeleteOptions,
  BlobDownloadOptions,
  BlobProperties,
  BlobReadOptions,
  BlockBlobUploadOptions,
  BlockListEntry,
  BlockListResponse,
  StageBlockOptions,
};

export type BlobGetPropertiesResponse = BlobProperties & BlobResponseHeaders;
export type BlobDownloadResponse = BlobProperties &
  BlobResponseHeaders & { readableStreamBody?: Readable; contentRange?: string };
export interface BlobWriteResponse extends BlobResponseHeaders {
  etag: string;
  lastModified: Date;
}
export interface BlobDeleteIfExistsResponse extends BlobResponseHeaders {
  succeeded: boolean;
  errorCode?: string;
}

/** What a blob client was made from: the store target, its endpoint, the container and blob names. */
export interface BlobAddress {
  readonly target: StoreTarget;
  readonly containerName: string;
  readonly name: string;
}

/**
 * `@azure/storage-blob`'s BlobClient over any store's blob port: download (streamed, whole or a
 * range), downloadToBuffer, getProperties, exists, delete, deleteIfExists. Results carry the SDK's
 * fields the port has and its response headers; errors are RestErrors.
 */
export class BlobClient {
  readonly containerName: string;
  readonly name: string;
  readonly url: string;
  protected readonly target: StoreTarget;

  /** @internal Made by `ContainerClient.getBlobClient`. */
  constructor(address: BlobAddress) {
    if (typeof address.name !== "string" || address.name === "") {
      throw new TableKitError("InvalidInput", "A blob name is required");
    }
    this.target = address.target;
    this.containerName = address.containerName;
    this.name = address.name;
    this.url = `${address.target.endpoint}/${address.containerName}/${encodeURIComponent(address.name)}`;
  }

  protected async port(): Promise<PortBlockBlobClient> {
    const store: Store = await storeFor(this.target);
    return store.container(this.containerName).getBlockBlobClient(this.name);
  }

  protected fail(err: unknown, method: string, query = ""): unknown {
    return blobError(err, `${this.url}${query}`, method);
  }

  /** Streams the blob (or `count` bytes from `offset`) as `readableStreamBody`. */
  async download(
    offset?: number,
    count?: number,
    options?: BlobDownloadOptions,
  ): Promise<BlobDownloadResponse> {
    try {
      const response = await (await this.port()).download(offset, count, options);
      return { ...blobHeaders(), ...response };
    } catch (err) {
      throw this.fail(err, "GET");
    }
  }

  /** The blob (or a range) in one Buffer. */
  async downloadToBuffer(offset?: number, count?: number, options?: BlobDownloadOptions): Promise<Buffer> {
    try {
      return await (await this.port()).downloadToBuffer(offset, count, options);
    } catch (err) {
      throw this.fail(err, "GET");
    }
  }

  async getProperties(options?: BlobReadOptions): Promise<BlobGetPropertiesResponse> {
    try {
      return { ...blobHeaders(), ...(await (await this.port()).getProperties(options)) };
    } catch (err) {
      throw this.fail(err, "HEAD");
    }
  }

  async exists(options?: OperationOptions): Promise<boolean> {
    try {
      return await (await this.port()).exists(options);
    } catch (err) {
      throw this.fail(err, "HEAD");
    }
  }

  async delete(options?: BlobDeleteOptions): Promise<BlobResponseHeaders> {
    try {
      await (await this.port()).delete(options);
    } catch (err) {
      throw this.fail(err, "DELETE");
    }
    return blobHeaders();
  }

  async deleteIfExists(options?: BlobDeleteOptions): Promise<BlobDeleteIfExistsResponse> {
    try {
      const { succeeded } = await (await this.port()).deleteIfExists(options);
      return succeeded ? { succeeded, ...blobHeaders() } : { succeeded, errorCode: "BlobNotFound" };
    } catch (err) {
      throw this.fail(err, "DELETE");
    }
  }

  getBlockBlobClient(): BlockBlobClient {
    return new BlockBlobClient({ target: this.target, containerName: this.containerName, name: this.name });
  }
}

/** `@azure/storage-blob`'s BlockBlobClient: whole uploads, and staged blocks committed as a list. */
export class BlockBlobClient extends BlobClient {
  /** Uploads `contentLength` bytes, replacing any blob of this name. */
  async upload(
    body: BlobBytes,
    contentLength: number,
    options?: BlockBlobUploadOptions,
  ): Promise<BlobWriteResponse> {
    try {
      return { ...blobHeaders(), ...(await (await this.port()).upload(body, contentLength, options)) };
    } catch (err) {
      throw this.fail(err, "PUT");
    }
  }

  async uploadData(data: BlobBytes, options?: BlockBlobUploadOptions): Promise<BlobWriteResponse> {
    try {
      return { ...blobHeaders(), ...(await (await this.port()).uploadData(data, options)) };
    } catch (err) {
      throw this.fail(err, "PUT");
    }
  }

  async stageBlock(
    blockId: string,
    body: BlobBytes | BlobStream,
    contentLength?: number,
    options?: StageBlockOptions,
  ): Promise<BlobResponseHeaders> {
    try {
      await (await this.port()).stageBlock(blockId, body, contentLength, options);
    } catch (err) {
      throw this.fail(err, "PUT", "?comp=block");
    }
    return blobHeaders();
  }

  async commitBlockList(
    blocks: readonly BlockListEntry[],
    options?: BlockBlobUploadOptions,
  ): Promise<BlobWriteResponse> {
    try {
      return { ...blobHeaders(), ...(await (await this.port()).commitBlockList(blocks, options)) };
    } catch (err) {
      throw this.fail(err, "PUT", "?comp=blocklist");
    }
  }

  async getBlockList(
    listType: "committed" | "uncommitted" | "all",
    options?: OperationOptions,
  ): Promise<BlockListResponse & BlobResponseHeaders> {
    try {
      return { ...blobHeaders(), ...(await (await this.port()).getBlockList(listType, options)) };
    } catch (err) {
      throw this.fail(err, "GET", "?comp=blocklist");
    }
  }
}
