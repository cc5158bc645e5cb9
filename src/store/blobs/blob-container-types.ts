import type { PublicAccessLevel, ResourceMetadata } from "../access/state-backend.js";
import type { SignedIdentifier } from "../access/stored-access-policies.js";
import type { OperationOptions } from "../call-options.js";
import type { LeaseDuration, LeaseState, LeaseStatus } from "./blob-leases.js";

/** What a container's own calls take and answer (`@azure/storage-blob`'s shapes, in part). */

export interface ContainerCreateOptions extends OperationOptions {
  /** Name/value pairs kept with the container (names kept in case, compared ignoring it). */
  metadata?: ResourceMetadata;
  /** Anonymous reads: of blobs (`blob`), and listing too (`container`); absent: private. */
  access?: PublicAccessLevel;
}

/** `getProperties`'s result (`@azure/storage-blob`'s ContainerGetPropertiesResponse, in part). */
export interface ContainerProperties {
  etag: string;
  lastModified: Date;
  metadata: ResourceMetadata;
  blobPublicAccess?: PublicAccessLevel;
  /** Where capabilities.leases. */
  leaseState?: LeaseState;
  leaseStatus?: LeaseStatus;
  leaseDuration?: LeaseDuration;
}

export interface ContainerDeleteOptions extends OperationOptions {
  /** The lease a leased container needs to be deleted. */
  conditions?: { leaseId?: string };
}

export interface ContainerGetAccessPolicyResponse {
  blobPublicAccess?: PublicAccessLevel;
  signedIdentifiers: SignedIdentifier[];
}

/** What a container write answers (`@azure/storage-blob`'s ContainerCreateResponse, in part). */
export interface ContainerWriteResponse {
  etag: string;
  lastModified: Date;
}
