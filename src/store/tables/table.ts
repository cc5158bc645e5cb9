import { validateTableEtag } from "../../model/etag.js";
import {
  compareUtf8,
  compareUtf16,
  isTableKitError,
  type Limits,
  type PropertyOutput,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
  toEntityResult,
  validateKey,
} from "../../model/index.js";
import type { AccessOperation, AccessPolicy } from "../access/access-policy.js";
import type { TableSignedIdentifier } from "../access/stored-access-policies.js";
import {
  type CallOptions,
  callOptions,
  type OperationOptions,
  type StoreLifecycle,
} from "../call-options.js";
import { type PagedAsyncIterableIterator, pagedIterator, tokenScope } from "../paging.js";
import { namingTheTable } from "./missing-table.js";
import { entityBuilder, failedRead, readEntity } from "./point-read.js";
import { getTableAccessPolicy, setTableAccessPolicy } from "./table-access-policies.js";
import type {
  BackendAction,
  TableBackend,
  TableServiceBackend,
  UpdateMode,
  WriteResult,
} from "./table-backend.js";
import type {
  CreateEntityOptions,
  CreateTableOptions,
  DeleteTableOptions,
  GetEntityOptions,
  ListEntitiesOptions,
  UpdateOptions,
  WriteResponse,
} from "./table-options.js";
import { customProperties, planQuery, type QueryPlan } from "./table-query-plan.js";
import { type CheckedEntity, checkEntity, entityForWrite, validateTableName } from "./table-rules.js";
import {
  prepareTransaction,
  RECEIVED_BODY_BYTES,
  type ReceivedTransactionOptions,
  STORED_ENTITY,
  type TransactionAction,
  type TransactionResponse,
  type TransactionSubResponse,
  updateMode,
} from "./table-transaction.js";

export type {
  CreateEntityOptions,
  CreateTableOptions,
  DeleteTableOptions,
  GetEntityOptions,
  ListEntitiesOptions,
  UpdateOptions,
  WriteResponse,
} from "./table-options.js";

type Entity<T extends object> = TableEntity<T> | CheckedEntity;

/**
 * One table, with `@azure/data-tables`' TableClient method names and shapes: Azure users port code
 * by changing an import. Every call validates its input against the backend's limits, checks the
 * store is open and the signal has not fired, then makes exactly one backend call.
 */
export class Table {
  private readonly backendTable: TableBackend;
  /** The backend's limits and key order: capabilities are fixed for a store's life, so read once. */
  private readonly limits: Limits;
  private readonly keyOrderName: "utf16" | "utf8";
  private readonly keyOrder: (a: string, b: string) => number;
  private nameChecked = false;

  constructor(
    private readonly service: TableServiceBackend,
    readonly tableName: string,
    private readonly lifecycle: StoreLifecycle,
    /** What the store's access token allows; absent means everything. */
    private readonly access?: AccessPolicy,
  ) {
    // Calls to it name this table in a TableNotFound inline (try/catch adds no promise per call).
    this.backendTable = service.table(tableName);
    this.limits = service.capabilities.limits;
    this.keyOrderName = service.capabilities.keyOrder;
    this.keyOrder = this.keyOrderName === "utf8" ? compareUtf8 : compareUtf16;
  }

  /** Another table of the same store: the same backend, access token and open/closed state. */
  sibling(name: string): Table {
    return new Table(this.service, name, this.lifecycle, this.access);
  }

  /**
   * Throws the service's 403 code unless the store's token allows `operation` here. As the service
   * does, authorization comes before the request is validated; the key range is checked after
   * (`authorizeKeys`), once the keys are known to be keys.
   */
  private authorize(operation: AccessOperation): void {
    this.access?.check(operation, this.tableName);
  }

  private authorizeKeys(keys: { partitionKey: string; rowKey: string }): void {
    if (!this.access) return;
    this.access.checkKeys(keys, this.keyOrder);
  }

  /** The backend's call options; InvalidInput (closed), Aborted or InvalidResourceName before any I/O. */
  private begin(options: OperationOptions | undefined): CallOptions {
    const call = callOptions(this.lifecycle, options);
    if (!this.nameChecked) {
      validateTableName(this.tableName, this.limits);
      this.nameChecked = true;
    }
    return call;
  }

  /** Creates this table; an existing table is success (as `TableClient.createTable`) unless `failIfExists`. */
  async createTable(options?: CreateTableOptions): Promise<void> {
    const call = this.begin(options);
    this.authorize("createTable");
    try {
      await this.service.createTable(this.tableName, call);
    } catch (err) {
      if (options?.failIfExists || !isTableKitError(err, "TableAlreadyExists")) throw err;
    }
  }

