import { compileFilter, type FilterNode } from "../../filter/index.js";
import {
  isTableKitError,
  type Limits,
  METADATA_NAMES,
  type NormalizedEntity,
  type StoredEntity,
  TableKitError,
} from "../../model/index.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  BackendTable,
  CallOptions,
  UpdateMode,
  WriteResult,
} from "../backend.js";
import type { BatchTarget } from "./batch-body.js";
import type { AzureConnection } from "./connection.js";
import { entityContinuation } from "./continuation.js";
import { decodeEntity, entityJson, writeResult } from "./entity-json.js";
import { toTableKitError } from "./errors.js";
import { type AzureExchange, withExchange } from "./exchange.js";
import { parseJsonWithNumberText } from "./json-numbers.js";
import { mergeLimitError } from "./merge-limits.js";
import type { AzureOperationOptions, AzureTableClient } from "./sdk.js";
import { ENTITY_KEYS, filterProperties, serverFilter } from "./server-filter.js";
import { type LimitViolation, submitTransaction } from "./transaction.js";

/** C# identifier rules (the service's property names); anything else cannot be selected. */
const PROPERTY_NAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*$/u;

export interface AzureTableOptions {
  readonly connection: AzureConnection;
  readonly limits: Limits;
  /**
   * Against Azurite: the table's name as it was created. Azurite finds a table's entities only
   * under that exact case; the service treats table names case-insensitively.
   */
  readonly createdName?: (name: string, options: CallOptions) => Promise<string | undefined>;
}

/** The SDK client of one table, under the name the server knows it by. */
interface Binding extends BatchTarget {
  readonly name: string;
  readonly client: AzureTableClient;
}

/** One table of an Azure account (or Cosmos DB Table API, or Azurite), through `@azure/data-tables`' TableClient. */
export class AzureTable implements BackendTable {
  private binding: Binding | undefined;

  constructor(
    private readonly name: string,
    private readonly options: AzureTableOptions,
  ) {}

  insert(entity: NormalizedEntity, options: CallOptions): Promise<WriteResult> {
    return this.run(options, async (b) =>
      writeResult(await send(options, bodyOf(entity), (o) => b.client.createEntity(keysOf(entity), o))),
    );
  }

  upsert(entity: NormalizedEntity, mode: UpdateMode, options: CallOptions): Promise<WriteResult> {
    return this.run(options, async (b) => {
      if (mode === "Merge") await this.checkMerge(b, entity, options);
      return writeResult(
        await send(options, bodyOf(entity), (o) => b.client.upsertEntity(keysOf(entity), mode, o)),
      );
    });
  }

  update(
    entity: NormalizedEntity,
    mode: UpdateMode,
    etag: string,
    options: CallOptions,
  ): Promise<WriteResult> {
    return this.run(options, async (b) => {
      if (mode === "Merge") await this.checkMerge(b, entity, options);
      return writeResult(
        await send(options, bodyOf(entity), (o) =>
          b.client.updateEntity(keysOf(entity), mode, { ...o, etag }),
        ),
      );
    });
  }

  delete(partitionKey: string, rowKey: string, etag: string, options: CallOptions): Promise<void> {
    return this.run(options, async (b) => {
      await send(options, {}, (o) => b.client.deleteEntity(partitionKey, rowKey, { ...o, etag }));
    });
  }

  get(partitionKey: string, rowKey: string, options: CallOptions): Promise<StoredEntity | undefined> {
    return this.run(options, (b) => fetchEntity(b.client, partitionKey, rowKey, options));
  }

  async query(query: BackendQuery, options: CallOptions): Promise<BackendPage> {
    const filterText = query.filter
      ? serverFilter(query.filter, {
          emulator: this.options.connection.emulator,
          stringProperties: ENTITY_KEYS,
        })
      : undefined;
    if (filterText === false) return { entities: [] };
    const matches = query.filter ? compileFilter(query.filter) : undefined;
    const continuationToken =
      query.continuation === undefined ? undefined : entityContinuation(query.continuation);
    return this.run(options, async (b) => {
      const exchange: AzureExchange = { takeBody: true };
      const page = await send(options, exchange, async (o) => {
        const pages = b.client
          .listEntities({
            ...o,
            disableTypeConversion: true,
            queryOptions: {
              ...(filterText === undefined ? {} : { filter: filterText }),
              ...(query.select ? { select: selection(query.select, query.filter) } : {}),
            },
          })
          .byPage({ maxPageSize: query.maxPageSize, ...(continuationToken ? { continuationToken } : {}) });
        const next = await pages.next();
        return next.done ? undefined : next.value;
      });
      const entities = (
        (parseBody(exchange.responseBody) as { value?: Record<string, unknown>[] }).value ?? []
      ).map(decodeEntity);
      return {
        // The server may answer a wider filter than asked (server-filter.ts): keep exact matches only.
        entities: matches ? entities.filter(matches) : entities,
        ...(page?.continuationToken ? { continuation: page.continuationToken } : {}),
      };
    });
  }

