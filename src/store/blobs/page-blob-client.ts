import { TableKitError } from "../../model/index.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { uploadAnnotations } from "./blob-annotations.js";
import type { BackendConditions, SequenceConditions } from "./blob-backend.js";
import { type BlobBytes, bytesOfLength } from "./blob-body.js";
import { BlobClient, type BlobWriteResponse } from "./blob-client.js";
import { underConditions } from "./blob-conditions.js";
import { asSourceError, newCopyId } from "./blob-copy.js";
import type { CopySourceBlob } from "./blob-copy-into.js";
import { checkHttpHeaders } from "./blob-headers.js";
import {
  type BlobRequestConditions,
  checkRange,
  checkRequestConditions,
  normalizeMetadata,
} from "./blob-rules.js";
import { succeededUnless } from "./blob-service.js";
import { checkSnapshot, requireSnapshots } from "./blob-snapshot.js";
import type {
  PageBlobCreateOptions,
  PageBlobRequestConditions,
  PageCopyResponse,
  PageRangesResponse,
  PageWriteOptions,
  PageWriteResponse,
} from "./page-blob-types.js";

export type {
  PageBlobCreateOptions,
  PageBlobRequestConditions,
  PageCopyResponse,
  PageRangesResponse,
  PageWriteOptions,
  PageWriteResponse,
} from "./page-blob-types.js";

/** Pages are 512 bytes: every size, offset and count of a page blob is a multiple of it. */
export const PAGE_BYTES = 512;

/**
 * A page blob, like `@azure/storage-blob`'s PageBlobClient: a sparse blob of 512-byte pages, zeros
 * where nothing was written, written and cleared in place up to `maxPageWriteBytes` at a time.
 * Backends without page blobs (S3) answer NotSupported: check `store.blobCapabilities.pageBlobs`.
 */
export class PageBlobClient extends BlobClient {
  /** Creates an empty page blob of `size` bytes (a multiple of 512), replacing any blob of this name. */
  async create(size: number, options: PageBlobCreateOptions = {}): Promise<BlobWriteResponse> {
    const { call, pages } = this.beginPages(options);
    const caps = this.port.capabilities;
    const checkedSize = this.checkSize(size);
    const sequenceNumber = checkSequenceNumber("blobSequenceNumber", options.blobSequenceNumber ?? 0);
    // Created empty: its MD5 is a property, kept as given (1 to 64 bytes), as Set Blob Properties keeps it.
    const { contentType, headers } = checkHttpHeaders(options.blobHTTPHeaders, caps, "any");
    const create = {
      size: checkedSize,
      sequenceNumber,
      ...(contentType === undefined ? {} : { contentType }),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...uploadAnnotations(options, caps, false),
      metadata: normalizeMetadata(options.metadata, caps),
    };
    const result = await this.conditionalWrite(options.conditions, call, (conditions) =>
      pages.createPageBlob(this.name, { ...create, conditions }, call),
    );
    return { etag: result.etag, lastModified: result.lastModified };
  }

  /** Creates the blob unless one of this name exists (as the SDK does: `ifNoneMatch: "*"`). */
  async createIfNotExists(
    size: number,
    options: Omit<PageBlobCreateOptions, "conditions"> = {},
  ): Promise<{ succeeded: boolean } & Partial<BlobWriteResponse>> {
    return succeededUnless("BlobAlreadyExists", () =>
      this.create(size, { ...options, conditions: { ifNoneMatch: "*" } }),
    );
  }

  /** Writes `count` bytes of `body` at `offset` (both multiples of 512, count at most maxPageWriteBytes). */
  async uploadPages(
    body: BlobBytes,
    offset: number,
    count: number,
    options: PageWriteOptions = {},
  ): Promise<PageWriteResponse> {
    const { call, pages } = this.beginPages(options);
    await this.authorize("writeBlob", call);
    this.checkPageRange(offset, count);
    const bytes = bytesOfLength(body, count, this.port.capabilities.maxPageWriteBytes);
    const { http, sequence } = this.pageConditions(options.conditions);
    const result = await this.underWrite(http, call, (c) =>
      pages.writePages(this.name, { offset, count, bytes, conditions: { ...c, ...sequence } }, call),
    );
    return {
      etag: result.etag,
      lastModified: result.lastModified,
      blobSequenceNumber: result.sequenceNumber,
    };
  }

