import { isTableKitError, TableKitError } from "../../model/index.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { checkRehydratePriority, checkTier, requireTags, requireTiers } from "./blob-annotations.js";
import type {
  AccessTier,
  BackendConditions,
  BackendDeleteResult,
  BackendSetProperties,
  DeleteSnapshots,
  Metadata,
} from "./blob-backend.js";
import type {
  BlobCreateSnapshotOptions,
  BlobCreateSnapshotResponse,
  BlobDeleteOptions,
  BlobDeleteResult,
  BlobDownloadOptions,
  BlobDownloadResponse,
  BlobProperties,
  BlobReadOptions,
  BlobSetOptions,
  BlobSetTierOptions,
  BlobTagOptions,
  BlobWriteResponse,
} from "./blob-client-types.js";
import { underConditions } from "./blob-conditions.js";
import {
  type BlobBeginCopyFromUrlPoller,
  type BlobCopyOptions,
  type BlobCopyResponse,
  donePoller,
  noPendingCopy,
} from "./blob-copy.js";
import { type CopySource, copyInto } from "./blob-copy-into.js";
import { watchBody } from "./blob-download-stream.js";
import { BlobHandle } from "./blob-handle.js";
import { type BlobHTTPHeaders, checkHttpHeaders } from "./blob-headers.js";
import { BlobLeaseClient } from "./blob-lease-client.js";
import { toProperties } from "./blob-properties.js";
import { blobNotFound } from "./blob-refusals.js";
import { backendExtras, checkRange, checkRequestConditions, normalizeMetadata } from "./blob-rules.js";
import { succeededUnless } from "./blob-service.js";
import { requireSnapshots } from "./blob-snapshot.js";
import { requireSoftDelete } from "./blob-soft-delete.js";
import { type BlobTags, checkTags } from "./blob-tags.js";

export type {
  BlobCreateSnapshotOptions,
  BlobCreateSnapshotResponse,
  BlobDeleteOptions,
  BlobDeleteResult,
  BlobDownloadOptions,
  BlobDownloadResponse,
  BlobProperties,
  BlobReadOptions,
  BlobSetOptions,
  BlobSetTierOptions,
  BlobTagOptions,
  BlobWriteResponse,
} from "./blob-client-types.js";
export { copyProperties, tierProperties, toProperties } from "./blob-properties.js";
export { asCreateOnly, blobNotFound, createOnlyRefusal } from "./blob-refusals.js";

/**
 * One blob, like `@azure/storage-blob`'s BlobClient: download (whole, streamed, by range),
 * properties, exists and delete. `BlockBlobClient` and `AppendBlobClient` add the writes.
 */
export class BlobClient extends BlobHandle {
  /**
   * Snapshot Blob: a read-only copy of the blob as it is now, with `metadata` when given (else the
   * blob's). BlobNotFound, ConditionNotMet; NotSupported where capabilities.snapshots is false.
   */
  async createSnapshot(options: BlobCreateSnapshotOptions = {}): Promise<BlobCreateSnapshotResponse> {
    const call = this.begin(options);
    requireSnapshots(this.port.capabilities);
    this.refuseOnSnapshot();
    await this.authorize("createBlob", call);
    const conditions = checkRequestConditions(options.conditions);
    const metadata =
      options.metadata === undefined
        ? undefined
        : normalizeMetadata(options.metadata, this.port.capabilities);
    const snapshot = this.backend.createSnapshot!.bind(this.backend);
    return underConditions(conditions, this.port.capabilities, "write", this.current(call), (c) =>
      snapshot(this.name, metadata, c, call),
    );
  }

  /**
   * Copy Blob, synchronously (the copy is done when this returns: status `success`): from a blob
   * of this store (a BlobClient, linked without copying bytes where the backend can) or a URL this
   * process can read. Metadata is the source's unless `metadata` is given. CannotVerifyCopySource,
   * SourceConditionNotMet, and the destination conditions' codes.
   */
  async syncCopyFromURL(source: CopySource, options: BlobCopyOptions = {}): Promise<BlobCopyResponse> {
    const call = this.begin(options);
    return copyInto(this.destination(call), source, options, true);
  }

  /** Copy Blob as the SDK's poller has it; the copy is already done when it resolves. */
  async beginCopyFromURL(
    source: CopySource,
    options: BlobCopyOptions = {},
  ): Promise<BlobBeginCopyFromUrlPoller> {
    return donePoller(await this.syncCopyFromURL(source, options));
  }

  /** Abort Copy Blob: every copy here completes at once, so there is never one to abort (NoPendingCopyOperation). */
  async abortCopyFromURL(copyId: string, options: OperationOptions = {}): Promise<void> {
    const call = this.begin(options);
    this.refuseOnSnapshot();
    await this.authorize("writeBlob", call);
    if (typeof copyId !== "string" || copyId === "")
      throw new TableKitError("InvalidInput", "copyId is the id a copy answered");
    if (!(await this.backend.getProperties(this.name, {}, call)))
      throw blobNotFound(this.containerName, this.name);
    throw noPendingCopy();
  }

