import type { StoredEntity, TableEntityResult as StoreEntityResult } from "../model/entity.js";
import { type BuiltReadOptions, ENTITY_BUILDER, READ_FAILURE } from "../store/tables/point-read.js";
import type { ListEntitiesOptions as StoreListOptions, Table, WriteResponse } from "../store/tables/table.js";
import type { TransactionAction as StoreTransactionAction } from "../store/tables/table-transaction.js";
import type { NamedKeyCredential, SASCredential } from "./credentials.js";
import type {
  DeleteTableEntityOptions,
  GetTableEntityOptions,
  ListTableEntitiesOptions,
  OperationOptions,
  PagedAsyncIterableIterator,
  TableEntity,
  TableEntityResult,
  TableEntityResultPage,
  TableServiceClientOptions,
  TransactionAction,
  UpdateMode,
  UpdateTableEntityOptions,
} from "./models.js";
import {
  deleteResponse,
  insertResponse,
  operationHeaders,
  type TableDeleteEntityHeaders,
  type TableInsertEntityHeaders,
  type TableMergeEntityHeaders,
  type TableTransactionResponse,
  transactionResponse,
  updateResponse,
} from "./responses.js";
import { toRestError } from "./rest-error.js";
import { sdkPagedIterator } from "./sdk-paging.js";
import { entityToWrite, sdkEntity, sdkEntityOf } from "./sdk-values.js";
import { type SignedIdentifier, sdkIdentifiers, storeIdentifiers } from "./service-state.js";
import { registry, type StoreTarget, storeFor, urlTarget } from "./store-registry.js";

type Credential = NamedKeyCredential | SASCredential | { getToken: unknown };

/** The store's call options from the SDK's: the abort signal (the rest is about HTTP). */
function signal(options: OperationOptions | undefined): { abortSignal: AbortSignal } | undefined {
  const abortSignal = options?.abortSignal;
  return abortSignal ? { abortSignal } : undefined;
}

/** The SDK's select: `etag` is always returned and not selectable. */
function selection(select: string[] | undefined): string[] | undefined {
  return select?.filter((name) => name !== "etag" && name !== "odata.etag");
}

/** A listing's entities as the SDK's, built from the stored rows (no `select`, type conversion on). */
const LISTED = (stored: StoredEntity) => sdkEntityOf(stored, undefined);

/** A read the SDK's objects are built from the stored entity for: no `select`, type conversion on. */
function plainRead(options: GetTableEntityOptions): boolean {
  return options.queryOptions?.select === undefined && options.disableTypeConversion !== true;
}

function selectsTimestamp(select: string[] | undefined): boolean {
  return !select || select.includes("timestamp") || select.includes("Timestamp");
}

/**
 * `@azure/data-tables`' TableClient over any tablekit store: `memory:`, `file:…`, `dynamodb:…`,
 * or an Azure connection string / account URL (through the Azure backend). Clients made from the
 * same URL share one store. Values, responses and errors have the SDK's shapes (docs/data-tables.md).
 */
export class TableClient {
  /** The account endpoint (for a tablekit store, its URL). */
  readonly url: string;
  readonly tableName: string;
  private readonly target: StoreTarget;
  private readonly metadata: string;
  /** A point read's store options: the SDK's entity, with this table's `odata.metadata`, built by the store's read. */
  private readonly builtRead: BuiltReadOptions;
  /** The same with the SDK's error made by the store's read: the client hands on the store's promise. */
  private readonly pointRead: BuiltReadOptions;
  private cached: Table | undefined;
  private cachedGeneration = -1;

  constructor(url: string, tableName: string, credential?: Credential, options?: TableServiceClientOptions);
  constructor(url: string, tableName: string, options?: TableServiceClientOptions);
  constructor(
    url: string,
    tableName: string,
    credentialOrOptions?: object,
    _options?: TableServiceClientOptions,
  ) {
    const credential = isCredential(credentialOrOptions) ? credentialOrOptions : undefined;
    this.target = urlTarget(url, credential);
    this.url = this.target.endpoint;
    this.tableName = tableName;
    const metadata = `${this.url}/$metadata#${tableName}/@Element`;
    this.metadata = metadata;
    const build = (stored: StoredEntity) => sdkEntityOf(stored, metadata);
    this.builtRead = { [ENTITY_BUILDER]: build };
    this.pointRead = {
      [ENTITY_BUILDER]: build,
      [READ_FAILURE]: (err, partitionKey, rowKey) => this.fail(err, "GET", { partitionKey, rowKey }),
    };
  }

  /** A client from an Azure connection string, or from any tablekit store URL (`memory:`, `file:…`, `dynamodb:…`). */
  static fromConnectionString(
    connectionString: string,
    tableName: string,
    _options?: TableServiceClientOptions,
  ): TableClient {
    // A connection string is told from an account URL by its form: the constructor takes both.
    return new TableClient(connectionString, tableName);
  }

