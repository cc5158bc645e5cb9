/**
 * The types of `@azure/data-tables` a program names, re-declared so that the embedded path needs
 * no SDK installed. Same names and shapes as the SDK's (13.x).
 */

/** The EDM types a value may be annotated with. */
export type EdmTypes = "Binary" | "Boolean" | "DateTime" | "Double" | "Guid" | "Int32" | "Int64" | "String";

/** An annotated value: `{ value: "123", type: "Int64" }`. */
export interface Edm<T extends EdmTypes> {
  value: T extends "Binary"
    ? Uint8Array
    : T extends "Boolean"
      ? boolean
      : T extends "Double"
        ? number
        : T extends "Int32"
          ? number
          : string;
  type: T;
}

/** An entity as a program writes it. */
export type TableEntity<T extends object = Record<string, unknown>> = T & {
  partitionKey: string;
  rowKey: string;
};

/** An entity as reads return it: its properties, the ETag, and (unless a select left it out) keys and Timestamp. */
export type TableEntityResult<T> = T & {
  etag: string;
  partitionKey?: string;
  rowKey?: string;
  timestamp?: string;
};

export type UpdateMode = "Merge" | "Replace";

/** An action of a transaction, as `TableTransaction` builds them. */
export type TransactionAction =
  | ["create", TableEntity]
  | ["delete", TableEntity]
  | ["update", TableEntity]
  | ["update", TableEntity, UpdateMode]
  | ["update", TableEntity, UpdateMode, UpdateTableEntityOptions]
  | ["upsert", TableEntity]
  | ["upsert", TableEntity, UpdateMode];

/** What every operation takes; tablekit uses the abort signal and accepts the rest for compatibility. */
export interface OperationOptions {
  abortSignal?: AbortSignal;
  requestOptions?: { timeout?: number };
  tracingOptions?: unknown;
  onResponse?: unknown;
}

export interface TableEntityQueryOptions {
  filter?: string;
  select?: string[];
}

export interface GetTableEntityOptions extends OperationOptions {
  queryOptions?: TableEntityQueryOptions;
  /** Every value as `{ value, type }`, as the service sent it, instead of converted. */
  disableTypeConversion?: boolean;
}

export interface ListTableEntitiesOptions extends OperationOptions {
  queryOptions?: TableEntityQueryOptions;
  disableTypeConversion?: boolean;
}

export interface UpdateTableEntityOptions extends OperationOptions {
  etag?: string;
}

export interface DeleteTableEntityOptions extends OperationOptions {
  etag?: string;
}

export interface ListTableItemsOptions extends OperationOptions {
  queryOptions?: { filter?: string };
}

export interface TableItem {
  name?: string;
}

export interface PageSettings {
  continuationToken?: string;
  maxPageSize?: number;
}

/** A page: the items, and the token of the next page (undefined on the last). */
export type TableEntityResultPage<T> = Array<TableEntityResult<T>> & { continuationToken?: string };
export type TableItemResultPage = Array<TableItem> & { continuationToken?: string };

export interface PagedAsyncIterableIterator<TElement, TPage = TElement[], TPageSettings = PageSettings> {
  next(): Promise<IteratorResult<TElement>>;
  /** Ends the listing early (what `break` in a `for await` calls). */
  return?(): Promise<IteratorResult<TElement>>;
  [Symbol.asyncIterator](): PagedAsyncIterableIterator<TElement, TPage, TPageSettings>;
  byPage(settings?: TPageSettings): AsyncIterableIterator<TPage>;
}

/** Options of the clients' constructors; tablekit's own stores need none of them. */
export interface TableServiceClientOptions {
  endpoint?: string;
  version?: string;
  allowInsecureConnection?: boolean;
  retryOptions?: unknown;
  userAgentOptions?: unknown;
  [option: string]: unknown;
}
