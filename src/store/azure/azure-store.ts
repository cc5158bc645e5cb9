import { compileFilter, type FilterPredicate } from "../../filter/index.js";
import { TableKitError } from "../../model/index.js";
import type { BackendStore, BackendTable, BackendTableQuery, CallOptions } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import type { QueueServiceBackend } from "../queue-backend.js";
import { AzureTable } from "./azure-table.js";
import type { AzureConnection } from "./connection.js";
import { tableContinuation } from "./continuation.js";
import { errorOfResponse, toTableKitError } from "./errors.js";
import { type AzureExchange, withExchange } from "./exchange.js";
import type { AzureOperationOptions } from "./sdk.js";
import { serverFilter, TABLE_NAME } from "./server-filter.js";

type TableList = { names: string[]; continuation?: string };

/** An Azure storage account's Table service (or Cosmos DB Table API, or Azurite) as a tablekit store. */
export class AzureStore implements BackendStore {
  private readonly tables = new Map<string, AzureTable>();

  constructor(
    private readonly connection: AzureConnection,
    readonly capabilities: Capabilities,
    /** The account's Queue service, when the settings name one (docs/queues.md). */
    readonly queues?: QueueServiceBackend,
  ) {}

  async createTable(name: string, options: CallOptions): Promise<void> {
    // The SDK swallows 409 TableAlreadyExists; the exchange still sees the response.
    await this.serviceCall(options, (o) => this.connection.service.createTable(name, o));
  }

  async deleteTable(name: string, options: CallOptions): Promise<void> {
    // The SDK swallows the 404; the exchange still sees the response. The service (and Azurite)
    // may call it ResourceNotFound: for a table it is TableNotFound.
    try {
      await this.serviceCall(options, (o) => this.connection.service.deleteTable(name, o));
    } catch (err) {
      if (err instanceof TableKitError && err.status === 404 && err.code !== "TableNotFound") {
        throw new TableKitError("TableNotFound", "The table specified does not exist.", {
          cause: err,
          details: { ...err.details, tableName: name },
        });
      }
      throw err;
    }
  }

  async listTables(query: BackendTableQuery, options: CallOptions): Promise<TableList> {
    const filterText = query.filter
      ? serverFilter(query.filter, { emulator: this.connection.emulator, stringProperties: TABLE_NAME })
      : undefined;
    if (filterText === false) return { names: [] };
    const matches = query.filter ? tableNamePredicate(compileFilter(query.filter)) : () => true;
    const continuation = query.continuation === undefined ? undefined : tableContinuation(query.continuation);
    if (this.connection.emulator) {
      return pageOfSorted(
        await this.allTableNames(filterText, options),
        matches,
        query.maxPageSize,
        continuation,
      );
    }
    const page = await this.listPage(filterText, query.maxPageSize, continuation, options);
    return { ...page, names: page.names.filter(matches) };
  }

  table(name: string): BackendTable {
    let table = this.tables.get(name);
    if (!table) {
      table = new AzureTable(name, {
        connection: this.connection,
        limits: this.capabilities.limits,
        ...(this.connection.emulator ? { createdName: (n, o) => this.createdName(n, o) } : {}),
      });
      this.tables.set(name, table);
    }
    return table;
  }

  async close(): Promise<void> {
    this.tables.clear();
  }

  /** Azurite only: the name a table was created under, found case-insensitively. */
  private async createdName(name: string, options: CallOptions): Promise<string | undefined> {
    const lower = name.toLowerCase();
    return (await this.allTableNames(undefined, options)).find((n) => n.toLowerCase() === lower);
  }

  /** Every table name (matching the server filter), across all the server's pages. */
  private async allTableNames(filterText: string | undefined, options: CallOptions): Promise<string[]> {
    const names: string[] = [];
    let continuation: string | undefined;
    do {
      const page = await this.listPage(filterText, 1000, continuation, options);
      names.push(...page.names);
      continuation = page.continuation;
    } while (continuation !== undefined);
    return names;
  }

  private async listPage(
    filterText: string | undefined,
    maxPageSize: number,
    continuationToken: string | undefined,
    options: CallOptions,
  ): Promise<TableList> {
    const page = await this.serviceCall(options, async (o) => {
      const pages = this.connection.service
        .listTables({ ...o, ...(filterText === undefined ? {} : { queryOptions: { filter: filterText } }) })
        .byPage({ maxPageSize, ...(continuationToken ? { continuationToken } : {}) });
      const next = await pages.next();
      return next.done ? undefined : next.value;
    });
    return {
      names: (page ?? []).flatMap((item) => (typeof item.name === "string" ? [item.name] : [])),
      ...(page?.continuationToken ? { continuation: page.continuationToken } : {}),
    };
  }

  /** A service-client call; an error response the SDK swallowed is thrown all the same. */
  private async serviceCall<T>(
    options: CallOptions,
    call: (options: AzureOperationOptions) => Promise<T>,
  ): Promise<T> {
    const exchange: AzureExchange = {};
    let result: T;
    try {
      result = await withExchange(exchange, () =>
        call(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      );
    } catch (err) {
      throw toTableKitError(err, options.abortSignal);
    }
    if (exchange.response && exchange.response.status >= 400) throw errorOfResponse(exchange.response);
    return result;
  }
}

function tableNamePredicate(matches: FilterPredicate): (name: string) => boolean {
  return (name) =>
    matches({
      partitionKey: "",
      rowKey: "",
      properties: new Map([["TableName", { type: "String", value: name }]]),
    });
}

/**
 * One page of table names in case-insensitive order, after `continuation` (the last name of the
 * previous page). Azurite orders table names case-sensitively, so against it the whole list is
 * read and paged here.
 */
function pageOfSorted(
  all: readonly string[],
  matches: (name: string) => boolean,
  maxPageSize: number,
  continuation: string | undefined,
): TableList {
  const after = continuation?.toLowerCase();
  const sorted = all
    .filter((name) => matches(name) && (after === undefined || name.toLowerCase() > after))
    .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
  const names = sorted.slice(0, maxPageSize);
  return sorted.length > maxPageSize ? { names, continuation: names.at(-1)! } : { names };
}
