import { compileFilter } from "../../../filter/index.js";
import {
  isTableKitError,
  type Limits,
  mergeEntity,
  type NormalizedEntity,
  type StoredEntity,
  TableKitError,
} from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  TableBackend,
  WriteResult,
} from "../../tables/table-backend.js";
import type { AzureConnection } from "./connection.js";
import type { BatchTarget } from "./table-batch-body.js";
import { decodeEntityContinuation, encodeEntityContinuation } from "./table-continuation.js";
import { decodeEntity, writeResult } from "./table-entity-codec.js";
import { ENTITY_KEYS, serverFilter } from "./table-filter-translator.js";
import { parseJsonWithNumberText } from "./table-json-numbers.js";
import { getEntityRequest, queryEntitiesRequest, writeRequest } from "./table-requests.js";
import { type LimitViolation, submitTransaction } from "./table-transaction.js";

export interface AzureTableOptions {
  readonly connection: AzureConnection;
  readonly limits: Limits;
  /**
   * Against Azurite: the table's name as it was created. Azurite finds a table's entities only
   * under that exact case; the service treats table names case-insensitively.
   */
  readonly createdName?: (name: string, call: CallOptions) => Promise<string | undefined>;
}

/** One table of an Azure account (or Cosmos DB Table API, or Azurite). */
export class AzureTable implements TableBackend {
  private binding: BatchTarget | undefined;

  constructor(
    private readonly name: string,
    private readonly options: AzureTableOptions,
  ) {}

  private get connection(): AzureConnection {
    return this.options.connection;
  }

  get(partitionKey: string, rowKey: string, call: CallOptions): Promise<StoredEntity | undefined> {
    return this.run(call, (b) => this.fetchEntity(b, partitionKey, rowKey, call));
  }

  async query(query: BackendQuery, call: CallOptions): Promise<BackendPage> {
    const filterText = query.filter
      ? serverFilter(query.filter, { emulator: this.connection.emulator, stringProperties: ENTITY_KEYS })
      : undefined;
    if (filterText === false) return { entities: [] };
    const matches = query.filter ? compileFilter(query.filter) : undefined;
    const next = query.continuation === undefined ? undefined : decodeEntityContinuation(query.continuation);
    return this.run(call, async (b) => {
      const request = queryEntitiesRequest(b.table, {
        ...(filterText === undefined ? {} : { filter: filterText }),
        ...(query.select ? { select: selection(query) } : {}),
        top: query.maxPageSize,
        ...(next ? { next } : {}),
      });
      const response = await this.connection.send(request, call);
      const rows = (parseBody(response.body) as { value?: Record<string, unknown>[] }).value ?? [];
      const entities = rows.map(decodeEntity);
      const nextPartitionKey = response.headers.get("x-ms-continuation-NextPartitionKey");
      const nextRowKey = response.headers.get("x-ms-continuation-NextRowKey");
      return {
        // The server may answer a wider filter than asked (filter-translator.ts): keep exact matches only.
        entities: matches ? entities.filter(matches) : entities,
        ...(nextPartitionKey
          ? {
              continuation: encodeEntityContinuation({
                partitionKey: nextPartitionKey,
                ...(nextRowKey ? { rowKey: nextRowKey } : {}),
              }),
            }
          : {}),
      };
    });
  }

  write(action: BackendAction, call: CallOptions): Promise<WriteResult | undefined> {
    return this.run(call, async (b) => {
      if (action.kind !== "create" && action.kind !== "delete" && action.mode === "Merge") {
        const error = await this.mergeLimitError(b, action.entity, call);
        if (error) throw error;
      }
      const response = await this.connection.send(writeRequest(b, action), call);
      return action.kind === "delete"
        ? undefined
        : writeResult(response.headers.get("etag"), response.headers.get("date"));
    });
  }

  transact(actions: readonly BackendAction[], call: CallOptions): Promise<(WriteResult | undefined)[]> {
    return this.run(call, async (b) => {
      const violation = await this.mergeViolation(b, actions, call);
      return submitTransaction(this.connection, b, actions, call, violation);
    });
  }

  /**
   * Runs an operation on the table as the server knows it. Against Azurite, a TableNotFound may
   * mean the table was recreated under another case since it was bound: bind again and retry once
   * (a failed operation wrote nothing).
   */
  private async run<T>(call: CallOptions, operation: (binding: BatchTarget) => Promise<T>): Promise<T> {
    const binding = await this.bind(call);
    try {
      return await operation(binding);
    } catch (err) {
      if (!this.options.createdName || !isTableKitError(err, "TableNotFound")) throw err;
      this.binding = undefined;
      const again = await this.bind(call);
      if (again.table === binding.table) throw err;
      return operation(again);
    }
  }

  private async bind(call: CallOptions): Promise<BatchTarget> {
    if (this.binding) return this.binding;
    const { createdName } = this.options;
    const created = createdName ? await createdName(this.name, call) : this.name;
    const binding: BatchTarget = {
      table: created ?? this.name,
      accountUrl: this.connection.accountUrl,
      cosmos: this.connection.cosmos,
    };
    // A table that does not exist (yet) is looked up again next time.
    if (created !== undefined) this.binding = binding;
    return binding;
  }

  /** A point read, undefined when the entity does not exist. */
  private async fetchEntity(
    b: BatchTarget,
    partitionKey: string,
    rowKey: string,
    call: CallOptions,
  ): Promise<StoredEntity | undefined> {
    try {
      const response = await this.connection.send(getEntityRequest(b.table, partitionKey, rowKey), call);
      return decodeEntity(parseBody(response.body) as Record<string, unknown>);
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return undefined;
      throw err;
    }
  }

  /**
   * Against Azurite only, the limit a Merge would break (the service enforces them itself; Azurite
   * does not, #1446): the model's merge of the stored entity, checked as every backend checks it.
   */
  private async mergeLimitError(
    b: BatchTarget,
    update: NormalizedEntity,
    call: CallOptions,
  ): Promise<TableKitError | undefined> {
    if (!this.connection.emulator) return undefined;
    const stored = await this.fetchEntity(b, update.partitionKey, update.rowKey, call);
    if (!stored) return undefined;
    try {
      mergeEntity(stored, update, this.options.limits);
      return undefined;
    } catch (err) {
      if (err instanceof TableKitError) return err;
      throw err;
    }
  }

  /** The first merge of a transaction whose result breaks a limit (Azurite only). */
  private async mergeViolation(
    b: BatchTarget,
    actions: readonly BackendAction[],
    call: CallOptions,
  ): Promise<LimitViolation | undefined> {
    if (!this.connection.emulator) return undefined;
    const errors = await Promise.all(
      actions.map((action) =>
        action.kind === "create" || action.kind === "delete" || action.mode !== "Merge"
          ? undefined
          : this.mergeLimitError(b, action.entity, call),
      ),
    );
    const index = errors.findIndex((error) => error !== undefined);
    return index < 0 ? undefined : { index, error: errors[index]! };
  }
}

function parseBody(body: string): unknown {
  if (!body) throw new TableKitError("BackendError", "The service's response had no body");
  return parseJsonWithNumberText(body);
}

/**
 * The `$select` sent: the caller's properties, those the filter reads (the page is re-checked on
 * the client) and the system properties a StoredEntity needs. The core projects the final result.
 */
function selection(query: BackendQuery): string[] {
  return [...new Set(["PartitionKey", "RowKey", "Timestamp", ...query.select!, ...query.filterProperties])];
}
