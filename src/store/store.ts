import { parseFilter } from "../filter/index.js";
import { validateTableName } from "../model/index.js";
import type { AccessPolicy } from "./access-policy.js";
import type { BackendStore } from "./backend.js";
import { assertOpen, callOptions, type OperationOptions } from "./call-options.js";
import type { Capabilities } from "./capabilities.js";
import { type PagedAsyncIterableIterator, pagedIterator, tokenScope } from "./paging.js";
import { type CreateTableOptions, type DeleteTableOptions, Table } from "./table.js";
import { type AccessTokenOptions, accessOfToken } from "./verify-sas.js";

export interface ListTablesOptions extends OperationOptions {
  /** A `$filter` over `TableName`, e.g. `TableName ge 'a' and TableName lt 'b'`. */
  queryOptions?: { filter?: string };
}

/** A table store: the tables of one embedded database, Azure account or DynamoDB region. */
export class Store {
  private readonly lifecycle: { closed: boolean };

  constructor(
    private readonly backend: BackendStore,
    /** The URL the store was opened with, credentials removed. */
    readonly url: string,
    /** What a verified access token allows; absent means everything (docs/patterns/scoped-access.md). */
    readonly access?: AccessPolicy,
    /** A view made by `scoped()` shares its parent's lifecycle and leaves closing to the parent. */
    private readonly parentLifecycle?: { closed: boolean },
  ) {
    this.lifecycle = parentLifecycle ?? { closed: false };
  }

  /**
   * A view of this store that can do only what a shared access signature allows, verified against
   * `options.account` (default: the development account). The same tokens work against Azure,
   * Azurite and `tablekit serve` (docs/patterns/scoped-access.md).
   */
  withAccessToken(token: string, options?: AccessTokenOptions): Store {
    return this.scoped(accessOfToken(token, options));
  }

  /**
   * A view of this store that can do only what `access` allows (no I/O, nothing copied): the
   * server makes one per request from the request's token. Closing the view closes nothing.
   */
  scoped(access: AccessPolicy): Store {
    assertOpen(this.lifecycle);
    return new Store(this.backend, this.url, access, this.lifecycle);
  }

  /** What this store's table backend can do, as data. */
  get capabilities(): Capabilities {
    return this.backend.tables.capabilities;
  }

  /** A handle on a table (no I/O; the table need not exist yet). */
  table(name: string): Table {
    assertOpen(this.lifecycle);
    return new Table(this.backend.tables, name, this.lifecycle, this.access);
  }

  /** Creates a table; an existing one is success (as `TableServiceClient.createTable`) unless `failIfExists`. */
  async createTable(name: string, options?: CreateTableOptions): Promise<void> {
    await this.table(name).createTable(options);
  }

  /** Deletes a table; a missing one is success (as `TableServiceClient.deleteTable`) unless `failIfMissing`. */
  async deleteTable(name: string, options?: DeleteTableOptions): Promise<void> {
    await this.table(name).deleteTable(options);
  }

  /** Tables in case-insensitive name order, each as `{ name }` with the case it was created with. */
  listTables(options?: ListTablesOptions): PagedAsyncIterableIterator<{ name: string }> {
    const tables = this.backend.tables;
    const limits = tables.capabilities.limits;
    return pagedIterator(
      async (maxPageSize, continuation) => {
        const call = callOptions(this.lifecycle, options);
        this.access?.check("listTables");
        const text = options?.queryOptions?.filter;
        // A blank filter is none, as in listEntities.
        const filter =
          text === undefined || text.trim() === ""
            ? undefined
            : parseFilter(text, { maxComparisons: limits.maxFilterComparisons });
        const page = await tables.listTables({ filter, maxPageSize, continuation }, call);
        return { items: page.names.map((name) => ({ name })), continuation: page.continuation };
      },
      {
        defaultPageSize: limits.maxPageSize,
        maxPageSize: limits.maxPageSize,
        tokenScope: tokenScope("tables", "", options?.queryOptions?.filter),
      },
    );
  }

  /** Releases the store's resources; any later call on it or its tables is InvalidInput. */
  async close(): Promise<void> {
    if (this.parentLifecycle || this.lifecycle.closed) return;
    this.lifecycle.closed = true;
    await this.backend.close();
  }

  /** Checks a table name against this store's rules without touching the store. */
  validateTableName(name: string): string {
    return validateTableName(name, this.capabilities.limits);
  }
}
