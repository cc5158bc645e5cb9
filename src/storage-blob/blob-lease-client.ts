import { randomUUID } from "node:crypto";
import type { BlobLeaseClient as PortLeaseClient } from "../store/blobs/blob-lease-client.js";
import { type BlobResponseHeaders, blobError, blobHeaders } from "./responses.js";

type LeaseOptions = Parameters<PortLeaseClient["acquireLease"]>[1];
type PortLease = Awaited<ReturnType<PortLeaseClient["acquireLease"]>>;
export type Lease = PortLease & BlobResponseHeaders;

/**
 * `@azure/storage-blob`'s BlobLeaseClient of a blob or a container over the port's lease client:
 * one lease id (a new GUID unless proposed), which `changeLease` replaces. RestErrors as the SDK's.
 */
export class BlobLeaseClient {
  private id: string;
  private lease: Promise<PortLeaseClient> | undefined;

  /** @internal Made by `getBlobLeaseClient` of a blob or container client. */
  constructor(
    private readonly open: (leaseId: string) => Promise<PortLeaseClient>,
    readonly url: string,
    proposeLeaseId?: string,
  ) {
    this.id = proposeLeaseId ?? randomUUID();
  }

  get leaseId(): string {
    return this.id;
  }

  private async run(op: (lease: PortLeaseClient) => Promise<PortLease>): Promise<Lease> {
    try {
      this.lease ??= this.open(this.id);
      const lease = await this.lease;
      const answer = await op(lease);
      this.id = lease.leaseId;
      return { ...blobHeaders(), ...answer };
    } catch (err) {
      throw blobError(err, `${this.url}${this.url.includes("?") ? "&" : "?"}comp=lease`, "PUT");
    }
  }

  acquireLease(duration: number, options?: LeaseOptions): Promise<Lease> {
    return this.run((l) => l.acquireLease(duration, options));
  }

  renewLease(options?: LeaseOptions): Promise<Lease> {
    return this.run((l) => l.renewLease(options));
  }

  changeLease(proposedLeaseId: string, options?: LeaseOptions): Promise<Lease> {
    return this.run((l) => l.changeLease(proposedLeaseId, options));
  }

  releaseLease(options?: LeaseOptions): Promise<Lease> {
    return this.run((l) => l.releaseLease(options));
  }

  breakLease(breakPeriod?: number, options?: LeaseOptions): Promise<Lease> {
    return this.run((l) => l.breakLease(breakPeriod, options));
  }
}
