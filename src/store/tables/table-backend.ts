import type { FilterNode, KeyRange } from "../../filter/ast.js";
import type { DateTime, PayloadAction, StoredEntity } from "../../model/index.js";
import type { StateBackend } from "../access/state-backend.js";
import type { CallOptions } from "../call-options.js";
import type { Capabilities } from "./table-capabilities.js";

/**
 * The table port's raw methods: eight in all, and an optional synchronous read (`getNow`). The
 * core (`Store`, `Table`) has validated names, keys, entities, ETags, filters and transactions
 * against `capabilities.limits`, checked the closed state and the caller's signal, before it calls
 * any of these. A backend does the I/O,
 * maps its own failures to TableKitError codes (original error as `cause`) and re-checks nothing.
 */

export type UpdateMode = "Merge" | "Replace";

/** What a successful write reports. */
export interface WriteResult {
  readonly etag: string;
  readonly timestamp: DateTime;
}

/** One write, validated: create, upsert, update or delete of one entity (the model's `PayloadAction`). */
export type BackendAction = PayloadAction;

export interface BackendQuery {
  /** The whole filter, already parsed and checked; absent means every entity. */
  readonly filter?: FilterNode;
  /** The key ranges the filter can match, sorted and disjoint; absent means the whole table. */
  readonly ranges?: readonly KeyRange[];
  /**
   * The custom properties the caller keeps (system and metadata names removed, each once);
   * absent means all. A hint: the core projects the result itself.
   */
  readonly select?: readonly string[];
  /** The custom properties the filter reads (empty without a filter): a backend that checks the filter on the client must read them too. */
  readonly filterProperties: readonly string[];
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

export interface BackendTableQuery {
  /** A filter over `TableName`; absent means every table. */
  readonly filter?: FilterNode;
  readonly maxPageSize: number;
  readonly continuation?: string;
}

/** The table service of a store: tables by name. */
export interface TableServiceBackend {
  readonly capabilities: Capabilities;
  /** Stored access policies and service properties (state-backend.ts); absent: NotSupported. Resource names: tables', any case. */
  readonly state?: StateBackend;
  /** TableAlreadyExists when a table of that name exists in any case (the core decides what callers see). */
  createTable(name: string, call: CallOptions): Promise<void>;
  /** TableNotFound when it does not exist. Deletes every entity of the table. */
  deleteTable(name: string, call: CallOptions): Promise<void>;
  /** Table names in case-insensitive order, as created. */
  listTables(
    query: BackendTableQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }>;
  /** A handle on a table; no I/O. Operations on a missing table are TableNotFound. */
  table(name: string): TableBackend;
}

/** What `TableBackend.getNow` answers when it cannot answer without waiting. */
export const READ_LATER: unique symbol = Symbol("tablekit.readLater");

/** One table. */
export interface TableBackend {
  /** Undefined when absent. */
  get(partitionKey: string, rowKey: string, call: CallOptions): Promise<StoredEntity | undefined>;
  /**
   * Optional: `get` answered synchronously, for a backend whose read does no asynchronous I/O (the
   * embedded engine): a point read then costs its caller no promise of the backend's and no await.
   * READ_LATER when it cannot answer without waiting (a lock, a table to look up again): the core
   * then calls `get`, which answers exactly as if this had not been tried. Throws what `get` rejects with.
   */
  getNow?(partitionKey: string, rowKey: string): StoredEntity | undefined | typeof READ_LATER;
  query(query: BackendQuery, call: CallOptions): Promise<BackendPage>;
  /**
   * One write: create (EntityAlreadyExists), upsert, update or delete with an ETag condition
   * (ResourceNotFound, UpdateConditionNotSatisfied). Undefined for a delete.
   */
  write(action: BackendAction, call: CallOptions): Promise<WriteResult | undefined>;
  /**
   * An entity group transaction (1..limits.maxTransactionOperations actions of one partition):
   * all or nothing. One result per action (undefined for deletes); on failure, the failing
   * action's error with its `index` (TableKitError.withIndex), and nothing written.
   */
  transact(actions: readonly BackendAction[], call: CallOptions): Promise<(WriteResult | undefined)[]>;
}
