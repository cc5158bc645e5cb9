import { createReadStream } from "node:fs";
import { TableKitError } from "../../model/index.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { uploadAnnotations } from "./blob-annotations.js";
import type { AccessTier, BackendBody, BlobPart } from "./blob-backend.js";
import { type BlobBytes, type BlobStream, bytesOfLength, checkedStream, toBytes } from "./blob-body.js";
import { BlobClient, type BlobWriteResponse, blobNotFound, createOnlyRefusal } from "./blob-client.js";
import type { BlobCopyOptions } from "./blob-copy.js";
import { type CopySource, readSource, sourceBytes, sourceTagsFor } from "./blob-copy-into.js";
import { type BlobHTTPHeaders, checkHttpHeaders } from "./blob-headers.js";
import {
  type BlobRequestConditions,
  type BlockListEntry,
  checkBlockId,
  checkBlockLength,
  checkBlockList,
  checkRange,
  normalizeMetadata,
} from "./blob-rules.js";

export type { BlockListEntry } from "./blob-rules.js";

/** A block of a block list, as `@azure/storage-blob` names it. */
export interface BlobBlock {
  /** The block id, base64. */
  name: string;
  size: number;
}

/** `getBlockList`'s answer (`@azure/storage-blob`'s BlockBlobGetBlockListResponse, in part). */
export interface BlockListResponse {
  committedBlocks: BlobBlock[];
  uncommittedBlocks: BlobBlock[];
  /** The blob's, when it exists (a blob with only staged blocks does not). */
  etag?: string;
  lastModified?: Date;
  contentType?: string;
  /** The committed blob's length (0 when it does not exist). */
  blobContentLength?: number;
}

export interface StageBlockOptions extends OperationOptions {
  onProgress?: (progress: { loadedBytes: number }) => void;
}

/** Options of every block blob upload, as `@azure/storage-blob` names them. */
export interface BlockBlobUploadOptions extends OperationOptions {
  /** Content type (default application/octet-stream), Cache-Control, Content-Encoding, -Language, -Disposition, MD5. */
  blobHTTPHeaders?: BlobHTTPHeaders;
  metadata?: Record<string, string>;
  /** The blob's index tags (at most 10; replacing any it had). */
  tags?: Record<string, string>;
  /** The blob's access tier (absent: the default, Hot, inferred). */
  tier?: AccessTier;
  /** `{ ifNoneMatch: "*" }`: create only; `{ ifMatch: etag }`: replace only that version; `tagConditions`. */
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
   * Stages a block for a later `commitBlockList` (Put Block): `blockId` base64 of at most 64 bytes,
   * every id of one blob the same length; a block of at most 4000 MiB, refused from a declared
   * `contentLength` before a byte is read. NotSupported where capabilities.blocks is false.
   */
  async stageBlock(
    blockId: string,
    body: BlobBytes | BlobStream,
    contentLength?: number,
    options: StageBlockOptions = {},
  ): Promise<void> {
    const caps = this.port.capabilities;
    const call = this.begin(options);
    this.requireBlocks();
    await this.authorizeStaging(call);
    const id = checkBlockId(blockId, caps);
    const declared = checkBlockLength(contentLength, caps);
    const isStream = typeof body === "object" && body !== null && Symbol.asyncIterator in body;
    const checked: BackendBody = isStream
      ? checkedStream(body, {
          limit: caps.maxBlockBytes,
          ...(declared === undefined ? {} : { expectedLength: declared }),
          abortSignal: options.abortSignal,
          onProgress: options.onProgress,
        })
      : { kind: "bytes", bytes: bytesOfLength(body, declared, caps.maxBlockBytes) };
    await this.backend.stageBlock(
      this.name,
      { id, body: checked, ...(declared === undefined ? {} : { contentLength: declared }) },
      call,
    );
    if (checked.kind === "bytes") options.onProgress?.({ loadedBytes: checked.bytes.byteLength });
  }

