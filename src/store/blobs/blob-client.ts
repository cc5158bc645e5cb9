import { type Readable, Transform } from "node:stream";
import { isTableKitError, TableKitError } from "../../model/index.js";
import type { BlobOperation } from "../access/storage-operations.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { checkRehydratePriority, checkTier, requireTags, requireTiers } from "./blob-annotations.js";
import type {
  AccessTier,
  ArchiveStatus,
  BackendConditions,
  BackendSetProperties,
  BlobType,
  ContainerBackend,
  DeleteSnapshots,
  Metadata,
  RehydratePriority,
  StoredBlobProperties,
  StoredCopy,
} from "./blob-backend.js";
import { conditionNotMet, evaluateConditions, underConditions } from "./blob-conditions.js";
import {
  type BlobBeginCopyFromUrlPoller,
  type BlobCopyOptions,
  type BlobCopyResponse,
  donePoller,
  noPendingCopy,
} from "./blob-copy.js";
import { type CopyDestination, type CopySource, copyInto } from "./blob-copy-into.js";
import { type BlobHTTPHeaders, checkHttpHeaders, headerProperties } from "./blob-headers.js";
import { BlobLeaseClient } from "./blob-lease-client.js";
import type { LeaseDuration, LeaseState, LeaseStatus } from "./blob-leases.js";
import {
  type BlobRequestConditions,
  backendExtras,
  checkConditions,
  checkRange,
  checkRequestConditions,
  normalizeMetadata,
  validateBlobName,
  validateContainerName,
} from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess, succeededUnless } from "./blob-service.js";
import { checkSnapshot, requireSnapshots, snapshotIsReadOnly } from "./blob-snapshot.js";
import { requireSoftDelete } from "./blob-soft-delete.js";
import { type BlobTags, checkTags } from "./blob-tags.js";

/** A blob's properties (`@azure/storage-blob`'s BlobGetPropertiesResponse, in part). */
export interface BlobProperties {
  etag: string;
  lastModified: Date;
  contentLength: number;
  contentType?: string;
  cacheControl?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  /** The whole blob's MD5 (on a ranged download: the range's, when asked for with rangeGetContentMD5). */
  contentMD5?: Uint8Array;
  /** Names in the case set where capabilities.metadataKeepsCase, else lower-cased. */
  metadata: Metadata;
  blobType: BlobType;
  /** Append blobs only. */
  blobCommittedBlockCount?: number;
  /** When the blob was created (an overwrite keeps it), where the backend knows. */
  createdOn?: Date;
  /** Where capabilities.leases. */
  leaseState?: LeaseState;
  leaseStatus?: LeaseStatus;
  leaseDuration?: LeaseDuration;
  /** How many index tags the blob has (absent when none). */
  tagCount?: number;
  /** Block blobs, where the store has tiers: the tier, whether it is the default, when it was last set. */
  accessTier?: AccessTier;
  accessTierInferred?: boolean;
  accessTierChangedOn?: Date;
  /** `rehydrate-pending-to-…` while a blob leaves Archive. */
  archiveStatus?: ArchiveStatus;
  rehydratePriority?: RehydratePriority;
  /** Append blobs only: sealed (appends refused with BlobIsSealed). */
  isSealed?: boolean;
  /** Page blobs only. */
  blobSequenceNumber?: number;
  /** Set while the blob is as a copy wrote it (capabilities.copyProperties), as the SDK names them. */
  copyId?: string;
  copyStatus?: StoredCopy["status"];
  copySource?: string;
  copyProgress?: string;
  copyCompletedOn?: Date;
  /** Written by Incremental Copy Blob (only its snapshots may be read), and the snapshot that copy took. */
  isIncrementalCopy?: boolean;
  destinationSnapshot?: string;
}

/**
 * Conditions on the tag and tier calls: `tagConditions` (`x-ms-if-tags`) and `leaseId` (Set Blob
 * Tags needs the active lease's id on a leased blob; a given id must be the active lease's).
 */
export interface BlobTagOptions extends OperationOptions {
  conditions?: Pick<BlobRequestConditions, "tagConditions" | "leaseId">;
}

export interface BlobSetTierOptions extends BlobTagOptions {
  /** How soon a blob leaving Archive is rehydrated: High or Standard. */
  rehydratePriority?: RehydratePriority;
}

