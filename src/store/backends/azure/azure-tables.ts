import { compileFilter, type FilterPredicate } from "../../../filter/index.js";
import { TableKitError, tableNotFound } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendTableQuery, TableBackend, TableServiceBackend } from "../../tables/table-backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import { AzureTable } from "./azure-table.js";
import type { AzureConnection } from "./connection.js";
import { tableContinuation } from "./table-continuation.js";
import { serverFilter, TABLE_NAME } from "./table-filter-translator.js";
import { createTableRequest, deleteTableRequest, listTablesRequest } from "./table-requests.js";
import { AzureTableState } from "./table-state.js";

type TableList = { names: string[]; continuation?: string };

/** The Table service of an Azure storage account (or Cosmos DB Table API, or Azurite). */
export class AzureTables implements TableServiceBackend {
  private readonly tables = new Map<string, AzureTable>();
  readonly state: AzureTableState;

  constructor(
    private readonly connection: AzureConnection,
    readonly capabilities: Capabilities,
  ) {
    this.state = new AzureTableState(connection);
  }

  async createTable(name: string, call: CallOptions): Promise<void> {
    await this.connection.send(createTableRequest(name), call);
  }

  async deleteTable(name: string, call: CallOptions): Promise<void> {
    try {
      await this.connection.send(deleteTableRequest(name), call);
    } catch (err) {
      // The service (and Azurite) may call it ResourceNotFound: for a table it is TableNotFound.
      if (err instanceof TableKitError && err.status === 404 && err.code !== "TableNotFound") {
        throw tableNotFound(name, { cause: err, details: err.details });
      }
      throw err;
    }
  }

  async listTables(query: BackendTableQuery, call: CallOptions): Promise<TableList> {
    const filterText = query.filter
      ? serverFilter(query.filter, { emulator: this.connection.emulator, stringProperties: TABLE_NAME })
      : undefined;
    if (filterText === false) return { names: [] };
    const matches = query.filter ? tableNamePredicate(compileFilter(query.filter)) : () => true;
    const continuation = query.continuation === undefined ? undefined : tableContinuation(query.continuation);
    if (this.connection.emulator) {
      return pageOfSorted(
        await this.allTableNames(filterText, call),
        matches,
        query.maxPageSize,
        continuation,
      );
    }
    const page = await this.listPage(filterText, query.maxPageSize, continuation, call);
    return { ...page, names: page.names.filter(matches) };
  }

  table(name: string): TableBackend {
    let table = this.tables.get(name);
    if (!table) {
      table = new AzureTable(name, {
        connection: this.connection,
        limits: this.capabilities.limits,
        ...(this.connection.emulator ? { createdName: (n, c) => this.createdName(n, c) } : {}),
      });
      this.tables.set(name, table);
    }
    return table;
  }

  /** Azurite only: the name a table was created under, found case-insensitively. */
  private async createdName(name: string, call: CallOptions): Promise<string | undefined> {
    const lower = name.toLowerCase();
    return (await this.allTableNames(undefined, call)).find((n) => n.toLowerCase() === lower);
  }

  /** Every table name (matching the server filter), across all the server's pages. */
  private async allTableNames(filterText: string | undefined, call: CallOptions): Promise<string[]> {
    const names: string[] = [];
    let continuation: string | undefined;
    do {
      const page = await this.listPage(filterText, 1000, continuation, call);
      names.push(...page.names);
      continuation = page.continuation;
    } while (continuation !== undefined);
    return names;
  }

  private async listPage(
    filter: string | undefined,
    top: number,
    nextTableName: string | undefined,
    call: CallOptions,
  ): Promise<TableList> {
    const request = listTablesRequest({
      top,
      ...(filter === undefined ? {} : { filter }),
      ...(nextTableName === undefined ? {} : { nextTableName }),
    });
    const response = await this.connection.send(request, call);
    const value = (JSON.parse(response.body || "{}") as { value?: { TableName?: unknown }[] }).value ?? [];
    const next = response.headers.get("x-ms-continuation-NextTableName");
    return {
      names: value.flatMap((item) => (typeof item.TableName === "string" ? [item.TableName] : [])),
      ...(next ? { continuation: next } : {}),
    };
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
