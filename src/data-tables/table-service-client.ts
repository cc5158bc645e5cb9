import type { Store } from "../store/store.js";
import type { NamedKeyCredential, SASCredential } from "./credentials.js";
import type {
  ListTableItemsOptions,
  OperationOptions,
  PagedAsyncIterableIterator,
  TableItem,
  TableItemResultPage,
  TableServiceClientOptions,
} from "./models.js";
import { operationHeaders } from "./responses.js";
import { toRestError } from "./rest-error.js";
import { sdkPagedIterator } from "./sdk-paging.js";
import {
  type ServiceProperties,
  sdkServiceProperties,
  storeServiceProperties,
  type TableServiceStats,
} from "./service-state.js";
import { type StoreTarget, storeFor, urlTarget } from "./store-registry.js";
import { isCredential } from "./table-client.js";

/**
 * `@azure/data-tables`' TableServiceClient over any tablekit store (or Azure): create, delete and
 * list tables. Clients made from the same URL share one store with the TableClients made from it.
 */
export class TableServiceClient {
  readonly url: string;
  private readonly target: StoreTarget;

  constructor(
    url: string,
    credential?: NamedKeyCredential | SASCredential | object,
    options?: TableServiceClientOptions,
  );
  constructor(url: string, options?: TableServiceClientOptions);
  constructor(url: string, credentialOrOptions?: object, _options?: TableServiceClientOptions) {
    this.target = urlTarget(url, isCredential(credentialOrOptions) ? credentialOrOptions : undefined);
    this.url = this.target.endpoint;
  }

  /** A client from an Azure connection string, or from any tablekit store URL. */
  static fromConnectionString(
    connectionString: string,
    _options?: TableServiceClientOptions,
  ): TableServiceClient {
    return new TableServiceClient(connectionString);
  }

  private store(): Promise<Store> {
    return storeFor(this.target);
  }

  /** Creates a table; an existing one is success, as the SDK's. */
  async createTable(name: string, options?: OperationOptions): Promise<void> {
    try {
      await (await this.store()).createTable(name, signal(options));
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/Tables`, method: "POST" });
    }
  }

  /** Deletes a table and its entities; a missing one is success, as the SDK's. */
  async deleteTable(name: string, options?: OperationOptions): Promise<void> {
    try {
      await (await this.store()).deleteTable(name, signal(options));
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/Tables('${name}')`, method: "DELETE" });
    }
  }

  /**
   * The Table service's properties (analytics logging, hour and minute metrics, CORS), as the SDK's
   * `getProperties`; defaults where never set. NotSupported where the store keeps no service
   * properties (`store.stateCapabilities.serviceProperties.tables`, false on DynamoDB).
   */
  async getProperties(
    options?: OperationOptions,
  ): Promise<ServiceProperties & { clientRequestId?: string; requestId?: string; version?: string }> {
    try {
      const properties = await (await this.store()).getServiceProperties("table", signal(options));
      return { ...operationHeaders(false), ...sdkServiceProperties(properties) };
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/?restype=service&comp=properties`, method: "GET" });
    }
  }

  /** Sets the Table service's properties: sections given replace the stored ones, absent ones are kept. */
  async setProperties(
    properties: ServiceProperties,
    options?: OperationOptions,
  ): Promise<{ clientRequestId?: string; requestId?: string; version?: string; body?: undefined }> {
    try {
      await (await this.store()).setServiceProperties(
        "table",
        storeServiceProperties(properties),
        signal(options),
      );
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/?restype=service&comp=properties`, method: "PUT" });
    }
    return { ...operationHeaders(false), body: undefined };
  }

  /**
   * Replication statistics as the service's secondary answers them (the SDK asks the secondary
   * endpoint): a store is its own replica, so `live`, synchronised as of now (to the second).
   */
  async getStatistics(
    options?: OperationOptions,
  ): Promise<
    TableServiceStats & { clientRequestId?: string; requestId?: string; version?: string; date?: Date }
  > {
    try {
      options?.abortSignal?.throwIfAborted();
      await this.store(); // a store that cannot open answers as the service would not
    } catch (err) {
      throw toRestError(err, { url: `${this.url}/?restype=service&comp=stats`, method: "GET" });
    }
    const headers = operationHeaders(true);
    return { ...headers, geoReplication: { status: "live", lastSyncTime: headers.date! } };
  }

  /** Tables as `{ name }`, optionally filtered over `TableName`; iterate, or `.byPage()`. */
  listTables(options?: ListTableItemsOptions): PagedAsyncIterableIterator<TableItem, TableItemResultPage> {
    const filter = options?.queryOptions?.filter;
    return sdkPagedIterator(
      async () =>
        (await this.store()).listTables({
          ...signal(options),
          ...(filter !== undefined ? { queryOptions: { filter } } : {}),
        }),
      (item: { name: string }): TableItem => ({ name: item.name }),
      (err) => toRestError(err, { url: `${this.url}/Tables`, method: "GET" }),
    );
  }
}

function signal(options: OperationOptions | undefined): { abortSignal?: AbortSignal } {
  return options?.abortSignal ? { abortSignal: options.abortSignal } : {};
}
