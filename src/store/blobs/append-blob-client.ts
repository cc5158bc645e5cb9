import { TableKitError } from "../../model/index.js";
import type { OperationOptions } from "../call-options.js";
import { uploadAnnotations } from "./blob-annotations.js";
import { type BlobBytes, bytesOfLength } from "./blob-body.js";
import { BlobClient, type BlobWriteResponse } from "./blob-client.js";
import { underConditions } from "./blob-conditions.js";
import type { BlobCopySourceConditions } from "./blob-copy.js";
import { type CopySource, readSource } from "./blob-copy-into.js";
import { type BlobHTTPHeaders, checkHttpHeaders } from "./blob-headers.js";
import {
  type BlobRequestConditions,
  checkByteCount,
  checkRange,
  checkRequestConditions,
  normalizeMetadata,
} from "./blob-rules.js";
import { succeededUnless } from "./blob-service.js";
import { readSourceBlock } from "./blob-source-block.js";

export interface AppendBlobCreateOptions extends OperationOptions {
  blobHTTPHeaders?: BlobHTTPHeaders;
  metadata?: Record<string, string>;
  /** The blob's index tags (at most 10). */
  tags?: Record<string, string>;
  conditions?: BlobRequestConditions;
}

export interface AppendBlockOptions extends OperationOptions {
  conditions?: BlobRequestConditions & {
    /** Append only if the blob is exactly this long (an idempotent retry after a lost reply). */
    appendPosition?: number;
    /** Append only if the blob stays within this many bytes. */
    maxSize?: number;
  };
}

export interface AppendBlockFromURLOptions extends AppendBlockOptions {
  /** Conditions on the source (the service's x-ms-source-if-* headers): SourceConditionNotMet. */
  sourceConditions?: BlobCopySourceConditions;
  /** The MD5 the source range must have (x-ms-source-content-md5): Md5Mismatch, nothing appended. */
  sourceContentMD5?: Uint8Array;
}

export interface AppendBlockResponse extends BlobWriteResponse {
  /** Where the block landed, as the SDK gives it: a decimal string. */
  blobAppendOffset: string;
  blobCommittedBlockCount: number;
}

/**
 * An append blob, like `@azure/storage-blob`'s AppendBlobClient: create it, then append blocks
 * (each at most `maxAppendBlockBytes`, at most `maxAppendBlocks` of them). Backends without append
 * blobs (S3) answer NotSupported: check `store.blobCapabilities.appendBlobs`.
 */
export class AppendBlobClient extends BlobClient {
  /** Creates an empty append blob, replacing any blob of this name. */
  async create(options: AppendBlobCreateOptions = {}): Promise<BlobWriteResponse> {
    const call = this.beginAppend(options);
    const caps = this.port.capabilities;
    const upload = {
      blobType: "AppendBlob" as const,
      body: { kind: "bytes" as const, bytes: new Uint8Array(0) },
      // Created empty: its MD5 is a property, kept as given (1 to 64 bytes), as Set Blob Properties keeps it.
      ...checkHttpHeaders(options.blobHTTPHeaders, caps, "any"),
      metadata: normalizeMetadata(options.metadata, caps),
      ...uploadAnnotations(options, caps, false),
    };
    const result = await this.conditionalWrite(options.conditions, call, (conditions) =>
      this.backend.upload(this.name, { ...upload, conditions }, call),
    );
    return { etag: result.etag, lastModified: result.lastModified };
  }

  /** Creates the blob unless one of this name exists (as the SDK does: `ifNoneMatch: "*"`). */
  async createIfNotExists(
    options: Omit<AppendBlobCreateOptions, "conditions"> = {},
  ): Promise<{ succeeded: boolean } & Partial<BlobWriteResponse>> {
    return succeededUnless("BlobAlreadyExists", () =>
      this.create({ ...options, conditions: { ifNoneMatch: "*" } }),
    );
  }

