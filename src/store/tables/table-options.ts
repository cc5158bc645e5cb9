import type { OperationOptions } from "../call-options.js";

/** What a table's calls take and what a write answers (`@azure/data-tables`' shapes, in part). */

export interface WriteResponse {
  etag: string;
  /** When the service stored the write, ISO 8601 with seven fractional digits. */
  timestamp: string;
}

export interface CreateEntityOptions extends OperationOptions {
  /**
   * Also return the entity as stored (the service's `Prefer: return-content`): its typed
   * properties, ETag and Timestamp, built from the write itself without reading it back.
   */
  returnContent?: boolean;
}

export interface GetEntityOptions extends OperationOptions {
  queryOptions?: { select?: string[] };
}

export interface ListEntitiesOptions extends OperationOptions {
  queryOptions?: { filter?: string; select?: string[] };
}

export interface UpdateOptions extends OperationOptions {
  /** `*` (the default) matches any version; an ETag makes the write conditional. */
  etag?: string;
}

export interface CreateTableOptions extends OperationOptions {
  /** Throw TableAlreadyExists when the table exists; by default that is success, as in the SDK. */
  failIfExists?: boolean;
}

export interface DeleteTableOptions extends OperationOptions {
  /** Throw TableNotFound when the table does not exist; by default that is success, as in the SDK. */
  failIfMissing?: boolean;
}