export interface BlobDownloadResponse extends BlobProperties {
  /** The bytes, streamed (`contentLength` counts those of the range). */
  readableStreamBody: Readable;
  /** `bytes <first>-<last>/<size>` when a range was asked for. */
  contentRange?: string;
}

export interface BlobReadOptions extends OperationOptions {
  /**
   * `ifMatch` fails the read with ConditionNotMet once the blob has changed; `ifNoneMatch` and
   * `ifModifiedSince` fail it with ConditionNotMet whose `details.notModified` is true (HTTP 304);
   * `leaseId` fails it with the lease codes unless it is the blob's active lease.
   */
  conditions?: BlobRequestConditions;
}

export interface BlobSetOptions extends OperationOptions {
  /** The HTTP conditions, and the lease id a leased blob needs. */
  conditions?: BlobRequestConditions;
}

export interface BlobDownloadOptions extends BlobReadOptions {
  onProgress?: (progress: { loadedBytes: number }) => void;
}

export interface BlobDeleteOptions extends OperationOptions {
  conditions?: BlobRequestConditions;
  /**
   * A blob with snapshots: `include` deletes it and them, `only` them alone; absent, its delete is
   * SnapshotsPresent (as the service answers).
   */
  deleteSnapshots?: DeleteSnapshots;
}

export interface BlobCreateSnapshotOptions extends OperationOptions {
  /** The snapshot's metadata; absent, the blob's. */
  metadata?: Metadata;
  conditions?: BlobRequestConditions;
}

export interface BlobCreateSnapshotResponse extends BlobWriteResponse {
  /** The snapshot's time: `withSnapshot(snapshot)` reads it. */
  snapshot: string;
}

/** What the SDK's write calls answer. */
export interface BlobWriteResponse {
  etag: string;
  lastModified: Date;
  /** Put Blob From URL: the `sourceContentMD5` the source's bytes were checked against. */
  contentMD5?: Uint8Array;
}

/**
 * One blob, like `@azure/storage-blob`'s BlobClient: download (whole, streamed, by range),
 * properties, exists and delete. `BlockBlobClient` and `AppendBlobClient` add the writes.
 */
export class BlobClient {
  protected readonly backend: ContainerBackend;
  private namesChecked = false;

  /** Set on a snapshot's client (`withSnapshot`): its time, seven fractional digits. */
  readonly snapshot: string | undefined;

  constructor(
    protected readonly port: BlobPort,
    readonly containerName: string,
    readonly name: string,
    snapshot?: string,
  ) {
    this.backend = port.service.container(containerName);
    this.snapshot = snapshot === undefined || snapshot === "" ? undefined : checkSnapshot(snapshot);
  }

  /** A client of the same kind on the blob's snapshot of that time (`""`: the blob itself), as the SDK's. */
  withSnapshot(snapshot: string): this {
    const Kind = this.constructor as new (
      port: BlobPort,
      container: string,
      name: string,
      at?: string,
    ) => this;
    return new Kind(this.port, this.containerName, this.name, snapshot);
  }

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