  /** Streams the blob, or `count` bytes from `offset` (to the end without `count`). */
  async download(
    offset?: number,
    count?: number,
    options: BlobDownloadOptions = {},
  ): Promise<BlobDownloadResponse> {
    const call = this.begin(options);
    await this.authorize("readBlob", call);
    const range = checkRange(offset, count);
    const conditions = checkRequestConditions(options.conditions);
    const result =
      this.snapshot === undefined
        ? await underConditions(conditions, this.port.capabilities, "read", this.current(call), (c) =>
            this.backend.download(this.name, range, c, call),
          )
        : await this.readSnapshot(conditions, call, (at) =>
            this.backend.downloadSnapshot!(this.name, at, range, call),
          );
    const body = watchBody(result.body, options);
    const served = result.range;
    return {
      ...toProperties(result.properties),
      contentLength: served ? served.count : result.properties.contentLength,
      ...(served
        ? {
            contentRange: `bytes ${served.offset}-${served.offset + served.count - 1}/${result.properties.contentLength}`,
          }
        : {}),
      readableStreamBody: body,
    };
  }

  /** The blob (or range) in one Buffer: for blobs that fit in memory. */
  async downloadToBuffer(
    offset?: number,
    count?: number,
    options: BlobDownloadOptions = {},
  ): Promise<Buffer> {
    const response = await this.download(offset, count, options);
    // One buffer of the announced length, filled as chunks arrive (no list of chunks to concatenate).
    const out = Buffer.allocUnsafe(response.contentLength);
    let at = 0;
    for await (const chunk of response.readableStreamBody) {
      const bytes = chunk as Buffer;
      if (at + bytes.length > out.length)
        throw new TableKitError("BackendError", "The blob is longer than announced");
      bytes.copy(out, at);
      at += bytes.length;
    }
    if (at !== out.length) throw new TableKitError("BackendError", "The blob is shorter than announced");
    return out;
  }

  /** BlobNotFound when absent. */
  async getProperties(options: BlobReadOptions = {}): Promise<BlobProperties> {
    const call = this.begin(options);
    await this.authorize("readBlob", call);
    const conditions = checkRequestConditions(options.conditions);
    const stored =
      this.snapshot === undefined
        ? await underConditions(conditions, this.port.capabilities, "read", this.current(call), (c) =>
            this.backend.getProperties(this.name, c, call),
          )
        : await this.snapshotProperties(call, conditions);
    if (!stored) throw blobNotFound(this.containerName, this.name);
    return toProperties(stored);
  }

  /** False when the blob (or its container) does not exist, as the SDK answers. */
  async exists(options: OperationOptions = {}): Promise<boolean> {
    const call = this.begin(options);
    await this.authorize("readBlob", call);
    try {
      if (this.snapshot !== undefined) return (await this.snapshotProperties(call)) !== undefined;
      return (await this.backend.getProperties(this.name, {}, call)) !== undefined;
    } catch (err) {
      if (isTableKitError(err, "ContainerNotFound")) return false;
      throw err;
    }
  }

  /** BlobNotFound when absent; ConditionNotMet when `conditions.ifMatch` is stale. */
  async delete(options: BlobDeleteOptions = {}): Promise<BlobDeleteResult> {
    const call = this.begin(options);
    await this.authorize("deleteBlob", call);
    const conditions = checkRequestConditions(options.conditions);
    const deleteSnapshots = checkDeleteSnapshots(options.deleteSnapshots);
    if (this.snapshot !== undefined || deleteSnapshots !== undefined)
      requireSnapshots(this.port.capabilities);
    if (this.snapshot === undefined) {
      const done = await underConditions(
        conditions,
        this.port.capabilities,
        "write",
        this.current(call),
        (c) => this.backend.delete(this.name, c, call, deleteSnapshots),
      );
      return deleteResult(done);
    }
    if (deleteSnapshots !== undefined) {
      throw new TableKitError(
        "InvalidInput",
        "deleteSnapshots applies to a blob, not to one of its snapshots",
      );
    }
    return deleteResult(await this.backend.deleteSnapshot!(this.name, this.snapshot, call));
  }

  /**
   * Undelete Blob: restores the soft-deleted blob and its soft-deleted snapshots; on a live blob, its
   * soft-deleted snapshots (docs/blobs.md#soft-delete). BlobNotFound when the name has neither.
   */
  async undelete(options: OperationOptions = {}): Promise<void> {
    const call = this.begin(options);
    await this.authorize("undeleteBlob", call);
    requireSoftDelete(this.port.capabilities);
    await this.backend.undelete!(this.name, call);
  }

  async deleteIfExists(options: BlobDeleteOptions = {}): Promise<{ succeeded: boolean } & BlobDeleteResult> {
    return succeededUnless("BlobNotFound", () => this.delete(options));
  }