  /**
   * Commits the blob as the listed blocks, in order (Put Block List): an id alone is taken from the
   * uncommitted blocks if staged, else from the committed ones (`latest`); `{ id, list }` from that
   * list only. The list becomes the blob's committed block list; every uncommitted block is then
   * discarded. InvalidBlockList for a block that is not there.
   */
  async commitBlockList(
    blocks: readonly BlockListEntry[],
    options: BlockBlobUploadOptions = {},
  ): Promise<BlobWriteResponse> {
    const caps = this.port.capabilities;
    const call = this.begin(options);
    this.requireBlocks();
    const checked = {
      blocks: checkBlockList(blocks, caps),
      ...checkHttpHeaders(options.blobHTTPHeaders, caps),
      metadata: normalizeMetadata(options.metadata, caps),
      ...uploadAnnotations(options, caps, true),
    };
    const result = await this.conditionalWrite(options.conditions, call, (conditions) =>
      this.backend.commitBlocks(this.name, { ...checked, conditions }, call),
    );
    return { etag: result.etag, lastModified: result.lastModified };
  }

  /**
   * The committed blocks, the uncommitted ones, or both (Get Block List). A blob written by a plain
   * upload has no committed blocks. BlobNotFound when the blob neither exists nor has staged blocks.
   */
  async getBlockList(
    listType: "committed" | "uncommitted" | "all",
    options: OperationOptions = {},
  ): Promise<BlockListResponse> {
    const call = this.begin(options);
    this.requireBlocks();
    await this.authorize("readBlob", call);
    if (listType !== "committed" && listType !== "uncommitted" && listType !== "all") {
      throw new TableKitError(
        "InvalidInput",
        `listType is committed, uncommitted or all, not ${String(listType)}`,
      );
    }
    // A snapshot's list is the committed one it kept (it has no staged blocks).
    const lists =
      this.snapshot === undefined
        ? await this.backend.listBlocks(this.name, call)
        : await this.readSnapshot({}, call, (at) => this.backend.listBlocks(this.name, call, at));
    // Anonymous callers see committed blocks only, as the service shows them: staged ones are not yet the blob.
    const hidden = this.port.access?.anonymous === true;
    if (hidden && !lists.properties) throw blobNotFound(this.containerName, this.name);
    const copy = (blocks: readonly { name: string; size: number }[]) =>
      blocks.map((b) => ({ name: b.name, size: b.size }));
    const p = lists.properties;
    return {
      committedBlocks: listType === "uncommitted" ? [] : copy(lists.committed),
      uncommittedBlocks: listType === "committed" || hidden ? [] : copy(lists.uncommitted),
      ...(p
        ? {
            etag: p.etag,
            lastModified: p.lastModified,
            ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
          }
        : {}),
      blobContentLength: p?.contentLength ?? 0,
    };
  }

  /**
   * Staging writes no blob, but only a token that may write this one stages for it: `w`, or `c`
   * while the blob does not exist yet (its commit is then made create-only as well).
   */
  private async authorizeStaging(call: CallOptions): Promise<void> {
    this.refuseOnSnapshot();
    const access = this.port.access;
    if (!access) return;
    if (access.anonymous) return this.authorize("writeBlob", call);
    if (access.blobWriteGrant({ container: this.containerName, blob: this.name }) === "write") return;
    if (await this.backend.getProperties(this.name, {}, call)) throw createOnlyRefusal();
  }