  /** Deletes this table and its entities; a missing table is success (as `TableClient.deleteTable`) unless `failIfMissing`. */
  async deleteTable(options?: DeleteTableOptions): Promise<void> {
    const call = this.begin(options);
    this.authorize("deleteTable");
    try {
      await this.service.deleteTable(this.tableName, call);
    } catch (err) {
      if (options?.failIfMissing || !isTableKitError(err, "TableNotFound"))
        throw namingTheTable(err, this.tableName);
    }
  }
  /** The table's stored access policies (`TableClient.getAccessPolicy`); TableNotFound when it does not exist. */
  async getAccessPolicy(options?: OperationOptions): Promise<TableSignedIdentifier[]> {
    return getTableAccessPolicy(this.service, this.tableName, this.begin(options), this.access);
  }

  /** Replaces the table's stored access policies (at most five; `TableClient.setAccessPolicy`). */
  async setAccessPolicy(identifiers: TableSignedIdentifier[], options?: OperationOptions): Promise<void> {
    await setTableAccessPolicy(this.service, this.tableName, identifiers, this.begin(options), this.access);
  }

  /**
   * Checks an entity against this table's rules without writing it: InvalidInput, PropertyNameInvalid,
   * EntityTooLarge, … as a write would answer. The result is accepted by every write and transaction
   * action of the store's tables, which then do not check it again.
   */
  checkEntity<T extends object>(entity: TableEntity<T>): CheckedEntity {
    return checkEntity(entity, this.limits);
  }

  createEntity<T extends object>(
    entity: Entity<T>,
    options: CreateEntityOptions & { returnContent: true },
  ): Promise<WriteResponse & { entity: TableEntityResult }>;
  createEntity<T extends object>(entity: Entity<T>, options?: CreateEntityOptions): Promise<WriteResponse>;
  async createEntity<T extends object>(
    entity: Entity<T>,
    options?: CreateEntityOptions,
  ): Promise<WriteResponse & { entity?: TableEntityResult }> {
    const call = this.begin(options);
    this.authorize("insert");
    const action: BackendAction = { kind: "create", entity: entityForWrite(entity, this.limits) };
    this.authorizeKeys(action.entity);
    let result: WriteResult;
    try {
      result = (await this.backendTable.write(action, call))!;
    } catch (err) {
      throw namingTheTable(err, this.tableName);
    }
    if (!options?.returnContent) return response(result);
    return { ...response(result), entity: toEntityResult({ ...action.entity, ...result }) };
  }

  getEntity<T extends object = Record<string, PropertyOutput>>(
    partitionKey: string,
    rowKey: string,
    options?: GetEntityOptions,
  ): Promise<TableEntityResult<T>> {
    // Not async: a backend that reads synchronously (getNow) answers with one settled promise and
    // no await; every throw below still reaches the caller as a rejection.
    try {
      const call = this.begin(options);
      this.authorize("query");
      validateKey("PartitionKey", partitionKey, this.limits);
      validateKey("RowKey", rowKey, this.limits);
      const select = checkSelect(options?.queryOptions?.select);
      this.authorizeKeys({ partitionKey, rowKey });
      return readEntity<T>(this.backendTable, this.tableName, partitionKey, rowKey, call, select, options);
    } catch (err) {
      return failedRead(options, err, partitionKey, rowKey);
    }
  }

  async updateEntity<T extends object>(
    entity: Entity<T>,
    mode: UpdateMode = "Merge",
    options?: UpdateOptions,
  ): Promise<WriteResponse> {
    const call = this.begin(options);
    this.authorize("update");
    const etag = validateTableEtag(options?.etag ?? "*");
    const action: BackendAction = {
      kind: "update",
      entity: entityForWrite(entity, this.limits),
      mode: updateMode(mode),
      etag,
    };
    this.authorizeKeys(action.entity);
    try {
      return response(await this.backendTable.write(action, call));
    } catch (err) {
      throw namingTheTable(err, this.tableName);
    }
  }

  async upsertEntity<T extends object>(
    entity: Entity<T>,
    mode: UpdateMode = "Merge",
    options?: OperationOptions,
  ): Promise<WriteResponse> {
    const call = this.begin(options);
    this.authorize("upsert");
    const action: BackendAction = {
      kind: "upsert",
      entity: entityForWrite(entity, this.limits),
      mode: updateMode(mode),
    };
    this.authorizeKeys(action.entity);
    try {
      return response(await this.backendTable.write(action, call));
    } catch (err) {
      throw namingTheTable(err, this.tableName);
    }
  }

