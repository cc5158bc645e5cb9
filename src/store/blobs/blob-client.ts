import { type Readable, Transform } from "node:stream";
import { isTableKitError, TableKitError } from "../../model/index.js";
import type { BlobOperation } from "../access/storage-operations.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import type {
  BackendConditions,
  BlobType,
  ContainerBackend,
  DeleteSnapshots,
  Metadata,
  StoredBlobProperties,
  StoredCopy,
} from "./blob-backend.js";
import {
  type BlobBeginCopyFromUrlPoller,
  type BlobCopyOptions,
  type BlobCopyResponse,
  donePoller,
  noPendingCopy,
} from "./blob-copy.js";
import { type CopyDestination, type CopySource, copyInto } from "./blob-copy-into.js";
import {
  type BlobRequestConditions,
  checkConditions,
  checkRange,
  normalizeMetadata,
  validateBlobName,
  validateContainerName,
} from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess, succeededUnless } from "./blob-service.js";
import { checkSnapshot, requireSnapshots, snapshotIsReadOnly } from "./blob-snapshot.js";

/** A blob's properties (`@azure/storage-blob`'s BlobGetPropertiesResponse, in part). */
export interface BlobProperties {
  etag: string;
  lastModified: Date;
  contentLength: number;
  contentType?: string;
  /** Names lower-cased: the service compares them case-insensitively. */
  metadata: Metadata;
  blobType: BlobType;
  /** Append blobs only. */
  blobCommittedBlockCount?: number;
  /** Set while the blob is as a copy wrote it (capabilities.copyProperties), as the SDK names them. */
  copyId?: string;
  copyStatus?: StoredCopy["status"];
  copySource?: string;
  copyProgress?: string;
  copyCompletedOn?: Date;
}

export interface BlobDownloadResponse extends BlobProperties {
  /** The bytes, streamed (`contentLength` counts those of the range). */
  readableStreamBody: Readable;
  /** `bytes <first>-<last>/<size>` when a range was asked for. */
  contentRange?: string;
}

export interface BlobReadOptions extends OperationOptions {
  /** Reads accept `ifMatch`: the read fails with ConditionNotMet once the blob has changed. */
  conditions?: Pick<BlobRequestConditions, "ifMatch">;
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
    const conditions = checkConditions(options.conditions, this.port.capabilities, "write");
    const metadata =
      options.metadata === undefined
        ? undefined
        : normalizeMetadata(options.metadata, this.port.capabilities);
    return this.backend.createSnapshot!(this.name, metadata, conditions, call);
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
      writeConditions: (c, at) => this.writeConditions(c, at),
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
    if (operation !== "readBlob" && operation !== "deleteBlob") this.refuseOnSnapshot();
    return checkBlobAccess(this.port, operation, this.containerName, this.name, call);
  }

  /**
   * The conditions a write runs under, with the token's right to write: a token that may only
   * create (`c` without `w`) writes only a blob that does not exist yet, so its write is made
   * conditional on that here, in the same backend call (nothing can slip in between a check and
   * the write), and a caller's `ifMatch` (a blob that exists) is refused outright.
   */
  protected async writeConditions(
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<{ conditions: BackendConditions; createOnly: boolean }> {
    this.refuseOnSnapshot();
    const access = this.port.access;
    if (!access) return { conditions, createOnly: false };
    if (access.anonymous) {
      await this.authorize("writeBlob", call);
      return { conditions, createOnly: false };
    }
    const grant = access.blobWriteGrant({ container: this.containerName, blob: this.name });
    if (grant === "write") return { conditions, createOnly: false };
    if (conditions.ifMatch !== undefined) throw createOnlyRefusal();
    return { conditions: { ifNoneMatch: "*" }, createOnly: true };
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
    const conditions = checkConditions(options.conditions, this.port.capabilities, "read");
    const result =
      this.snapshot === undefined
        ? await this.backend.download(this.name, range, conditions, call)
        : await this.readSnapshot(
            (at) => this.backend.downloadSnapshot!(this.name, at, range, call),
            conditions,
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
    const conditions = checkConditions(options.conditions, this.port.capabilities, "read");
    const stored =
      this.snapshot === undefined
        ? await this.backend.getProperties(this.name, conditions, call)
        : await this.snapshotProperties(call, conditions);
    if (!stored) throw blobNotFound(this.containerName, this.name);
    return toProperties(stored);
  }

  /** A snapshot's properties (undefined when it has none of that time), its ETag checked against `ifMatch`. */
  private async snapshotProperties(
    call: CallOptions,
    conditions: BackendConditions = {},
  ): Promise<StoredBlobProperties | undefined> {
    requireSnapshots(this.port.capabilities);
    const stored = await this.backend.getSnapshotProperties!(this.name, this.snapshot!, call);
    if (
      stored &&
      conditions.ifMatch !== undefined &&
      conditions.ifMatch !== "*" &&
      conditions.ifMatch !== stored.etag
    ) {
      throw new TableKitError(
        "ConditionNotMet",
        "The condition specified using HTTP conditional header(s) is not met.",
      );
    }
    return stored;
  }

  private async readSnapshot<T extends { properties: StoredBlobProperties }>(
    read: (snapshot: string) => Promise<T>,
    conditions: BackendConditions,
  ): Promise<T> {
    requireSnapshots(this.port.capabilities);
    const result = await read(this.snapshot!);
    const etag = result.properties.etag;
    if (conditions.ifMatch !== undefined && conditions.ifMatch !== "*" && conditions.ifMatch !== etag) {
      throw new TableKitError(
        "ConditionNotMet",
        "The condition specified using HTTP conditional header(s) is not met.",
      );
    }
    return result;
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
    const conditions = checkConditions(options.conditions, this.port.capabilities, "write");
    const deleteSnapshots = checkDeleteSnapshots(options.deleteSnapshots);
    if (this.snapshot !== undefined || deleteSnapshots !== undefined)
      requireSnapshots(this.port.capabilities);
    if (this.snapshot === undefined) {
      await this.backend.delete(this.name, conditions, call, deleteSnapshots);
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

  async deleteIfExists(options: BlobDeleteOptions = {}): Promise<{ succeeded: boolean }> {
    return succeededUnless("BlobNotFound", () => this.delete(options));
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
    metadata: { ...stored.metadata },
    blobType: stored.blobType,
    ...(stored.committedBlockCount === undefined
      ? {}
      : { blobCommittedBlockCount: stored.committedBlockCount }),
    ...(stored.copy ? copyProperties(stored.copy) : {}),
  };
}

export function copyProperties(copy: StoredCopy): Partial<BlobProperties> {
  return {
    copyId: copy.id,
    copyStatus: copy.status,
    copySource: copy.source,
    copyProgress: copy.progress,
    ...(copy.completedOn ? { copyCompletedOn: copy.completedOn } : {}),
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