  transact(actions: readonly BackendAction[], options: CallOptions): Promise<(WriteResult | undefined)[]> {
    if (actions.length === 0) return Promise.resolve([]);
    return this.run(options, async (b) => {
      const violation = await this.mergeViolation(b, actions, options);
      return submitTransaction(b.client, b, actions, options, violation);
    });
  }

  /**
   * Runs an operation on the bound client. Against Azurite, a TableNotFound may mean the table
   * was recreated under another case since it was bound: bind again and retry once (a failed
   * operation wrote nothing).
   */
  private async run<T>(options: CallOptions, operation: (binding: Binding) => Promise<T>): Promise<T> {
    const binding = await this.bind(options);
    try {
      return await operation(binding);
    } catch (err) {
      if (!this.options.createdName || !isTableKitError(err, "TableNotFound")) throw err;
      this.binding = undefined;
      const again = await this.bind(options);
      if (again.name === binding.name) throw err;
      return operation(again);
    }
  }

  private async bind(options: CallOptions): Promise<Binding> {
    if (this.binding) return this.binding;
    const { connection, createdName } = this.options;
    const created = createdName ? await createdName(this.name, options) : this.name;
    const name = created ?? this.name;
    const binding: Binding = {
      name,
      client: connection.tableClient(name),
      tableUrl: `${connection.accountUrl}/${name}`,
      cosmos: connection.cosmos,
    };
    // A table that does not exist (yet) is looked up again next time.
    if (created !== undefined) this.binding = binding;
    return binding;
  }

  /** Against Azurite only: refuses a merge whose result breaks a limit (the service enforces it itself). */
  private async checkMerge(b: Binding, entity: NormalizedEntity, options: CallOptions): Promise<void> {
    if (!this.options.connection.emulator) return;
    const stored = await fetchEntity(b.client, entity.partitionKey, entity.rowKey, options);
    const error = stored && mergeLimitError(stored, entity, this.options.limits);
    if (error) throw error;
  }

  /** The first merge of a transaction whose result breaks a limit (Azurite only). */
  private async mergeViolation(
    b: Binding,
    actions: readonly BackendAction[],
    options: CallOptions,
  ): Promise<LimitViolation | undefined> {
    if (!this.options.connection.emulator) return undefined;
    const errors = await Promise.all(
      actions.map(async (action) => {
        if (action.kind === "create" || action.kind === "delete" || action.mode !== "Merge") return undefined;
        const stored = await fetchEntity(b.client, action.entity.partitionKey, action.entity.rowKey, options);
        return stored && mergeLimitError(stored, action.entity, this.options.limits);
      }),
    );
    const index = errors.findIndex((error) => error !== undefined);
    return index < 0 ? undefined : { index, error: errors[index]! };
  }
}

/** One SDK call with the exchange attached; whatever it throws becomes a TableKitError. */
async function send<T>(
  options: CallOptions,
  exchange: AzureExchange,
  call: (options: AzureOperationOptions) => Promise<T>,
): Promise<T> {
  try {
    return await withExchange(exchange, () =>
      call(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    );
  } catch (err) {
    throw toTableKitError(err, options.abortSignal);
  }
}

/** A point read, undefined when the entity does not exist. */
async function fetchEntity(
  client: AzureTableClient,
  partitionKey: string,
  rowKey: string,
  options: CallOptions,
): Promise<StoredEntity | undefined> {
  const exchange: AzureExchange = { takeBody: true };
  try {
    await send(options, exchange, (o) =>
      client.getEntity(partitionKey, rowKey, { ...o, disableTypeConversion: true }),
    );
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound")) return undefined;
    throw err;
  }
  return decodeEntity(parseBody(exchange.responseBody) as Record<string, unknown>);
}

function keysOf(entity: NormalizedEntity): { partitionKey: string; rowKey: string } {
  return { partitionKey: entity.partitionKey, rowKey: entity.rowKey };
}

function bodyOf(entity: NormalizedEntity): AzureExchange {
  const json = entityJson(entity);
  return { body: () => json };
}

function parseBody(body: string | null | undefined): unknown {
  if (!body) throw new TableKitError("BackendError", "The service's response had no body");
  return parseJsonWithNumberText(body);
}

/**
 * The `$select` sent: the caller's properties, those the filter reads (the page is re-checked on
 * the client) and the system properties a StoredEntity needs. The core projects the final result.
 */
function selection(select: readonly string[], filter: FilterNode | undefined): string[] {
  const names = new Set(["PartitionKey", "RowKey", "Timestamp"]);
  for (const name of select) if (PROPERTY_NAME.test(name) && !METADATA_NAMES.has(name)) names.add(name);
  if (filter) for (const name of filterProperties(filter)) names.add(name);
  return [...names];
}
