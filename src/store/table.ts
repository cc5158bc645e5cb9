import { type FilterNode, keyRanges, parseFilter } from "../filter/index.js";
import {
  compareUtf8,
  compareUtf16,
  type Limits,
  normalizeEntity,
  type PropertyOutput,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
  toEntityResult,
  validateKey,
  validateTableName,
} from "../model/index.js";
import type { AccessOperation, AccessPolicy } from "./access-policy.js";
import type { BackendAction, BackendStore, BackendTable, UpdateMode } from "./backend.js";
import { callOptions, type OperationOptions, validateEtag } from "./call-options.js";
import { type PagedAsyncIterableIterator, pagedIterator } from "./paging.js";
import { prepareTransaction, type TransactionAction, type TransactionResponse } from "./transaction.js";

export interface WriteResponse {
  etag: string;
  /** When the service stored the write, ISO 8601 with seven fractional digits. */
  timestamp: string;
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

type Entity<T extends object> = TableEntity<T>;

/**
 * One table, with `@azure/data-tables`' TableClient method names and shapes: Azure users port code
 * by changing an import. Validates every input against the backend's limits before calling it.
 */
export class Table {
  private readonly backendTable: BackendTable;

  constructor(
    private readonly backend: BackendStore,
    readonly tableName: string,
    /** What the store's access token allows; absent means everything. */
    private readonly access?: AccessPolicy,
  ) {
    this.backendTable = backend.table(tableName);
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
    this.access.checkKeys(keys, this.backend.capabilities.keyOrder === "utf8" ? compareUtf8 : compareUtf16);
  }

  private get limits(): Limits {
    return this.backend.capabilities.limits;
  }

  private nameChecked = false;

  /** Validated backend options; throws Aborted / InvalidResourceName before any I/O. */
  private begin(options: OperationOptions | undefined) {
    const call = callOptions(options);
    if (!this.nameChecked) {
      validateTableName(this.tableName, this.limits);
      this.nameChecked = true;
    }
    return call;
  }

  async createTable(options?: OperationOptions): Promise<void> {
    const call = this.begin(options);
    this.authorize("createTable");
    await this.backend.createTable(this.tableName, call);
  }

  async deleteTable(options?: OperationOptions): Promise<void> {
    const call = this.begin(options);
    this.authorize("deleteTable");
    await this.backend.deleteTable(this.tableName, call);
  }

  async createEntity<T extends object>(
    entity: Entity<T>,
    options?: OperationOptions,
  ): Promise<WriteResponse> {
    const call = this.begin(options);
    this.authorize("insert");
    const normalized = normalizeEntity(entity, this.limits);
    this.authorizeKeys(normalized);
    const result = await this.backendTable.insert(normalized, call);
    return { etag: result.etag, timestamp: result.timestamp.toISOString() };
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
    const normalized = normalizeEntity(entity, this.limits);
    this.authorizeKeys(normalized);
    const result = await this.backendTable.update(normalized, checkMode(mode), etag, call);
    return { etag: result.etag, timestamp: result.timestamp.toISOString() };
  }

  async upsertEntity<T extends object>(
    entity: Entity<T>,
    mode: UpdateMode = "Merge",
    options?: OperationOptions,
  ): Promise<WriteResponse> {
    const call = this.begin(options);
    this.authorize("upsert");
    const normalized = normalizeEntity(entity, this.limits);
    this.authorizeKeys(normalized);
    const result = await this.backendTable.upsert(normalized, checkMode(mode), call);
    return { etag: result.etag, timestamp: result.timestamp.toISOString() };
  }

  async deleteEntity(partitionKey: string, rowKey: string, options?: UpdateOptions): Promise<void> {
    const call = this.begin(options);
    this.authorize("delete");
    validateKey("PartitionKey", partitionKey, this.limits);
    validateKey("RowKey", rowKey, this.limits);
    this.authorizeKeys({ partitionKey, rowKey });
    await this.backendTable.delete(partitionKey, rowKey, validateEtag(options?.etag ?? "*"), call);
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
    let plan: { filter?: FilterNode; ranges?: ReturnType<typeof keyRanges>; select?: string[] } | undefined;
    const planQuery = () => {
      if (plan) return plan;
      const text = options?.queryOptions?.filter;
      const parsed =
        text === undefined || text.trim() === ""
          ? undefined
          : parseFilter(text, {
              maxComparisons: limits.maxFilterComparisons,
            });
      // A token's key range narrows the query: entities outside it are never returned.
      const restriction = this.access?.queryRestriction();
      const filter =
        restriction && parsed
          ? ({ kind: "and", left: parsed, right: restriction } as const)
          : (restriction ?? parsed);
      const compare = this.backend.capabilities.keyOrder === "utf8" ? compareUtf8 : compareUtf16;
      plan = {
        filter,
        ranges: filter ? keyRanges(filter, compare) : undefined,
        select: checkSelect(options?.queryOptions?.select),
      };
      return plan;
    };
    return pagedIterator(
      async (maxPageSize, continuation) => {
        const call = this.begin(options);
        this.authorize("query");
        const { filter, ranges, select } = planQuery();
        if (ranges && ranges.length === 0) return { items: [] };
        const page = await this.backendTable.query(
          { filter, ranges, select, maxPageSize, continuation, timeBudgetMs: limits.pageTimeBudgetMs },
          call,
        );
        return {
          items: page.entities.map((e) => toEntityResult(e, select) as TableEntityResult<T>),
          continuation: page.continuation,
        };
      },
      { defaultPageSize: limits.maxPageSize, maxPageSize: limits.maxPageSize },
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
    const prepared = prepareTransaction(actions, this.limits);
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

function checkMode(mode: unknown): UpdateMode {
  if (mode !== "Merge" && mode !== "Replace") {
    throw new TableKitError(
      "InvalidInput",
      `Update mode must be "Merge" or "Replace", got ${JSON.stringify(mode)}`,
    );
  }
  return mode;
}

function checkSelect(select: unknown): string[] | undefined {
  if (select === undefined) return undefined;
  if (!Array.isArray(select) || select.some((s) => typeof s !== "string" || s === "")) {
    throw new TableKitError("InvalidInput", "select must be an array of property names");
  }
  return select as string[];
}