  /** The table handle once the shared store is open (read without awaiting), until the stores are closed. */
  private get table(): Table | undefined {
    return this.cachedGeneration === registry.generation ? this.cached : undefined;
  }

  private async open(): Promise<Table> {
    const generation = registry.generation;
    const table = (await storeFor(this.target)).table(this.tableName);
    this.cached = table;
    this.cachedGeneration = generation;
    return table;
  }

  private fail(err: unknown, method: string, keys?: { partitionKey: string; rowKey: string }): unknown {
    const path = keys
      ? `${this.tableName}(PartitionKey='${encodeURIComponent(keys.partitionKey)}',RowKey='${encodeURIComponent(keys.rowKey)}')`
      : this.tableName;
    return toRestError(err, { url: `${this.url}/${path}`, method });
  }

  /** Creates the table; an existing table is success, as the SDK's. */
  async createTable(options?: OperationOptions): Promise<void> {
    try {
      await (this.table ?? (await this.open())).createTable(signal(options));
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/Tables`, method: "POST" });
    }
  }

  /** Deletes the table and its entities; a missing table is success, as the SDK's. */
  async deleteTable(options?: OperationOptions): Promise<void> {
    try {
      await (this.table ?? (await this.open())).deleteTable(signal(options));
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/Tables('${this.tableName}')`, method: "DELETE" });
    }
  }

  async createEntity<T extends object>(
    entity: TableEntity<T>,
    options?: OperationOptions,
  ): Promise<TableInsertEntityHeaders> {
    let written: WriteResponse;
    try {
      const table = this.table ?? (await this.open());
      written = await table.createEntity(entityToWrite(entity) as never, signal(options));
    } catch (err) {
      throw this.fail(err, "POST");
    }
    return insertResponse(written);
  }

  getEntity<T extends object = Record<string, unknown>>(
    partitionKey: string,
    rowKey: string,
    options?: GetTableEntityOptions,
  ): Promise<TableEntityResult<T>> {
    // A point read takes a few microseconds: a plain one on an open store is the store's own
    // promise, the SDK's entity built from the stored row and any failure made a RestError by it.
    const table = this.table;
    if (table !== undefined && options === undefined) {
      return table.getEntity(partitionKey, rowKey, this.pointRead) as Promise<TableEntityResult<T>>;
    }
    return this.readEntity<T>(partitionKey, rowKey, options);
  }

  /** getEntity with options, or before the store is open. */
  private async readEntity<T extends object>(
    partitionKey: string,
    rowKey: string,
    options: GetTableEntityOptions | undefined,
  ): Promise<TableEntityResult<T>> {
    let result: StoreEntityResult;
    let raw = false;
    let keepTimestamp = true;
    try {
      const table = this.table ?? (await this.open());
      if (options === undefined) {
        return (await table.getEntity(partitionKey, rowKey, this.builtRead)) as TableEntityResult<T>;
      }
      if (plainRead(options)) {
        const abortSignal = options.abortSignal;
        const storeOptions: BuiltReadOptions = abortSignal
          ? { abortSignal, [ENTITY_BUILDER]: this.builtRead[ENTITY_BUILDER] }
          : this.builtRead;
        return (await table.getEntity(partitionKey, rowKey, storeOptions)) as TableEntityResult<T>;
      }
      const select = selection(options.queryOptions?.select);
      raw = options.disableTypeConversion === true;
      keepTimestamp = selectsTimestamp(select);
      const storeOptions = select ? { ...signal(options), queryOptions: { select } } : signal(options);
      result = await table.getEntity(partitionKey, rowKey, storeOptions);
    } catch (err) {
      throw this.fail(err, "GET", { partitionKey, rowKey });
    }
    return sdkEntity(
      result as Record<string, unknown>,
      this.metadata,
      raw,
      keepTimestamp,
    ) as TableEntityResult<T>;
  }

  /** Entities in key order; iterate, or `.byPage({ maxPageSize, continuationToken })`. */
  listEntities<T extends object = Record<string, unknown>>(
    options?: ListTableEntitiesOptions,
  ): PagedAsyncIterableIterator<TableEntityResult<T>, TableEntityResultPage<T>> {
    const select = selection(options?.queryOptions?.select);
    const filter = options?.queryOptions?.filter;
    const queryOptions = { ...(filter !== undefined ? { filter } : {}), ...(select ? { select } : {}) };
    const raw = options?.disableTypeConversion === true;
    const keepTimestamp = selectsTimestamp(select);
    // Without select or disableTypeConversion the store builds the SDK's entities from its rows.
    const built = select === undefined && !raw;
    const storeOptions: StoreListOptions & BuiltReadOptions = built
      ? { ...signal(options), queryOptions, [ENTITY_BUILDER]: LISTED }
      : { ...signal(options), queryOptions };
    return sdkPagedIterator(
      async () => (this.table ?? (await this.open())).listEntities(storeOptions),
      built
        ? undefined
        : (e: StoreEntityResult) =>
            sdkEntity(e as Record<string, unknown>, undefined, raw, keepTimestamp) as TableEntityResult<T>,
      (err) => this.fail(err, "GET"),
    ) as PagedAsyncIterableIterator<TableEntityResult<T>, TableEntityResultPage<T>>;
  }

  async updateEntity<T extends object>(
    entity: TableEntity<T>,
    mode: UpdateMode = "Merge",
    options?: UpdateTableEntityOptions,
  ): Promise<TableMergeEntityHeaders> {
    let written: WriteResponse;
    try {
      const table = this.table ?? (await this.open());
      const etag = options?.etag;
      const storeOptions = etag === undefined ? signal(options) : { ...signal(options), etag };
      written = await table.updateEntity(entityToWrite(entity) as never, mode, storeOptions);
    } catch (err) {
      throw this.fail(err, mode === "Merge" ? "PATCH" : "PUT", entity);
    }
    return updateResponse(written);
  }

  async upsertEntity<T extends object>(
    entity: TableEntity<T>,
    mode: UpdateMode = "Merge",
    options?: OperationOptions,
  ): Promise<TableMergeEntityHeaders> {
    let written: WriteResponse;
    try {
      const table = this.table ?? (await this.open());
      written = await table.upsertEntity(entityToWrite(entity) as never, mode, signal(options));
    } catch (err) {
      throw this.fail(err, mode === "Merge" ? "PATCH" : "PUT", entity);
    }
    return updateResponse(written);
  }

  async deleteEntity(
    partitionKey: string,
    rowKey: string,
    options?: DeleteTableEntityOptions,
  ): Promise<TableDeleteEntityHeaders> {
    try {
      const table = this.table ?? (await this.open());
      const etag = options?.etag;
      const storeOptions = etag === undefined ? signal(options) : { ...signal(options), etag };
      await table.deleteEntity(partitionKey, rowKey, storeOptions);
    } catch (err) {
      throw this.fail(err, "DELETE", { partitionKey, rowKey });
    }
    return deleteResponse();
  }

  /** The table's stored access policies (dates as Date), as the SDK's; TableNotFound when it does not exist. */
  async getAccessPolicy(options?: OperationOptions): Promise<SignedIdentifier[]> {
    try {
      const table = this.table ?? (await this.open());
      return sdkIdentifiers(await table.getAccessPolicy(signal(options)));
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/${this.tableName}?comp=acl`, method: "GET" });
    }
  }

  /** Replaces the table's stored access policies (at most five; dates sent to the second, as the SDK sends them). */
  async setAccessPolicy(
    tableAcl: SignedIdentifier[],
    options?: OperationOptions,
  ): Promise<{
    clientRequestId?: string;
    requestId?: string;
    version?: string;
    date?: Date;
    body?: undefined;
  }> {
    try {
      const table = this.table ?? (await this.open());
      await table.setAccessPolicy(storeIdentifiers(tableAcl), signal(options));
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/${this.tableName}?comp=acl`, method: "PUT" });
    }
    return { ...operationHeaders(true), body: undefined };
  }

  /** An entity group transaction: `TableTransaction#actions`, or the same tuples written by hand. */
  async submitTransaction(
    actions: readonly TransactionAction[],
    options?: OperationOptions,
  ): Promise<TableTransactionResponse> {
    const storeActions = actions.map(toStoreAction);
    try {
      const table = this.table ?? (await this.open());
      const result = await table.submitTransaction(storeActions, signal(options));
      return transactionResponse(storeActions, result.subResponses);
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/$batch`, method: "POST" }, true);
    }
  }
}

/** An SDK action as the store's: entities without read-only metadata, and the etag option only. */
function toStoreAction(action: TransactionAction): StoreTransactionAction {
  const tuple = action as unknown as readonly [string, TableEntity, UpdateMode?, UpdateTableEntityOptions?];
  const kind = tuple[0];
  const e = entityToWrite(tuple[1]) as never;
  // An action the store takes as it is (TableTransaction's usual ones) is handed on, not copied.
  if (e === tuple[1] && (kind === "upsert" ? tuple.length <= 3 : kind !== "update" && tuple.length === 2)) {
    return action as StoreTransactionAction;
  }
  const mode = tuple[2];
  const options = tuple[3];
  switch (kind) {
    case "update":
      return options?.etag !== undefined
        ? ["update", e, mode ?? "Merge", { etag: options.etag }]
        : ["update", e, mode ?? "Merge"];
    case "upsert":
      return ["upsert", e, mode ?? "Merge"];
    case "delete":
      return ["delete", e];
    default:
      return [kind as "create", e];
  }
}

export function isCredential(value: unknown): value is Credential {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (typeof v.name === "string" && typeof v.key === "string") ||
    typeof v.signature === "string" ||
    typeof v.getToken === "function"
  );
}
