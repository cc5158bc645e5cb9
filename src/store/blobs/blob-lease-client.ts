import { randomUUID } from "node:crypto";
import { TableKitError } from "../../model/index.js";
import type { OperationOptions } from "../call-options.js";
import { requireTags } from "./blob-annotations.js";
import { evaluateConditions } from "./blob-conditions.js";
import { checkLeaseAction, type LeaseAction } from "./blob-leases.js";
import {
  type BlobRequestConditions,
  backendExtras,
  checkRequestConditions,
  validateBlobName,
  validateContainerName,
} from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess } from "./blob-service.js";

/** A lease operation's answer (`@azure/storage-blob`'s Lease). */
export interface Lease {
  etag: string;
  lastModified: Date;
  /** The lease id (acquire, renew, change, release). */
  leaseId?: string;
  /** Break: seconds until the lease is broken. */
  leaseTime?: number;
}

export interface LeaseOperationOptions extends OperationOptions {
  /**
   * A blob's HTTP conditions (ETags, times), evaluated against the blob just before the lease
   * operation: a lease changes no ETag, so there is no write to pin them to. `tagConditions`
   * (blobs only, where capabilities.tagConditions) must hold for the blob's tags.
   */
  conditions?: Omit<BlobRequestConditions, "leaseId">;
}

/**
 * A lease on a blob or a container, like `@azure/storage-blob`'s BlobLeaseClient: got from
 * `getBlobLeaseClient(proposeLeaseId?)` of a blob or container client. It carries one lease id (a
 * new GUID unless one is proposed), which `acquireLease` proposes and `changeLease` replaces.
 * NotSupported where capabilities.leases is false (S3).
 */
export class BlobLeaseClient {
  private id: string;

  constructor(
    private readonly port: BlobPort,
    private readonly containerName: string,
    private readonly blobName: string | undefined,
    leaseId?: string,
  ) {
    this.id = leaseId ?? randomUUID();
  }

  /** The lease id this client proposes and acts with. */
  get leaseId(): string {
    return this.id;
  }

  /** Acquires a lease of 15 to 60 seconds, or -1 (infinite). */
  async acquireLease(duration: number, options: LeaseOperationOptions = {}): Promise<Lease> {
    return this.run({ action: "acquire", duration, proposedId: this.id }, options);
  }

  /** Renews the lease (its clock restarts; an expired lease renews if the resource did not change). */
  async renewLease(options: LeaseOperationOptions = {}): Promise<Lease> {
    return this.run({ action: "renew", id: this.id }, options);
  }

  /** Changes the lease's id to `proposedLeaseId`; this client then carries it. */
  async changeLease(proposedLeaseId: string, options: LeaseOperationOptions = {}): Promise<Lease> {
    const lease = await this.run({ action: "change", id: this.id, proposedId: proposedLeaseId }, options);
    this.id = proposedLeaseId;
    return lease;
  }

  /** Releases the lease: another client may acquire one at once. */
  async releaseLease(options: LeaseOperationOptions = {}): Promise<Lease> {
    return this.run({ action: "release", id: this.id }, options);
  }

  /**
   * Breaks the lease whatever its id: no lease can be acquired for `breakPeriod` seconds (0 to 60;
   * a fixed lease breaks at its expiry at the latest; absent: a fixed lease at its expiry, an
   * infinite one at once). `leaseTime` is the seconds left.
   */
  async breakLease(breakPeriod?: number, options: LeaseOperationOptions = {}): Promise<Lease> {
    return this.run(
      breakPeriod === undefined ? { action: "break" } : { action: "break", breakPeriod },
      options,
    );
  }

  private async run(action: LeaseAction, options: LeaseOperationOptions): Promise<Lease> {
    const caps = this.port.capabilities;
    const call = beginBlobCall(this.port, options);
    validateContainerName(this.containerName, caps);
    if (this.blobName !== undefined) validateBlobName(this.blobName, caps);
    const checked = checkLeaseAction(action);
    const backend = this.port.service.container(this.containerName);
    if (!caps.leases || !backend.lease) {
      throw new TableKitError("NotSupported", `${caps.backend} keeps no leases (see docs/blobs.md)`);
    }
    await checkBlobAccess(
      this.port,
      this.blobName === undefined ? "setContainerMetadata" : "writeBlob",
      this.containerName,
      this.blobName,
      call,
    );
    const { tagConditions, ...conditions } = checkRequestConditions(options.conditions);
    if (tagConditions !== undefined && this.blobName === undefined) {
      throw new TableKitError("InvalidInput", "A container lease takes no tag conditions (x-ms-if-tags).");
    }
    if (this.blobName !== undefined && Object.keys(conditions).length > 0) {
      const current = await backend.getProperties(this.blobName, {}, call);
      evaluateConditions(conditions, current, "write");
    }
    if (this.blobName !== undefined && tagConditions !== undefined) {
      // Every lease action honours x-ms-if-tags (Lease Blob): the blob's tags are read and matched
      // by the backend (ConditionNotMet); a lease changes no tags, so nothing is pinned.
      requireTags(caps);
      await backend.getTags!(this.blobName, backendExtras({ tagConditions }, caps), call);
    }
    const result = await backend.lease(this.blobName, checked, call);
    return {
      etag: result.etag,
      lastModified: result.lastModified,
      ...(result.leaseId === undefined ? {} : { leaseId: result.leaseId }),
      ...(result.leaseTime === undefined ? {} : { leaseTime: result.leaseTime }),
    };
  }
}
