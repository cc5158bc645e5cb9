import type { AppendBlobClient as PortAppendBlobClient } from "../store/blobs/append-blob-client.js";
import type { BlobClient as PortBlobClient } from "../store/blobs/blob-client.js";
import type { BlobContainer } from "../store/blobs/blob-container.js";
import type {
  BlockBlobUploadOptions,
  BlockListEntry,
  BlockListResponse,
  BlockBlobClient as PortBlockBlobClient,
  StageBlockOptions,
} from "../store/blobs/block-blob-client.js";
import type { PageBlobClient as PortPageBlobClient } from "../store/blobs/page-blob-client.js";
import { type BlobAddress, BlobOperations } from "./blob-operations.js";
import { type BlobResponseHeaders, blobHeaders } from "./responses.js";

export type {
  BlobDeleteOptions,
  BlobDownloadOptions,
  BlobProperties,
  BlobReadOptions,
} from "../store/blobs/blob-client.js";
export type { BlockBlobUploadOptions, BlockListEntry, BlockListResponse, StageBlockOptions };

export type BlobGetPropertiesResponse = Awaited<ReturnType<BlobClient["getProperties"]>>;
export type BlobDownloadResponse = Awaited<ReturnType<BlobClient["download"]>>;
export interface BlobWriteResponse extends BlobResponseHeaders {
  etag: string;
  lastModified: Date;
}
export interface BlobDeleteIfExistsResponse extends BlobResponseHeaders {
  succeeded: boolean;
  errorCode?: string;
}

/** The typed clients of the same blob, as the SDK's `get…Client()` of any blob client. */
abstract class TypedBlobClients<P extends PortBlobClient> extends BlobOperations<P> {
  getBlockBlobClient(): BlockBlobClient {
    return new BlockBlobClient(this.address);
  }

  getAppendBlobClient(): AppendBlobClient {
    return new AppendBlobClient(this.address);
  }

  getPageBlobClient(): PageBlobClient {
    return new PageBlobClient(this.address);
  }
}

/** `@azure/storage-blob`'s BlobClient over any store's blob port (blob-operations.ts has its methods). */
export class BlobClient extends TypedBlobClients<PortBlobClient> {
  protected open(container: BlobContainer, name: string): PortBlobClient {
    return container.getBlobClient(name);
  }
}

/** `@azure/storage-blob`'s BlockBlobClient: whole uploads (bytes or a stream), staged blocks committed as a list. */
export class BlockBlobClient extends TypedBlobClients<PortBlockBlobClient> {
  protected open(container: BlobContainer, name: string): PortBlockBlobClient {
    return container.getBlockBlobClient(name);
  }

  /** Uploads `contentLength` bytes, replacing any blob of this name. */
  upload(...args: Parameters<PortBlockBlobClient["upload"]>): Promise<BlobWriteResponse> {
    return this.respond("PUT", "", (p) => p.upload(...args));
  }

  uploadData(...args: Parameters<PortBlockBlobClient["uploadData"]>): Promise<BlobWriteResponse> {
    return this.respond("PUT", "", (p) => p.uploadData(...args));
  }

  uploadStream(...args: Parameters<PortBlockBlobClient["uploadStream"]>): Promise<BlobWriteResponse> {
    return this.respond("PUT", "", (p) => p.uploadStream(...args));
  }

  async stageBlock(...args: Parameters<PortBlockBlobClient["stageBlock"]>): Promise<BlobResponseHeaders> {
    await this.call("PUT", "?comp=block", (p) => p.stageBlock(...args));
    return blobHeaders();
  }

  commitBlockList(...args: Parameters<PortBlockBlobClient["commitBlockList"]>): Promise<BlobWriteResponse> {
    return this.respond("PUT", "?comp=blocklist", (p) => p.commitBlockList(...args));
  }

  getBlockList(...args: Parameters<PortBlockBlobClient["getBlockList"]>) {
    return this.respond("GET", "?comp=blocklist", (p) => p.getBlockList(...args));
  }

  syncUploadFromURL(...args: Parameters<PortBlockBlobClient["syncUploadFromURL"]>) {
    return this.respond("PUT", "", (p) => p.syncUploadFromURL(...args));
  }

  async stageBlockFromURL(
    ...args: Parameters<PortBlockBlobClient["stageBlockFromURL"]>
  ): Promise<BlobResponseHeaders> {
    await this.call("PUT", "?comp=block", (p) => p.stageBlockFromURL(...args));
    return blobHeaders();
  }
}

/** `@azure/storage-blob`'s AppendBlobClient: create, append blocks, seal. */
export class AppendBlobClient extends TypedBlobClients<PortAppendBlobClient> {
  protected open(container: BlobContainer, name: string): PortAppendBlobClient {
    return container.getAppendBlobClient(name);
  }

  create(...args: Parameters<PortAppendBlobClient["create"]>): Promise<BlobWriteResponse> {
    return this.respond("PUT", "", (p) => p.create(...args));
  }

  async createIfNotExists(...args: Parameters<PortAppendBlobClient["createIfNotExists"]>) {
    const answer = await this.respond("PUT", "", (p) => p.createIfNotExists(...args));
    return answer.succeeded ? answer : { succeeded: false, errorCode: "BlobAlreadyExists" };
  }

  appendBlock(...args: Parameters<PortAppendBlobClient["appendBlock"]>) {
    return this.respond("PUT", "?comp=appendblock", (p) => p.appendBlock(...args));
  }

  seal(...args: Parameters<PortAppendBlobClient["seal"]>) {
    return this.respond("PUT", "?comp=seal", (p) => p.seal(...args));
  }
}

/** `@azure/storage-blob`'s PageBlobClient: 512-byte pages written, cleared and listed, resize, sequence numbers. */
export class PageBlobClient extends TypedBlobClients<PortPageBlobClient> {
  protected open(container: BlobContainer, name: string): PortPageBlobClient {
    return container.getPageBlobClient(name);
  }

  create(...args: Parameters<PortPageBlobClient["create"]>): Promise<BlobWriteResponse> {
    return this.respond("PUT", "", (p) => p.create(...args));
  }

  async createIfNotExists(...args: Parameters<PortPageBlobClient["createIfNotExists"]>) {
    const answer = await this.respond("PUT", "", (p) => p.createIfNotExists(...args));
    return answer.succeeded ? answer : { succeeded: false, errorCode: "BlobAlreadyExists" };
  }

  uploadPages(...args: Parameters<PortPageBlobClient["uploadPages"]>) {
    return this.respond("PUT", "?comp=page", (p) => p.uploadPages(...args));
  }

  clearPages(...args: Parameters<PortPageBlobClient["clearPages"]>) {
    return this.respond("PUT", "?comp=page", (p) => p.clearPages(...args));
  }

  getPageRanges(...args: Parameters<PortPageBlobClient["getPageRanges"]>) {
    return this.respond("GET", "?comp=pagelist", (p) => p.getPageRanges(...args));
  }

  resize(...args: Parameters<PortPageBlobClient["resize"]>) {
    return this.respond("PUT", "?comp=properties", (p) => p.resize(...args));
  }

  updateSequenceNumber(...args: Parameters<PortPageBlobClient["updateSequenceNumber"]>) {
    return this.respond("PUT", "?comp=properties", (p) => p.updateSequenceNumber(...args));
  }
}

export type { BlobAddress };