  /** Clears `count` bytes at `offset` (multiples of 512): they read as zeros and leave the page ranges. */
  async clearPages(
    offset: number,
    count: number,
    options: PageWriteOptions = {},
  ): Promise<PageWriteResponse> {
    const { call, pages } = this.beginPages(options);
    await this.authorize("writeBlob", call);
    this.checkPageRange(offset, count, true);
    const { http, sequence } = this.pageConditions(options.conditions);
    const result = await this.underWrite(http, call, (c) =>
      pages.writePages(this.name, { offset, count, conditions: { ...c, ...sequence } }, call),
    );
    return {
      etag: result.etag,
      lastModified: result.lastModified,
      blobSequenceNumber: result.sequenceNumber,
    };
  }

  /** The written ranges of the blob (or of this snapshot), or of `count` bytes from `offset` (clipped to it). */
  async getPageRanges(
    offset?: number,
    count?: number,
    options: OperationOptions & { conditions?: BlobRequestConditions } = {},
  ): Promise<PageRangesResponse> {
    return this.pageRanges(offset, count, options, undefined);
  }

  /**
   * Get Page Ranges' diff: the ranges written (`pageRange`) and cleared (`clearRange`) since the
   * blob's older snapshot `previousSnapshot`, on the blob or on this snapshot (a newer one).
   * PreviousSnapshotNotFound, PreviousSnapshotCannotBeNewer; NotSupported without snapshots.
   */
  async getPageRangesDiff(
    offset: number | undefined,
    count: number | undefined,
    previousSnapshot: string,
    options: OperationOptions & { conditions?: BlobRequestConditions } = {},
  ): Promise<PageRangesResponse> {
    return this.pageRanges(offset, count, options, checkSnapshot(previousSnapshot));
  }

  private async pageRanges(
    offset: number | undefined,
    count: number | undefined,
    options: OperationOptions & { conditions?: BlobRequestConditions },
    previousSnapshot: string | undefined,
  ): Promise<PageRangesResponse> {
    const { call, pages } = this.beginPages(options);
    await this.authorize("readBlob", call);
    if (previousSnapshot !== undefined || this.snapshot !== undefined)
      requireSnapshots(this.port.capabilities);
    const range = checkRange(offset, count);
    const conditions = checkRequestConditions(options.conditions);
    const query = {
      ...(this.snapshot === undefined ? {} : { snapshot: this.snapshot }),
      ...(previousSnapshot === undefined ? {} : { previousSnapshot }),
    };
    const { ranges, clearRanges, properties } =
      this.snapshot === undefined
        ? await underConditions(conditions, this.port.capabilities, "read", this.current(call), (c) =>
            pages.getPageRanges(this.name, range, c, call, query),
          )
        : await this.readSnapshot(conditions, call, () =>
            pages.getPageRanges(this.name, range, {}, call, query),
          );
    return {
      etag: properties.etag,
      lastModified: properties.lastModified,
      blobContentLength: properties.contentLength,
      pageRange: ranges,
      clearRange: clearRanges ?? [],
    };
  }

