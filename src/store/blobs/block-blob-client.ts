import { createReadStream } from "node:fs";
import { TableKitError } from "../../model/index.js";
import type { OperationOptions } from "../call-options.js";
import type { BackendBody, BlobPart } from "./blob-backend.js";
import { type BlobBytes, type BlobStream, bytesOfLength, checkedStream, toBytes } from "./blob-body.js";
import { asCreateOnly, BlobClient, type BlobWriteResponse } from "./blob-client.js";
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

  /**
   * Commits the blob as `parts` in order (the Blob service's Put Block List): files, left as they
   * are, and ranges of the blob as it is at ETag `basedOn`. A store that can link the files commits
   * without copying a byte; any other streams the parts through an upload. ConditionNotMet when a
   * `current` part is asked for and the blob no longer has ETag `basedOn`.
   */
  async commitParts(
    parts: readonly BlobPart[],
    options: BlockBlobUploadOptions & { basedOn?: string } = {},
  ): Promise<BlobWriteResponse> {
    const caps = this.port.capabilities;
    const call = this.begin(options);
    const total = parts.reduce((sum, p) => sum + p.size, 0);
    if (total > caps.maxBlobBytes) {
      throw new TableKitError("RequestBodyTooLarge", `A blob holds at most ${caps.maxBlobBytes} bytes.`, {
        details: { size: total },
      });
    }
    const { conditions, createOnly } = await this.writeConditions(
      checkConditions(options.conditions, caps, "write"),
      call,
    );
    const compose = {
      contentType: checkContentType(options.blobHTTPHeaders?.blobContentType),
      metadata: normalizeMetadata(options.metadata, caps),
      conditions,
      ...(options.basedOn === undefined ? {} : { basedOn: options.basedOn }),
    };
    const linked = await asCreateOnly(
      createOnly,
      this.backend.composeBlocks?.(this.name, parts, compose, call) ?? Promise.resolve(undefined),
    );
    if (linked) return { etag: linked.etag, lastModified: linked.lastModified };
    const pinned = options.basedOn;
    const read = (offset: number, count: number) =>
      this.download(offset, count, { conditions: { ifMatch: pinned ?? "*" } });
    async function* bytes(): AsyncGenerator<Uint8Array> {
      for (const part of parts) {
        if (part.size === 0) continue;
        const stream =
          part.kind === "file"
            ? createReadStream(part.path)
            : (await read(part.offset, part.size)).readableStreamBody;
        for await (const chunk of stream) yield chunk as Buffer;
      }
    }
    return this.uploadStream(bytes(), undefined, undefined, options);
  }

  private async write(
    body: BackendBody,
    options: BlockBlobUploadOptions,
    partBytes?: number,
    concurrency?: number,
  ): Promise<BlobWriteResponse> {
    const caps = this.port.capabilities;
    const call = this.begin(options);
    const { conditions, createOnly } = await this.writeConditions(
      checkConditions(options.conditions, caps, "write"),
      call,
    );
    const upload = {
      blobType: "BlockBlob" as const,
      body,
      contentType: checkContentType(options.blobHTTPHeaders?.blobContentType),
      metadata: normalizeMetadata(options.metadata, caps),
      conditions,
      ...(partBytes ? { partBytes } : {}),
      ...(concurrency ? { concurrency } : {}),
    };
    const result = await asCreateOnly(createOnly, this.backend.upload(this.name, upload, call));
    if (body.kind === "bytes") options.onProgress?.({ loadedBytes: body.bytes.byteLength });
    return { etag: result.etag, lastModified: result.lastModified };
  }
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