  /**
   * Put Blob From URL: the blob becomes the source's bytes (a blob of this store or a URL), with
   * `metadata` as given (never the source's) and the source's content type unless one is given.
   */
  async syncUploadFromURL(
    source: CopySource,
    options: BlockBlobUploadOptions & Omit<BlobCopyOptions, "metadata" | "conditions"> = {},
  ): Promise<BlobWriteResponse> {
    this.begin(options);
    this.refuseOnSnapshot();
    const { copySourceTags, ...upload } = options;
    const tags = await sourceTagsFor(source, copySourceTags, options.tags);
    const read = await readSource(source, undefined, options);
    const contentType = options.blobHTTPHeaders?.blobContentType ?? read.contentType;
    const written = await this.uploadStream(sourceBytes(read, options), undefined, undefined, {
      ...upload,
      ...(tags === undefined ? {} : { tags }),
      ...(contentType === undefined ? {} : { blobHTTPHeaders: { blobContentType: contentType } }),
    });
    return options.sourceContentMD5 === undefined
      ? written
      : { ...written, contentMD5: options.sourceContentMD5 };
  }

  /** Put Block From URL: stages `count` bytes from `offset` of the source (to its end without `count`). */
  async stageBlockFromURL(
    blockId: string,
    source: CopySource,
    offset = 0,
    count?: number,
    options: StageBlockOptions & Pick<BlobCopyOptions, "sourceConditions" | "sourceContentMD5"> = {},
  ): Promise<void> {
    this.begin(options);
    this.refuseOnSnapshot();
    const range = checkRange(offset === 0 && count === undefined ? undefined : offset, count);
    const read = await readSource(source, range, options);
    const { sourceConditions: _source, sourceContentMD5: _md5, ...stage } = options;
    await this.stageBlock(blockId, sourceBytes(read, options), read.contentLength, stage);
  }

  private requireBlocks(): void {
    const caps = this.port.capabilities;
    if (!caps.blocks) {
      throw new TableKitError(
        "NotSupported",
        `${caps.backend} keeps no block lists: upload the blob whole or with uploadStream (see docs/blobs.md)`,
      );
    }
  }

  /**
   * Commits the blob as `parts` in order: files, left as they are, and ranges of the blob as it is
   * at ETag `basedOn`. A store that can link the files commits without copying a byte; any other
   * streams the parts through an upload. ConditionNotMet when a `current` part is asked for and the
   * blob no longer has ETag `basedOn`. A plain write: the blob then has no committed block list,
   * unless `keepBlockList` says the parts are its own bytes unchanged (Set Blob Properties).
   */
  async commitParts(
    parts: readonly BlobPart[],
    options: BlockBlobUploadOptions & { basedOn?: string; keepBlockList?: boolean } = {},
  ): Promise<BlobWriteResponse> {
    const caps = this.port.capabilities;
    const call = this.begin(options);
    const total = parts.reduce((sum, p) => sum + p.size, 0);
    if (total > caps.maxBlobBytes) {
      throw new TableKitError("RequestBodyTooLarge", `A blob holds at most ${caps.maxBlobBytes} bytes.`, {
        details: { size: total },
      });
    }
    const compose = {
      ...checkHttpHeaders(options.blobHTTPHeaders, caps),
      metadata: normalizeMetadata(options.metadata, caps),
      ...uploadAnnotations(options, caps, true),
      ...(options.basedOn === undefined ? {} : { basedOn: options.basedOn }),
      ...(options.keepBlockList ? { keepBlockList: true } : {}),
    };
    const linked = await this.conditionalWrite(options.conditions, call, (conditions) =>
      this.backend.composeBlocks
        ? this.backend.composeBlocks(this.name, parts, { ...compose, conditions }, call)
        : Promise.resolve(undefined),
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
    const upload = {
      blobType: "BlockBlob" as const,
      body,
      ...checkHttpHeaders(options.blobHTTPHeaders, caps),
      metadata: normalizeMetadata(options.metadata, caps),
      ...uploadAnnotations(options, caps, true),
      ...(partBytes ? { partBytes } : {}),
      ...(concurrency ? { concurrency } : {}),
    };
    const result = await this.conditionalWrite(options.conditions, call, (conditions) =>
      this.backend.upload(this.name, { ...upload, conditions }, call),
    );
    if (body.kind === "bytes") options.onProgress?.({ loadedBytes: body.bytes.byteLength });
    return { etag: result.etag, lastModified: result.lastModified };
  }
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
