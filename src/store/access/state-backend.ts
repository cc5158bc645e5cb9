import type { CallOptions } from "../call-options.js";
import type { StoredAccessPolicy } from "./verify-sas.js";

/**
 * What a backend keeps of a table, queue or container beside its contents, and of each service:
 * the raw half of the state API (docs/architecture.md). The core (`Table`, `Queue`,
 * `BlobContainer`, `Store`) has checked every value (stored-access-policies.ts,
 * service-properties.ts, resource-metadata.ts) before it calls any of these; a backend stores and
 * returns them as given and re-checks nothing. A port whose backend has no `state` answers
 * NotSupported (its capabilities say `storedState: false`).
 */

/** A container's public access level: anonymous reads of its blobs (`blob`), and listing (`container`). */
export type PublicAccessLevel = "blob" | "container";

/** Metadata of a queue or container: names as given (they compare case-insensitively), values ASCII. */
export type ResourceMetadata = Record<string, string>;

/** What `getState` reads: the metadata, or the access part (public access and stored policies). */
export type StatePart = "metadata" | "access";

export interface StoredResourceState {
  readonly metadata: ResourceMetadata;
  readonly publicAccess?: PublicAccessLevel;
  readonly policies: readonly StoredAccessPolicy[];
}

/** A change: the metadata replaced whole, or the access part replaced whole (absent public access: private). */
export type ResourceStateChange =
  | { readonly metadata: ResourceMetadata }
  | {
      readonly access: {
        readonly publicAccess?: PublicAccessLevel;
        readonly policies: readonly StoredAccessPolicy[];
      };
    };

/** What a resource starts with when created (the create call writes it with the resource). */
export interface InitialResourceState {
  readonly metadata: ResourceMetadata;
  readonly publicAccess?: PublicAccessLevel;
}

/** A service's properties as stored: every section the core has merged and checked. */
export interface StoredServiceProperties {
  readonly logging?: StoredLogging;
  readonly hourMetrics?: StoredMetrics;
  readonly minuteMetrics?: StoredMetrics;
  readonly cors?: readonly StoredCorsRule[];
  readonly defaultServiceVersion?: string;
  readonly deleteRetentionPolicy?: StoredRetentionPolicy;
  readonly staticWebsite?: StoredStaticWebsite;
}

export interface StoredRetentionPolicy {
  readonly enabled: boolean;
  readonly days?: number;
}

export interface StoredLogging {
  readonly version: string;
  readonly deleteProperty: boolean;
  readonly read: boolean;
  readonly write: boolean;
  readonly retentionPolicy: StoredRetentionPolicy;
}

export interface StoredMetrics {
  readonly version?: string;
  readonly enabled: boolean;
  readonly includeAPIs?: boolean;
  readonly retentionPolicy?: StoredRetentionPolicy;
}

export interface StoredCorsRule {
  readonly allowedOrigins: string;
  readonly allowedMethods: string;
  readonly allowedHeaders: string;
  readonly exposedHeaders: string;
  readonly maxAgeInSeconds: number;
}

export interface StoredStaticWebsite {
  readonly enabled: boolean;
  readonly indexDocument?: string;
  readonly errorDocument404Path?: string;
  readonly defaultIndexDocumentPath?: string;
}

/** The raw state calls of one port (tables, queues or blobs): each one round trip or transaction. */
export interface StateBackend {
  /** The resource's state (only `part` need be read); the port's NotFound code when it does not exist. */
  getState(name: string, part: StatePart, call: CallOptions): Promise<StoredResourceState>;
  /** Replaces a part of the resource's state; the port's NotFound code when it does not exist. */
  setState(name: string, change: ResourceStateChange, call: CallOptions): Promise<void>;
  /**
   * The service's properties as last set (`{}` when never set). Optional with its setter: a backend
   * with no place for them (DynamoDB, whose account has no item of its own) leaves both out.
   */
  getServiceProperties?(call: CallOptions): Promise<StoredServiceProperties>;
  /** Replaces the service's properties whole (the core merged them with the stored ones). */
  setServiceProperties?(properties: StoredServiceProperties, call: CallOptions): Promise<void>;
  /**
   * When a resource of this name was last deleted, if it has not been created again since: the
   * core's deleted-name hold (deleted-name-hold.ts) reads it. Present exactly where the port's
   * capabilities say `deletedNameHold`; the backend records the time in the delete's own write.
   */
  deletedOn?(name: string, call: CallOptions): Promise<Date | undefined>;
}
