import type { FilterNode, KeyRange } from "../filter/ast.js";
import type { DateTime, NormalizedEntity, StoredEntity } from "../model/index.js";
import type { Capabilities } from "./capabilities.js";

/**
 * What a backend implements: raw operations only. The core (`Store`, `Table`) has already validated
 * names, keys, entities, ETags, filters and transactions against `capabilities.limits` before it
 * calls any of these; a backend maps its own failures to TableKitError codes with the original
 * error as `cause`.
 */

export type UpdateMode = "Merge" | "Replace";

/** Passed to every backend call. */
export interface CallOptions {
  readonly abortSignal?: AbortSignal;
}

/** What a successful write reports. */
export interface WriteResult {
  readonly etag: string;
  readonly timestamp: DateTime;
}

export interface BackendQuery {
  /** The whole filter, already parsed and checked; absent means every entity. */
  readonly filter?: FilterNode;
  /** The key ranges the filter can match, sorted and disjoint; absent means the whole table. */
  readonly ranges?: readonly KeyRange[];
  /** Properties the caller will keep (a hint: the core projects the result itself). */
  readonly select?: readonly string[];
  /** At most this many entities in the page (1..limits.maxPageSize). */
  readonly maxPageSize: number;
  /** The backend's own continuation from a previous page. */
  readonly continuation?: string;
  /** End the page early, with a continuation, once it has taken this long. */
  readonly timeBudgetMs: number;
}

export interface BackendPage {
  /** Matching entities in (PartitionKey, RowKey) order. */
  readonly entities: readonly StoredEntity[];
  /** Present when more entities may follow; opaque to everyone but this backend. */
  readonly continuation?: string;
}

/** One action of an entity group transaction, validated (one partition, each row once, sizes). */
export type BackendAction =
  | { readonly kind: "create"; readonly entity: NormalizedEntity }
  | { readonly kind: "upsert"; readonly entity: NormalizedEntity; readonly mode: UpdateMode }
  | {
      readonly kind: "update";
      readonly entity: NormalizedEntity;
      readonly mode: UpdateMode;
      readonly etag: string;
    }
  | {
      readonly kind: "delete";
      readonly partitionKey: string;
      readonly rowKey: string;
      readonly etag: string;
    };

export interface BackendTableQuery {
  readonly filter?: FilterNode;
  readonly maxPageSize: number;
  readonly continuation?: string;
}

export interface BackendStore {
  readonly capabilities: Capabilities;
  /** Throws TableAlreadyExists (names compare case-insensitively). */
  createTable(name: string, options: CallOptions): Promise<void>;
  /** Throws TableNotFound. Deletes every entity of the table. */
  deleteTable(name: string, options: CallOptions): Promise<void>;
  /** Table names in case-insensitive order, filtered on `TableName` by `query.filter`. */
  listTables(
    query: BackendTableQuery,
    options: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }>;
  /** A handle on a table; cheap, does no I/O. Operations on a missing table throw TableNotFound. */
  table(name: string): BackendTable;
  close(): Promise<void>;
}

export interface BackendTable {
  /** Throws EntityAlreadyExists. */
  insert(entity: NormalizedEntity, options: CallOptions): Promise<WriteResult>;
  /** Insert, or merge into / replace the existing entity. */
  upsert(entity: NormalizedEntity, mode: UpdateMode, options: CallOptions): Promise<WriteResult>;
  /** `etag` is `*` or an ETag; throws ResourceNotFound or UpdateConditionNotSatisfied. */
  update(
    entity: NormalizedEntity,
    mode: UpdateMode,
    etag: string,
    options: CallOptions,
  ): Promise<WriteResult>;
  /** `etag` is `*` or an ETag; throws ResourceNotFound or UpdateConditionNotSatisfied. */
  delete(partitionKey: string, rowKey: string, etag: string, options: CallOptions): Promise<void>;
  /** Undefined when absent. */
  get(partitionKey: string, rowKey: string, options: CallOptions): Promise<StoredEntity | undefined>;
  query(query: BackendQuery, options: CallOptions): Promise<BackendPage>;
  /**
   * All or nothing. Returns one result per action (undefined for deletes). On failure throws the
   * failing action's error with its `index` set (TableKitError.withIndex) and writes nothing.
   */
  transact(actions: readonly BackendAction[], options: CallOptions): Promise<(WriteResult | undefined)[]>;
}

/** Builds a backend from the part of a store URL after its scheme, plus options. */
export type BackendFactory = (location: string, options: OpenStoreOptions) => Promise<BackendStore>;

export interface OpenStoreOptions {
  /** Override limits (tests use this to shrink the page time budget). */
  readonly limits?: Partial<import("../model/index.js").Limits>;
  /**
   * A table or account shared access signature: the store can then do only what it allows, on any
   * backend (docs/patterns/scoped-access.md). Verified against `accessAccount`.
   */
  readonly accessToken?: string;
  /** The account `accessToken` is signed for; default the development account `devstoreaccount1`. */
  readonly accessAccount?: import("./sas-token.js").SasAccount;
  /** Stored access policies by table and id, for tokens that name one (`si`). */
  readonly accessPolicies?: (
    tableName: string,
    id: string,
  ) => import("./verify-sas.js").StoredAccessPolicy | undefined;
  /** Backend-specific settings (clients, credentials, table name prefixes). */
  readonly [key: string]: unknown;
}
