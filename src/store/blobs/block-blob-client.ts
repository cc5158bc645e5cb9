import type { OperationOptions } from "../call-options.js";
import type { BackendBody } from "./blob-backend.js";
import { type BlobBytes, type BlobStream, bytesOfLength, checkedStream, toBytes } from "./blob-body.js";
import { BlobClient, type BlobWriteResponse } from "./blob-client.js";
import {
  type BlobRequestConditions,
  checkConditions,
  checkContentType,
  normalizeMetadata,
} from "./blob-rules.js";

/** Options of every block blob upload, as `@azure/storage-blob` names them. */
export interface BlockBlobUploadOptions extends OperationOptions {
  blobHTTPHeaders?: { blobContentType?: string };
  metadata?: Record<string, string>;
  /** `{ ifNoneMatch: "*" }`: create only; `{ ifMatch: etag }`: replace only that version. */
  conditions?: BlobRequestConditions;
  onProgress?: (progress: { loadedBytes: number }) => void;
}

/** A block blob, like `@azure/storage-blob`'s BlockBlobClient: whole-blob uploads from bytes or a stream. */
export class BlockBlobClient extends BlobClient {
  /** Uploads `contentLength` bytes (checked against the body), replacing any blob of this name. */
  async upload(
    body: BlobBytes,
    contentLength: number,
    options: BlockBlobUploadOptions = {},
  ): Promise<BlobWriteResponse> {
    this.begin(options);
    const bytes = bytesOfLength(body, contentLength, this.port.capabilities.maxBlobBytes);
    return this.write({ kind: "bytes", bytes }, options);
  }

  /** Uploads bytes, whatever their length. */
  async uploadData(data: BlobBytes, options: BlockBlobUploadOptions = {}): Promise<BlobWriteResponse> {
    this.begin(options);
    const bytes = bytesOfLength(toBytes(data), undefined, this.port.capabilities.maxBlobBytes);
    return this.write({ kind: "bytes", bytes }, options);
  }

  /**
   * Uploads a stream of unknown length with bounded memory. `bufferSize` and `maxConcurrency` are
   * the part size and parallelism of backends that upload in parts (Azure blocks, S3 multipart).
   * A stream that fails, or an abort, leaves the blob as it was.
   */
  async uploadStream(
    stream: BlobStream,
    bufferSize?: number,
    maxConcurrency?: number,
    options: BlockBlobUploadOptions = {},
  ): Promise<BlobWriteResponse> {
    this.begin(options);
    const body = checkedStream(stream, {
      limit: this.port.capabilities.maxBlobBytes,
      abortSignal: options.abortSignal,
      onProgress: options.onProgress,
    });
    return this.write(body, options, positive(bufferSize), positive(maxConcurrency));
  }

  private async write(
    body: BackendBody,
    options: BlockBlobUploadOptions,
    partBytes?: number,
    concurrency?: number,
  ): Promise<BlobWriteResponse> {
    const caps = this.port.capabilities;
    const call = this.begin(options);
    const upload = {
      blobType: "BlockBlob" as const,
      body,
      contentType: checkContentType(options.blobHTTPHeaders?.blobContentType),
      metadata: normalizeMetadata(options.metadata, caps),
      conditions: checkConditions(options.conditions, caps, "write"),
      ...(partBytes ? { partBytes } : {}),
      ...(concurrency ? { concurrency } : {}),
    };
    const result = await this.backend.upload(this.name, upload, call);
    if (body.kind === "bytes") options.onProgress?.({ loadedBytes: body.bytes.byteLength });
    return { etag: result.etag, lastModified: result.lastModified };
  }
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
