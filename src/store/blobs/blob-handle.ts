import type { BlobOperation } from "../access/storage-operations.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import type { BackendConditions, ContainerBackend, StoredBlobProperties } from "./blob-backend.js";
import { conditionNotMet, evaluateConditions, underConditions } from "./blob-conditions.js";
import type { CopyDestination } from "./blob-copy-into.js";
import { asCreateOnly, createOnlyRefusal } from "./blob-refusals.js";
import {
  type BlobRequestConditions,
  checkConditions,
  checkRequestConditions,
  validateBlobName,
  validateContainerName,
} from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess } from "./blob-service.js";
import { checkSnapshot, requireSnapshots, snapshotIsReadOnly } from "./blob-snapshot.js";

/**
 * What every blob client shares: its container, name and snapshot, the per-call checks (store,
 * signal, names, the token's right) and conditional writes. `BlobClient` adds the operations.
 */
export class BlobHandle {
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

  /** Whether this client reads the same store as `port` (a copy then stays inside it). */
  sameStoreAs(port: BlobPort): boolean {
    return this.port.service === port.service;
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

  /** A snapshot's properties (undefined when it has none of that time), the conditions evaluated against them. */
  protected async snapshotProperties(
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
}