  /** Whether this client reads the same store as `port` (a copy then stays inside it). */
  sameStoreAs(port: BlobPort): boolean {
    return this.port.service === port.service;
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

  protected destination(call: CallOptions): CopyDestination {
    return {
      port: this.port,
      backend: this.backend,
      containerName: this.containerName,
      name: this.name,
      call,
      conditionalWrite: (conditions, work) => this.conditionalWrite(conditions, call, work),
    };
  }

  /** Writes through a snapshot's client are refused: a snapshot is read-only. */
  protected refuseOnSnapshot(): void {
    if (this.snapshot !== undefined) throw snapshotIsReadOnly(this.snapshot);
  }

  /** Checks the store, the signal and (once) the names; the backend's call options. */
  protected begin(options: OperationOptions | undefined): CallOptions {
    const call = beginBlobCall(this.port, options);
    if (!this.namesChecked) {
      validateContainerName(this.containerName, this.port.capabilities);
      validateBlobName(this.name, this.port.capabilities);
      this.namesChecked = true;
    }
    return call;
  }

  /** Throws unless the store's token allows `operation` on this blob (see `checkBlobAccess`). */
  protected authorize(operation: BlobOperation, call: CallOptions): Promise<void> {
    // A snapshot is read, deleted, and its tags read or set (Set Blob Tags takes `snapshot`); nothing else.
    if (
      operation !== "readBlob" &&
      operation !== "deleteBlob" &&
      operation !== "readBlobTags" &&
      operation !== "writeBlobTags"
    ) {
      this.refuseOnSnapshot();
    }
    return checkBlobAccess(this.port, operation, this.containerName, this.name, call);
  }

  /** The blob as it is, read by the core for condition evaluation (not with the caller's token). */
  protected current(call: CallOptions): () => Promise<StoredBlobProperties | undefined> {
    return () => this.backend.getProperties(this.name, {}, call);
  }

  /**
   * Runs a write under the caller's conditions and the token's right to write: a token that may
   * only create (`c` without `w`) writes only a blob that does not exist yet, so its write carries
   * `ifNoneMatch: "*"` in the same backend call (nothing can slip in between a check and the write)
   * and a blob found there is the token's refusal (403), not a conflict. Its `ifMatch` names a blob
   * that must exist: refused as the token's (403) when it does, ConditionNotMet (412) when it does not.
   */
  protected async conditionalWrite<T>(
    conditions: BlobRequestConditions | undefined,
    call: CallOptions,
    work: (conditions: BackendConditions) => Promise<T>,
  ): Promise<T> {
    this.refuseOnSnapshot();
    const checked = checkRequestConditions(conditions);
    const caps = this.port.capabilities;
    const access = this.port.access;
    let createOnly = false;
    if (access?.anonymous) await this.authorize("writeBlob", call);
    else if (access)
      createOnly = access.blobWriteGrant({ container: this.containerName, blob: this.name }) === "createOnly";
    if (!createOnly) return underConditions(checked, caps, "write", this.current(call), work);
    if (checked.ifMatch !== undefined) {
      if (await this.current(call)()) throw createOnlyRefusal();
      throw conditionNotMet();
    }
    // Refused before the work starts (a copy's source read, a body): the write below stays
    // create-only in the backend either way.
    if (await this.current(call)()) throw createOnlyRefusal();
    return asCreateOnly(true, work(checkConditions({ ifNoneMatch: "*" }, caps, "write")));
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

  /** A snapshot's properties (undefined when it has none of that time), the conditions evaluated against them. */
  private async snapshotProperties(
    call: CallOptions,
    conditions: BlobRequestConditions = {},
  ): Promise<StoredBlobProperties | undefined> {
    requireSnapshots(this.port.capabilities);
    const stored = await this.backend.getSnapshotProperties!(this.name, this.snapshot!, call);
    if (stored) evaluateConditions(conditions, stored, "read");
    return stored;
  }

  /** Reads a snapshot: it never changes, so its conditions are evaluated against it first. */
  protected async readSnapshot<T>(
    conditions: BlobRequestConditions,
    call: CallOptions,
    read: (snapshot: string) => Promise<T>,
  ): Promise<T> {
    requireSnapshots(this.port.capabilities);
    if (Object.keys(conditions).length > 0) {
      const stored = await this.backend.getSnapshotProperties!(this.name, this.snapshot!, call);
      if (stored) evaluateConditions(conditions, stored, "read");
    }
    return read(this.snapshot!);
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
  async delete(options: BlobDeleteOptions = {}): Promise<void> {
    const call = this.begin(options);
    await this.authorize("deleteBlob", call);
    const conditions = checkRequestConditions(options.conditions);
    const deleteSnapshots = checkDeleteSnapshots(options.deleteSnapshots);
    if (this.snapshot !== undefined || deleteSnapshots !== undefined)
      requireSnapshots(this.port.capabilities);
    if (this.snapshot === undefined) {
      await underConditions(conditions, this.port.capabilities, "write", this.current(call), (c) =>
        this.backend.delete(this.name, c, call, deleteSnapshots),
      );
      return;
    }
    if (deleteSnapshots !== undefined) {
      throw new TableKitError(
        "InvalidInput",
        "deleteSnapshots applies to a blob, not to one of its snapshots",
      );
    }
    await this.backend.deleteSnapshot!(this.name, this.snapshot, call);
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

  async deleteIfExists(options: BlobDeleteOptions = {}): Promise<{ succeeded: boolean }> {
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

/** A create-only token (`c` without `w`) meeting a blob that exists: the permission it lacks. */
export function createOnlyRefusal(): TableKitError {
  return new TableKitError(
    "AuthorizationPermissionMismatch",
    "This token may create blobs that do not exist yet (c), not write one that exists (w).",
    { details: { operation: "writeBlob" } },
  );
}

/** Runs a create-only write: the blob being there already is the token's refusal, not a conflict. */
export async function asCreateOnly<T>(createOnly: boolean, write: Promise<T>): Promise<T> {
  if (!createOnly) return write;
  try {
    return await write;
  } catch (err) {
    if (isTableKitError(err, "BlobAlreadyExists") || isTableKitError(err, "ConditionNotMet")) {
      throw createOnlyRefusal();
    }
    throw err;
  }
}

export function toProperties(stored: StoredBlobProperties): BlobProperties {
  return {
    etag: stored.etag,
    lastModified: stored.lastModified,
    contentLength: stored.contentLength,
    ...(stored.contentType === undefined ? {} : { contentType: stored.contentType }),
    ...headerProperties(stored.headers),
    metadata: { ...stored.metadata },
    blobType: stored.blobType,
    ...(stored.committedBlockCount === undefined
      ? {}
      : { blobCommittedBlockCount: stored.committedBlockCount }),
    ...(stored.createdOn === undefined ? {} : { createdOn: stored.createdOn }),
    ...(stored.lease === undefined
      ? {}
      : {
          leaseState: stored.lease.state,
          leaseStatus: stored.lease.status,
          ...(stored.lease.duration === undefined ? {} : { leaseDuration: stored.lease.duration }),
        }),
    ...tierProperties(stored),
    ...(stored.blobType === "AppendBlob" ? { isSealed: stored.sealed === true } : {}),
    ...(stored.sequenceNumber === undefined ? {} : { blobSequenceNumber: stored.sequenceNumber }),
    ...(stored.copy ? copyProperties(stored.copy) : {}),
  };
}

/** The tag count and tier fields a backend reported, under the SDK's names. */
export function tierProperties(
  stored: StoredBlobProperties,
): Pick<
  BlobProperties,
  | "tagCount"
  | "accessTier"
  | "accessTierInferred"
  | "accessTierChangedOn"
  | "archiveStatus"
  | "rehydratePriority"
> {
  return {
    ...(stored.tagCount ? { tagCount: stored.tagCount } : {}),
    ...(stored.accessTier === undefined ? {} : { accessTier: stored.accessTier }),
    ...(stored.accessTierInferred === undefined ? {} : { accessTierInferred: stored.accessTierInferred }),
    ...(stored.accessTierChangedOn === undefined ? {} : { accessTierChangedOn: stored.accessTierChangedOn }),
    ...(stored.archiveStatus === undefined ? {} : { archiveStatus: stored.archiveStatus }),
    ...(stored.rehydratePriority === undefined ? {} : { rehydratePriority: stored.rehydratePriority }),
  };
}

export function copyProperties(copy: StoredCopy): Partial<BlobProperties> {
  return {
    copyId: copy.id,
    copyStatus: copy.status,
    copySource: copy.source,
    copyProgress: copy.progress,
    ...(copy.completedOn ? { copyCompletedOn: copy.completedOn } : {}),
    ...(copy.incremental ? { isIncrementalCopy: true } : {}),
    ...(copy.destinationSnapshot ? { destinationSnapshot: copy.destinationSnapshot } : {}),
  };
}

export function blobNotFound(containerName: string, name: string): TableKitError {
  return new TableKitError("BlobNotFound", "The specified blob does not exist.", {
    details: { containerName, blobName: name },
  });
}

/** Counts progress and ends the stream with Aborted when the caller's signal fires mid-download. */
function watchBody(body: Readable, options: BlobDownloadOptions): Readable {
  let out = body;
  const onProgress = options.onProgress;
  if (onProgress) {
    let loaded = 0;
    out = body.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          loaded += chunk.length;
          onProgress({ loadedBytes: loaded });
          done(null, chunk);
        },
      }),
    );
    body.once("error", (err) => out.destroy(err));
    out.once("close", () => body.destroy());
  }
  const signal = options.abortSignal;
  if (signal) {
    const abort = () =>
      out.destroy(new TableKitError("Aborted", "The operation was aborted", { cause: signal.reason }));
    signal.addEventListener("abort", abort, { once: true });
    out.once("close", () => signal.removeEventListener("abort", abort));
  }
  return out;
}