  /**
   * Set Blob Properties: replaces the content type and headers, clearing each one not given (as the
   * service does); a new ETag, the bytes unchanged. NotSupported where capabilities.setProperties is false.
   */
  async setHTTPHeaders(
    blobHTTPHeaders?: BlobHTTPHeaders,
    options: BlobSetOptions = {},
  ): Promise<BlobWriteResponse> {
    const call = this.begin(options);
    const { contentType, headers } = checkHttpHeaders(blobHTTPHeaders, this.port.capabilities, "any");
    // The service leaves no content type when Set Blob Properties gives none.
    const given = blobHTTPHeaders?.blobContentType === undefined ? {} : { contentType };
    return this.setProperties({ kind: "headers", ...given, headers, conditions: {} }, options, call);
  }

  /** Set Blob Metadata: replaces the metadata (none: clears it); a new ETag, the bytes unchanged. */
  async setMetadata(metadata?: Metadata, options: BlobSetOptions = {}): Promise<BlobWriteResponse> {
    const call = this.begin(options);
    const checked = normalizeMetadata(metadata, this.port.capabilities);
    return this.setProperties({ kind: "metadata", metadata: checked, conditions: {} }, options, call);
  }

  /** A lease on this blob (`@azure/storage-blob`'s BlobLeaseClient), with `proposeLeaseId` or a new GUID. */
  getBlobLeaseClient(proposeLeaseId?: string): BlobLeaseClient {
    return new BlobLeaseClient(this.port, this.containerName, this.name, proposeLeaseId);
  }

  private async setProperties(
    change: BackendSetProperties,
    options: BlobSetOptions,
    call: CallOptions,
  ): Promise<BlobWriteResponse> {
    const caps = this.port.capabilities;
    if (!caps.setProperties || !this.backend.setProperties) {
      throw new TableKitError(
        "NotSupported",
        `${caps.backend} cannot change a blob's properties in place (see docs/blobs.md)`,
      );
    }
    await this.authorize("writeBlob", call);
    const setProperties = this.backend.setProperties.bind(this.backend);
    const conditions = checkRequestConditions(options.conditions);
    const result = await underConditions(conditions, caps, "write", this.current(call), (c) =>
      setProperties(this.name, { ...change, conditions: c }, call),
    );
    return { etag: result.etag, lastModified: result.lastModified };
  }

  /**
   * Replaces the blob's index tags, or its snapshot's (Set Blob Tags; `{}` removes them): at most
   * 10, keys of 1–128 characters, values of 0–256 (InvalidTag, TagsTooLarge). The ETag and
   * Last-Modified stay.
   */
  async setTags(tags: BlobTags, options: BlobTagOptions = {}): Promise<void> {
    const call = this.begin(options);
    requireTags(this.port.capabilities);
    await this.authorize("writeBlobTags", call);
    const checked = checkTags(tags);
    const conditions = this.tagConditions(options);
    // A snapshot's tags may be set (the documentation's `snapshot` parameter): its only change.
    if (this.snapshot !== undefined) requireSnapshots(this.port.capabilities);
    await this.backend.setTags!(this.name, checked, conditions, call, this.snapshot);
  }

  /** The blob's index tags (Get Blob Tags), or its snapshot's (kept as they were); BlobNotFound when absent. */
  async getTags(options: BlobTagOptions = {}): Promise<{ tags: BlobTags }> {
    const call = this.begin(options);
    requireTags(this.port.capabilities);
    await this.authorize("readBlobTags", call);
    const conditions = this.tagConditions(options);
    if (this.snapshot !== undefined) requireSnapshots(this.port.capabilities);
    return { tags: { ...(await this.backend.getTags!(this.name, conditions, call, this.snapshot)) } };
  }

  /**
   * Moves a block blob to another tier (Set Blob Tier). Leaving Archive starts a rehydration:
   * `status` 202, and docs/blobs.md says when it completes on each backend; otherwise 200.
   */
  async setAccessTier(tier: AccessTier, options: BlobSetTierOptions = {}): Promise<{ status: 200 | 202 }> {
    const call = this.begin(options);
    requireTiers(this.port.capabilities);
    await this.authorize("setBlobTier", call);
    const checked = checkTier(tier);
    const rehydratePriority = checkRehydratePriority(options.rehydratePriority);
    const conditions = this.tagConditions(options);
    const change = { tier: checked, ...(rehydratePriority ? { rehydratePriority } : {}) };
    return { status: (await this.backend.setTier!(this.name, change, conditions, call)).status };
  }

  private tagConditions(options: BlobTagOptions): BackendConditions {
    const { tagConditions, leaseId } = options.conditions ?? {};
    return backendExtras(
      {
        ...(tagConditions === undefined ? {} : { tagConditions }),
        ...(leaseId === undefined ? {} : { leaseId }),
      },
      this.port.capabilities,
    );
  }
}

function checkDeleteSnapshots(value: unknown): DeleteSnapshots | undefined {
  if (value === undefined || value === "include" || value === "only") return value;
  throw new TableKitError(
    "InvalidInput",
    `deleteSnapshots is "include", "only" or absent; got ${JSON.stringify(value)}`,
  );
}

/** The backend's answer as the port reports it: softDeleted only where the backend said. */
function deleteResult(done: BackendDeleteResult | undefined): BlobDeleteResult {
  return done ? { softDeleted: done.softDeleted } : {};
}
