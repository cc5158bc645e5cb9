import { type FilterNode, type KeyRange, keyRanges, parseFilter } from "../../filter/index.js";
import { filterProperties } from "../../filter/properties.js";
import { validateEtag } from "../../model/etag.js";
import {
  compareUtf8,
  compareUtf16,
  isPropertyName,
  isTableKitError,
  type Limits,
  METADATA_NAMES,
  type PropertyOutput,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
  toEntityResult,
  validateKey,
} from "../../model/index.js";
import type { AccessOperation, AccessPolicy } from "../access/access-policy.js";
import type { CallOptions } from "../call-options.js";
import { callOptions, type OperationOptions, type StoreLifecycle } from "../call-options.js";
import { type PagedAsyncIterableIterator, pagedIterator, tokenScope } from "../paging.js";
import type {
  BackendAction,
  TableBackend,
  TableServiceBackend,
  UpdateMode,
  WriteResult,
} from "./table-backend.js";
import { type CheckedEntity, checkEntity, entityForWrite, validateTableName } from "./table-rules.js";
import {
  prepareTransaction,
  RECEIVED_BODY_BYTES,
  type ReceivedTransactionOptions,
  type TransactionAction,
  type TransactionResponse,
  updateMode,
} from "./table-transaction.js";

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

type Entity<T extends object> = TableEntity<T> | CheckedEntity;

/**
 * One table, with `@azure/data-tables`' TableClient method names and shapes: Azure users port code
 * by changing an import. Every call validates its input against the backend's limits, checks the
 * store is open and the signal has not fired, then makes exactly one backend call.
 */
export class Table {
  private readonly backendTable: TableBackend;
  private nameChecked = false;

  constructor(
    private readonly service: TableServiceBackend,
    readonly tableName: string,
    private readonly lifecycle: StoreLifecycle,
    /** What the store's access token allows; absent means everything. */
    private readonly access?: AccessPolicy,
  ) {
    this.backendTable = service.table(tableName);
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
    this.access.checkKeys(keys, this.service.capabilities.keyOrder === "utf8" ? compareUtf8 : compareUtf16);
  }

  private get limits(): Limits {
    return this.service.capabilities.limits;
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
      if (options?.failIfMissing || !isTableKitError(err, "TableNotFound")) throw err;
    }
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
    const result = (await this.backendTable.write(action, call))!;
    if (!options?.returnContent) return response(result);
    return { ...response(result), entity: toEntityResult({ ...action.entity, ...result }) };
  }

  async getEntity<T extends object = Record<string, PropertyOutput>>(
    partitionKey: string,
    rowKey: string,
    options?: GetEntityOptions,
  ): Promise<TableEntityResult<T>> {
    const call = this.begin(options);
    this.authorize("query");
    validateKey("PartitionKey", partitionKey, this.limits);
    validateKey("RowKey", rowKey, this.limits);
    const select = checkSelect(options?.queryOptions?.select);
    this.authorizeKeys({ partitionKey, rowKey });
    const stored = await this.backendTable.get(partitionKey, rowKey, call);
    if (!stored) {
      throw new TableKitError("ResourceNotFound", "The specified resource does not exist.", {
        details: { partitionKey, rowKey },
      });
    }
    return toEntityResult(stored, select) as TableEntityResult<T>;
  }

  async updateEntity<T extends object>(
    entity: Entity<T>,
    mode: UpdateMode = "Merge",
    options?: UpdateOptions,
  ): Promise<WriteResponse> {
    const call = this.begin(options);
    this.authorize("update");
    const etag = validateEtag(options?.etag ?? "*");
    const action: BackendAction = {
      kind: "update",
      entity: entityForWrite(entity, this.limits),
      mode: updateMode(mode),
      etag,
    };
    this.authorizeKeys(action.entity);
    return response(await this.backendTable.write(action, call));
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
    return response(await this.backendTable.write(action, call));
  }

  async deleteEntity(partitionKey: string, rowKey: string, options?: UpdateOptions): Promise<void> {
    const call = this.begin(options);
    this.authorize("delete");
    const action: BackendAction = {
      kind: "delete",
      partitionKey: validateKey("PartitionKey", partitionKey, this.limits),
      rowKey: validateKey("RowKey", rowKey, this.limits),
      etag: validateEtag(options?.etag ?? "*"),
    };
    this.authorizeKeys(action);
    await this.backendTable.write(action, call);
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
    const planQuery = (): QueryPlan => {
      if (plan) return plan;
      const text = options?.queryOptions?.filter;
      const parsed =
        text === undefined || text.trim() === ""
          ? undefined
          : parseFilter(text, { maxComparisons: limits.maxFilterComparisons });
      // A token's key range narrows the query: entities outside it are never returned.
      const restriction = this.access?.queryRestriction();
      const filter: FilterNode | undefined =
        restriction && parsed ? { kind: "and", left: parsed, right: restriction } : (restriction ?? parsed);
      const compare = this.service.capabilities.keyOrder === "utf8" ? compareUtf8 : compareUtf16;
      const select = checkSelect(options?.queryOptions?.select);
      plan = {
        filter,
        ranges: filter ? keyRanges(filter, compare) : undefined,
        select,
        backendSelect: select && customProperties(select),
        filterNames: filter ? customProperties(filterProperties(filter)) : [],
      };
      return plan;
    };
    return pagedIterator(
      async (maxPageSize, continuation) => {
        const call = this.begin(options);
        this.authorize("query");
        const { filter, ranges, select, backendSelect, filterNames } = planQuery();
        if (ranges && ranges.length === 0) return { items: [] };
        const page = await this.backendTable.query(
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
        return {
          items: page.entities.map((e) => toEntityResult(e, select) as TableEntityResult<T>),
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
    const results = await this.backendTable.transact(prepared, call);
    const subResponses = prepared.map((action, i) => ({
      status: 204,
      rowKey: action.kind === "delete" ? action.rowKey : action.entity.rowKey,
      ...(results[i] ? { etag: results[i]!.etag } : {}),
    }));
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

/** A filter's plan, made once per `listEntities` call. */
interface QueryPlan {
  readonly filter?: FilterNode;
  readonly ranges?: KeyRange[];
  /** The caller's selection, for the result. */
  readonly select?: string[];
  /** What the backend is told: the custom properties among it. */
  readonly backendSelect?: string[];
  /** The custom properties the filter reads. */
  readonly filterNames: string[];
}

/** The custom properties among `names` (system and metadata names, and impossible names, removed), each once. */
function customProperties(names: readonly string[]): string[] {
  return [...new Set(names.filter((name) => isPropertyName(name) && !METADATA_NAMES.has(name)))];
}

function checkSelect(select: unknown): string[] | undefined {
  if (select === undefined) return undefined;
  if (!Array.isArray(select) || select.some((s) => typeof s !== "string" || s === "")) {
    throw new TableKitError("InvalidInput", "select must be an array of property names");
  }
  return select as string[];
}