  /** Appends one block of 1..maxAppendBlockBytes bytes. */
  async appendBlock(
    body: BlobBytes,
    contentLength: number,
    options: AppendBlockOptions = {},
  ): Promise<AppendBlockResponse> {
    const call = this.beginAppend(options);
    await this.authorize("appendBlock", call);
    const caps = this.port.capabilities;
    const bytes = bytesOfLength(body, contentLength, caps.maxAppendBlockBytes);
    if (bytes.byteLength === 0)
      throw new TableKitError("InvalidInput", "An append block holds at least one byte");
    const c = options.conditions;
    const appendPosition = checkByteCount("appendPosition", c?.appendPosition);
    const maxSize = checkByteCount("maxSize", c?.maxSize);
    const http = checkRequestConditions(
      c && {
        ...(c.ifMatch === undefined ? {} : { ifMatch: c.ifMatch }),
        ...(c.ifNoneMatch === undefined ? {} : { ifNoneMatch: c.ifNoneMatch }),
        ...(c.ifModifiedSince === undefined ? {} : { ifModifiedSince: c.ifModifiedSince }),
        ...(c.ifUnmodifiedSince === undefined ? {} : { ifUnmodifiedSince: c.ifUnmodifiedSince }),
        ...(c.leaseId === undefined ? {} : { leaseId: c.leaseId }),
        ...(c.tagConditions === undefined ? {} : { tagConditions: c.tagConditions }),
      },
    );
    const append = {
      ...(appendPosition === undefined ? {} : { appendPosition }),
      ...(maxSize === undefined ? {} : { maxSize }),
    };
    const result = await underConditions(http, caps, "write", this.current(call), (conditions) =>
      this.backend.appendBlock(this.name, { bytes, conditions: { ...conditions, ...append } }, call),
    );
    return {
      etag: result.etag,
      lastModified: result.lastModified,
      blobAppendOffset: String(result.appendOffset),
      blobCommittedBlockCount: result.committedBlockCount,
    };
  }

  /**
   * Append Block From URL: appends `count` bytes of the source from `sourceOffset` (all of it from
   * there when `count` is undefined) as one block, under the same conditions as appendBlock. A blob
   * of this store is read through the store (authorized as a read by its own client); a URL is
   * fetched, so it must be readable as its server answers it (public, or with a SAS). A source that
   * cannot be read or a range past its end is CannotVerifyCopySource; more than
   * `maxAppendBlockBytes` is RequestBodyTooLarge; nothing is appended on any error.
   */
  async appendBlockFromURL(
    source: CopySource,
    sourceOffset = 0,
    count?: number,
    options: AppendBlockFromURLOptions = {},
  ): Promise<AppendBlockResponse> {
    const call = this.beginAppend(options);
    this.refuseOnSnapshot();
    await this.authorize("appendBlock", call);
    const caps = this.port.capabilities;
    const range = checkRange(sourceOffset, count);
    if (range?.count !== undefined && range.count > caps.maxAppendBlockBytes) {
      throw new TableKitError(
        "RequestBodyTooLarge",
        `An append block holds at most ${caps.maxAppendBlockBytes} bytes; the source range has ${range.count}`,
        { details: { bytes: range.count, limit: caps.maxAppendBlockBytes } },
      );
    }
    const { sourceConditions: _source, sourceContentMD5: _md5, ...append } = options;
    // The block is read whole and its MD5 checked there (readSourceBlock), not as it streams.
    const read = await readSource(source, range, {
      ...append,
      ...(_source ? { sourceConditions: _source } : {}),
    });
    const bytes = await readSourceBlock(read, caps.maxAppendBlockBytes, options);
    return this.appendBlock(bytes, bytes.byteLength, append);
  }

  /**
   * Seals the blob: later appends fail with BlobIsSealed, and the seal cannot be undone (sealing a
   * sealed blob succeeds). `appendPosition` seals only a blob of that length. Where
   * `blobCapabilities.sealAppendBlobs`.
   */
  async seal(
    options: OperationOptions & { conditions?: BlobRequestConditions & { appendPosition?: number } } = {},
  ): Promise<BlobWriteResponse> {
    const call = this.beginAppend(options);
    const caps = this.port.capabilities;
    const seal = this.backend.sealAppendBlob;
    if (!caps.sealAppendBlobs || !seal) {
      throw new TableKitError("NotSupported", `${caps.backend} cannot seal append blobs`);
    }
    await this.authorize("writeBlob", call);
    const c = options.conditions;
    const appendPosition = checkByteCount("appendPosition", c?.appendPosition);
    const { appendPosition: _position, ...http } = c ?? {};
    const position = appendPosition === undefined ? {} : { appendPosition };
    const result = await underConditions(
      checkRequestConditions(c === undefined ? undefined : http),
      caps,
      "write",
      this.current(call),
      (conditions) => seal.call(this.backend, this.name, { ...conditions, ...position }, call),
    );
    return { etag: result.etag, lastModified: result.lastModified };
  }

  private beginAppend(options: OperationOptions | undefined) {
    const call = this.begin(options);
    if (!this.port.capabilities.appendBlobs) {
      throw new TableKitError(
        "NotSupported",
        `${this.port.capabilities.backend} has no append blobs: write numbered block blobs instead (docs/blobs.md)`,
      );
    }
    return call;
  }
}