  async deleteEntity(partitionKey: string, rowKey: string, options?: UpdateOptions): Promise<void> {
    const call = this.begin(options);
    this.authorize("delete");
    const action: BackendAction = {
      kind: "delete",
      partitionKey: validateKey("PartitionKey", partitionKey, this.limits),
      rowKey: validateKey("RowKey", rowKey, this.limits),
      etag: validateTableEtag(options?.etag ?? "*"),
    };
    this.authorizeKeys(action);
    try {
      await this.backendTable.write(action, call);
    } catch (err) {
      throw namingTheTable(err, this.tableName);
    }
  }

  /**
   * Entities matching `queryOptions.filter` (the Table service's `$filter`), in PartitionKey then
   * RowKey order. Iterate for every entity, or `.byPage({ maxPageSize, continuationToken })`.
   * Errors in the filter or options surface on the first `next()`.
   */
  listEntities<T extends object = Record<string, PropertyOutput>>(
    options?: ListEntitiesOptions,
  ): PagedAsyncIterableIterator<TableEntityResult<T>> {
    const limits = this.limits;
    let plan: QueryPlan | undefined;
    let select: string[] | undefined;
    let backendSelect: string[] | undefined;
    const build = entityBuilder(options);
    return pagedIterator(
      async (maxPageSize, continuation) => {
        const call = this.begin(options);
        this.authorize("query");
        if (!plan) {
          // A token's key range narrows the query: entities outside it are never returned.
          plan = planQuery(
            options?.queryOptions?.filter,
            limits,
            this.keyOrderName,
            this.access?.queryRestriction(),
          );
          select = checkSelect(options?.queryOptions?.select);
          backendSelect = select && customProperties(select);
        }
        const { filter, ranges, filterNames } = plan;
        if (ranges && ranges.length === 0) return { items: [] };
        let page: Awaited<ReturnType<TableBackend["query"]>>;
        try {
          page = await this.backendTable.query(
            {
              filter,
              ranges,
              select: backendSelect,
              filterProperties: filterNames,
              maxPageSize,
              continuation,
              timeBudgetMs: limits.pageTimeBudgetMs,
            },
            call,
          );
        } catch (err) {
          throw namingTheTable(err, this.tableName);
        }
        return {
          items: page.entities.map((e) => build(e, select) as TableEntityResult<T>),
          continuation: page.continuation,
        };
      },
      {
        defaultPageSize: limits.maxPageSize,
        maxPageSize: limits.maxPageSize,
        tokenScope: tokenScope("entities", this.tableName, options?.queryOptions?.filter),
      },
    );
  }

  private authorizeAction(action: BackendAction, index: number): void {
    try {
      this.authorize(ACTION_OPERATION[action.kind]);
      this.authorizeKeys(action.kind === "delete" ? action : action.entity);
    } catch (err) {
      throw err instanceof TableKitError ? err.withIndex(index) : err;
    }
  }

  /** An entity group transaction: all actions succeed or none is written. */
  async submitTransaction(
    actions: readonly TransactionAction[],
    options?: OperationOptions,
  ): Promise<TransactionResponse> {
    const call = this.begin(options);
    const received = (options as ReceivedTransactionOptions | undefined)?.[RECEIVED_BODY_BYTES];
    const prepared = prepareTransaction(this.tableName, actions, this.limits, received);
    if (this.access) {
      for (let i = 0; i < prepared.length; i++) this.authorizeAction(prepared[i]!, i);
    }
    let results: Awaited<ReturnType<TableBackend["transact"]>>;
    try {
      results = await this.backendTable.transact(prepared, call);
    } catch (err) {
      throw namingTheTable(err, this.tableName);
    }
    const subResponses = prepared.map((action, i): TransactionSubResponse => {
      const rowKey = action.kind === "delete" ? action.rowKey : action.entity.rowKey;
      const result = results[i];
      const sub: TransactionSubResponse = result
        ? { status: 204, rowKey, etag: result.etag }
        : { status: 204, rowKey };
      if (received !== undefined && result && action.kind === "create") {
        Object.defineProperty(sub, STORED_ENTITY, {
          get: () => toEntityResult({ ...action.entity, ...result }),
        });
      }
      return sub;
    });
    return {
      status: 202,
      subResponses,
      getResponseForEntity: (rowKey: string) => subResponses.find((r) => r.rowKey === rowKey),
    };
  }
}

const ACTION_OPERATION = {
  create: "insert",
  upsert: "upsert",
  update: "update",
  delete: "delete",
} as const satisfies Record<BackendAction["kind"], AccessOperation>;

function response(result: WriteResult | undefined): WriteResponse {
  return { etag: result!.etag, timestamp: result!.timestamp.toISOString() };
}

function checkSelect(select: unknown): string[] | undefined {
  if (select === undefined) return undefined;
  if (!Array.isArray(select) || select.some((s) => typeof s !== "string" || s === "")) {
    throw new TableKitError("InvalidInput", "select must be an array of property names");
  }
  return select as string[];
}