  /**
   * Incremental Copy Blob: copies `source`, a snapshot of a page blob of this store (its client from
   * `withSnapshot`), into this blob and takes a snapshot of it (`destinationSnapshot`); this blob is
   * then an incremental copy: read its snapshots, not it. Done when this returns (`success`).
   * IncrementalCopySourceMustBeSnapshot, IncrementalCopyBlobMismatch,
   * IncrementalCopyOfEarlierSnapshotNotAllowed, CannotVerifyCopySource; NotSupported where
   * capabilities.incrementalCopy is false or the source is in another store.
   */
  async startCopyIncremental(
    source: CopySourceBlob,
    options: OperationOptions & { conditions?: BlobRequestConditions; sourceUrl?: string } = {},
  ): Promise<PageCopyResponse> {
    const { call, pages } = this.beginPages(options);
    if (!this.port.capabilities.incrementalCopy || !pages.copyIncremental || !source.sameStoreAs(this.port)) {
      throw new TableKitError(
        "NotSupported",
        `${this.port.capabilities.backend} does not copy incrementally here (incrementalCopy, a source of this store)`,
      );
    }
    const snapshot = source.snapshot;
    if (snapshot === undefined) {
      throw new TableKitError(
        "IncrementalCopySourceMustBeSnapshot",
        "The source of an incremental copy must be a snapshot.",
        { details: { source: true, blobName: source.name } },
      );
    }
    // The source's read is authorized through its own client (its store's token).
    await source.getProperties().catch((err: unknown) => {
      throw asSourceError(err);
    });
    const id = newCopyId();
    const sourceUrl =
      options.sourceUrl ?? `/${source.containerName}/${encodeURIComponent(source.name)}?snapshot=${snapshot}`;
    const copyIncremental = pages.copyIncremental.bind(pages);
    const result = await this.conditionalWrite(options.conditions, call, (conditions) =>
      copyIncremental(
        this.name,
        { container: source.containerName, name: source.name, snapshot },
        { conditions, id, sourceUrl },
        call,
      ),
    );
    return {
      etag: result.etag,
      lastModified: result.lastModified,
      copyId: id,
      copyStatus: "success",
      destinationSnapshot: result.copy.destinationSnapshot!,
    };
  }

  /** Sets the size (a multiple of 512): pages past a smaller size are dropped, a larger size reads zeros. */
  async resize(size: number, options: OperationOptions & { conditions?: BlobRequestConditions } = {}) {
    const { call, pages } = this.beginPages(options);
    await this.authorize("writeBlob", call);
    const checked = this.checkSize(size);
    const result = await this.underWrite(checkRequestConditions(options.conditions), call, (conditions) =>
      pages.changePageBlob(this.name, { size: checked, conditions }, call),
    );
    return {
      etag: result.etag,
      lastModified: result.lastModified,
      blobSequenceNumber: result.sequenceNumber,
    };
  }

  /** `max` (the larger of the two), `update` (set it) or `increment` (add one; no number given). */
  async updateSequenceNumber(
    sequenceNumberAction: "max" | "update" | "increment",
    sequenceNumber?: number,
    options: OperationOptions & { conditions?: BlobRequestConditions } = {},
  ): Promise<PageWriteResponse> {
    const { call, pages } = this.beginPages(options);
    await this.authorize("writeBlob", call);
    if (
      sequenceNumberAction !== "max" &&
      sequenceNumberAction !== "update" &&
      sequenceNumberAction !== "increment"
    ) {
      throw new TableKitError(
        "InvalidInput",
        `sequenceNumberAction is max, update or increment, not ${String(sequenceNumberAction)}`,
      );
    }
    if (sequenceNumberAction === "increment" && sequenceNumber !== undefined) {
      throw new TableKitError("InvalidInput", "increment takes no sequence number");
    }
    if (sequenceNumberAction !== "increment" && sequenceNumber === undefined) {
      throw new TableKitError("InvalidInput", `${sequenceNumberAction} needs a sequence number`);
    }
    const number =
      sequenceNumber === undefined ? undefined : checkSequenceNumber("sequenceNumber", sequenceNumber);
    const change = { sequenceNumberAction, ...(number === undefined ? {} : { sequenceNumber: number }) };
    const result = await this.underWrite(checkRequestConditions(options.conditions), call, (conditions) =>
      pages.changePageBlob(this.name, { ...change, conditions }, call),
    );
    return {
      etag: result.etag,
      lastModified: result.lastModified,
      blobSequenceNumber: result.sequenceNumber,
    };
  }

  private beginPages(options: OperationOptions | undefined) {
    const call = this.begin(options);
    const pages = this.backend.pages;
    if (!this.port.capabilities.pageBlobs || !pages) {
      throw new TableKitError(
        "NotSupported",
        `${this.port.capabilities.backend} has no page blobs (blobCapabilities.pageBlobs is false)`,
      );
    }
    return { call, pages };
  }

  private checkSize(size: unknown): number {
    const max = this.port.capabilities.maxPageBlobBytes;
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0 || size % PAGE_BYTES !== 0) {
      throw new TableKitError(
        "InvalidInput",
        `A page blob's size is a multiple of 512 bytes, not ${String(size)}`,
        {
          details: { size },
        },
      );
    }
    if (size > max) {
      throw new TableKitError("InvalidInput", `A page blob holds at most ${max} bytes; ${size} were asked`, {
        details: { size, limit: max },
      });
    }
    return size;
  }

  /**
   * A page write's range: aligned to 512 (InvalidPageRange), 1..maxPageWriteBytes long
   * (RequestBodyTooLarge). A clear may cover the whole blob (Put Page docs); the backend checks
   * that it ends inside it.
   */
  private checkPageRange(offset: unknown, count: unknown, clear = false): void {
    const ok = (n: unknown) =>
      typeof n === "number" && Number.isSafeInteger(n) && n >= 0 && n % PAGE_BYTES === 0;
    if (!ok(offset) || !ok(count) || count === 0) {
      throw new TableKitError(
        "InvalidPageRange",
        `A page range starts and ends on 512-byte boundaries: offset ${String(offset)}, count ${String(count)}`,
        { details: { offset, count } },
      );
    }
    const limit = this.port.capabilities.maxPageWriteBytes;
    if (!clear && (count as number) > limit) {
      throw new TableKitError(
        "RequestBodyTooLarge",
        `A page write covers at most ${limit} bytes; ${String(count)} were asked`,
        {
          details: { bytes: count, limit },
        },
      );
    }
  }

  private underWrite<T>(
    http: BlobRequestConditions,
    call: CallOptions,
    work: (conditions: BackendConditions) => Promise<T>,
  ): Promise<T> {
    return underConditions(http, this.port.capabilities, "write", this.current(call), work);
  }

  /** The HTTP conditions (checked) and the sequence-number ones (the backend applies them in its write). */
  private pageConditions(conditions: PageBlobRequestConditions | undefined) {
    const {
      ifSequenceNumberLessThanOrEqualTo: _le,
      ifSequenceNumberLessThan: _lt,
      ifSequenceNumberEqualTo: _eq,
      ...rest
    } = conditions ?? {};
    const http = checkRequestConditions(conditions === undefined ? undefined : rest);
    const sequence: {
      -readonly [K in keyof SequenceConditions]: SequenceConditions[K];
    } = {};
    const le = conditions?.ifSequenceNumberLessThanOrEqualTo;
    const lt = conditions?.ifSequenceNumberLessThan;
    const eq = conditions?.ifSequenceNumberEqualTo;
    if (le !== undefined)
      sequence.ifSequenceNumberLessThanOrEqual = checkSequenceNumber("ifSequenceNumberLessThanOrEqualTo", le);
    if (lt !== undefined)
      sequence.ifSequenceNumberLessThan = checkSequenceNumber("ifSequenceNumberLessThan", lt);
    if (eq !== undefined) sequence.ifSequenceNumberEqual = checkSequenceNumber("ifSequenceNumberEqualTo", eq);
    return { http, sequence };
  }
}

/** A sequence number: an integer 0..2^53-1 (the service takes up to 2^63-1; a JS number holds 2^53 exactly). */
export function checkSequenceNumber(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new TableKitError("InvalidInput", `${name} must be an integer 0..2^53-1, not ${String(value)}`, {
      details: { [name]: value },
    });
  }
  return value;
}
