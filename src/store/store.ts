import { parseFilter } from "../filter/index.js";
import { TableKitError } from "../model/index.js";
import type { AccessPolicy } from "./access/access-policy.js";
import { copyMetadata } from "./access/resource-metadata.js";
import type { ServiceProperties, StorageServiceName } from "./access/service-properties.js";
import type { ResourceMetadata, StateBackend } from "./access/state-backend.js";
import {
  readServiceProperties,
  requireServiceProperties,
  writeServiceProperties,
} from "./access/state-port.js";
import { type AccessTokenOptions, accessOfToken } from "./access/verify-sas.js";
import type { BackendStore } from "./backend.js";
import { BlobBatchClient } from "./blobs/blob-batch-client.js";
import type { BlobCapabilities } from "./blobs/blob-capabilities.js";
import { BlobContainer, type ContainerCreateOptions } from "./blobs/blob-container.js";
import type { SegmentedAsyncIterableIterator } from "./blobs/blob-paging.js";
import {
  type BlobPort,
  blobPort,
  type ContainerItem,
  type ListContainersOptions,
  type ListContainersSegment,
  listContainers,
} from "./blobs/blob-service.js";
import { type FilterBlobItem, type FindBlobsByTagsSegment, findBlobsByTags } from "./blobs/find-by-tags.js";
import { assertOpen, type CallOptions, callOptions, type OperationOptions } from "./call-options.js";
import { type PagedAsyncIterableIterator, pagedIterator, tokenScope } from "./paging.js";
import { Queue } from "./queues/queue.js";
import type { QueueServiceBackend } from "./queues/queue-backend.js";
import type { QueueCapabilities } from "./queues/queue-capabilities.js";
import { validateQueueName } from "./queues/queue-rules.js";
import { type CreateTableOptions, type DeleteTableOptions, Table } from "./tables/table.js";
import type { Capabilities } from "./tables/table-capabilities.js";
import { checkFilterText } from "./tables/table-query-plan.js";
import { validateTableName } from "./tables/table-rules.js";

export interface ListTablesOptions extends OperationOptions {
  /** A `$filter` over `TableName`, e.g. `TableName ge 'a' and TableName lt 'b'`. */
  queryOptions?: { filter?: string };
}

/** `store.stateCapabilities`: which ports keep state, and which keep their service's properties. */
export interface StateCapabilities {
  readonly tables: boolean;
  readonly queues: boolean;
  readonly blobs: boolean;
  readonly serviceProperties: { readonly tables: boolean; readonly queues: boolean; readonly blobs: boolean };
}

export interface ListQueuesOptions extends OperationOptions {
  /** Only queues whose name starts with this text. */
  prefix?: string;
  /** Each item also carries the queue's metadata (one state read per queue). */
  includeMetadata?: boolean;
}

/** A store: the tables and queues of one embedded database, Azure account or DynamoDB region. */
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
        // A blank filter is none, as in listEntities.
        const text = checkFilterText(options?.queryOptions?.filter);
        const parsed =
          text === undefined ? undefined : parseFilter(text, { maxComparisons: limits.maxFilterComparisons });
        // `$filter=false` lists nothing; `$filter=true` lists every table.
        if (parsed?.kind === "constant" && !parsed.value) return { items: [] };
        const filter = parsed?.kind === "constant" ? undefined : parsed;
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

  /** What this store's queue backend can do; undefined when the store has no queue port. */
  get queueCapabilities(): QueueCapabilities | undefined {
    return this.backend.queues?.capabilities;
  }

  /** A handle on a queue (no I/O; the queue need not exist yet). NotSupported without a queue port. */
  queue(name: string): Queue {
    assertOpen(this.lifecycle);
    return new Queue(
      this.queuePort(),
      name,
      this.lifecycle,
      this.access,
      this.backend.deletedNameHoldSeconds ?? 0,
    );
  }

  /** Creates a queue; an existing queue is not an error (as in `@azure/storage-queue`). */
  async createQueue(name: string, options?: OperationOptions): Promise<Queue> {
    const queue = this.queue(name);
    await queue.create(options);
    return queue;
  }

  /** Deletes a queue and its messages; QueueNotFound when it does not exist. */
  async deleteQueue(name: string, options?: OperationOptions): Promise<void> {
    await this.queue(name).delete(options);
  }

  /** Queues in name order, each as `{ name }`; iterate, or `.byPage({ maxPageSize, continuationToken })`. */
  listQueues(
    options?: ListQueuesOptions,
  ): PagedAsyncIterableIterator<{ name: string; metadata?: ResourceMetadata }> {
    const queues = this.queuePort();
    const limits = queues.capabilities.limits;
    return pagedIterator(
      async (maxPageSize, continuation) => {
        const call = callOptions(this.lifecycle, options);
        this.access?.checkQueue("listQueues");
        const prefix = options?.prefix;
        if (prefix !== undefined && typeof prefix !== "string") {
          throw new TableKitError("InvalidInput", "prefix must be a string");
        }
        const page = await queues.listQueues({ prefix, maxPageSize, continuation }, call);
        const items = options?.includeMetadata
          ? await queueItemsWithMetadata(queues, page.names, call)
          : page.names.map((name) => ({ name }));
        return { items, continuation: page.continuation };
      },
      {
        defaultPageSize: limits.maxListPageSize,
        maxPageSize: limits.maxListPageSize,
        tokenScope: tokenScope("queues", "", options?.prefix),
      },
    );
  }

  /** Checks a queue name against this store's rules without touching the store. */
  validateQueueName(name: string): string {
    return validateQueueName(name, this.queuePort().capabilities.limits);
  }

  private queuePort(): QueueServiceBackend {
    this.assertService("q", "queues");
    if (!this.backend.queues) {
      throw new TableKitError(
        "NotSupported",
        `The store ${this.url} has no queue port (opened with queues: "none")`,
      );
    }
    return this.backend.queues;
  }

  // --- Blobs (docs/blobs.md): like @azure/storage-blob's BlobServiceClient ---

  /** What this store's blob backend can do, as data; undefined when the store has no blob port. */
  get blobCapabilities(): BlobCapabilities | undefined {
    return this.backend.blobs?.capabilities;
  }

  /** A handle on a container (no I/O); NotSupported when the store has no blob port. */
  container(name: string): BlobContainer {
    return new BlobContainer(this.blobs(), name);
  }

  /** Deletes or re-tiers up to 256 blobs of any containers, one result each (blob-batch-client.ts). */
  getBlobBatchClient(): BlobBatchClient {
    return new BlobBatchClient((container, blob) => this.container(container).getBlobClient(blob));
  }

  /** Creates a container (ContainerAlreadyExists when it exists) and returns its handle. */
  async createContainer(name: string, options?: ContainerCreateOptions): Promise<BlobContainer> {
    const container = this.container(name);
    await container.create(options);
    return container;
  }

  /** Deletes a container and every blob in it (ContainerNotFound when absent). */
  async deleteContainer(name: string, options?: OperationOptions): Promise<void> {
    await this.container(name).delete(options);
  }

  /** Containers in name order; `byPage()` yields `{ containerItems, continuationToken }`. */
  listContainers(
    options?: ListContainersOptions,
  ): SegmentedAsyncIterableIterator<ContainerItem, ListContainersSegment> {
    return listContainers(this.blobs(), options);
  }

  /**
   * Find Blobs by Tags across every container: `"key" = 'v' AND "n" > '1' AND @container = 'c'`
   * (docs/blobs.md#blob-index-tags); `byPage()` yields `{ where, blobs, continuationToken }`.
   */
  findBlobsByTags(
    expression: string,
    options?: OperationOptions,
  ): SegmentedAsyncIterableIterator<FilterBlobItem, FindBlobsByTagsSegment> {
    return findBlobsByTags(this.blobs(), expression, options);
  }

  private blobs(): BlobPort {
    this.assertService("b", "blobs");
    return blobPort(
      this.backend.blobs,
      this.lifecycle,
      this.url,
      this.access,
      this.backend.deletedNameHoldSeconds ?? 0,
    );
  }

  // --- State kept by the services (docs/architecture.md#state) ---

  /**
   * Which ports keep state: metadata, stored access policies and public access (`tables`, `queues`,
   * `blobs`), and which keep their service's properties (`serviceProperties`).
   */
  get stateCapabilities(): StateCapabilities {
    const { tables, queues, blobs } = this.backend;
    const properties = (state: StateBackend | undefined) => state?.getServiceProperties !== undefined;
    return {
      tables: tables.state !== undefined,
      queues: queues?.state !== undefined,
      blobs: blobs?.state !== undefined,
      serviceProperties: {
        tables: properties(tables.state),
        queues: properties(queues?.state),
        blobs: properties(blobs?.state),
      },
    };
  }

  /** A service's properties (every section, defaults where never set), as the SDKs' `getProperties`. */
  async getServiceProperties(
    service: StorageServiceName,
    options?: OperationOptions,
  ): Promise<ServiceProperties> {
    const call = callOptions(this.lifecycle, options);
    const state = this.stateOf(service);
    this.checkServiceAccess(service, "getServiceProperties");
    return readServiceProperties(state, service, call);
  }

  /**
   * Sets a service's properties: sections present replace the stored ones, absent ones are kept,
   * `cors: []` removes every rule. Checked as the service checks them (InvalidXmlNodeValue).
   */
  async setServiceProperties(
    service: StorageServiceName,
    properties: ServiceProperties,
    options?: OperationOptions,
  ): Promise<void> {
    const call = callOptions(this.lifecycle, options);
    const state = this.stateOf(service);
    this.checkServiceAccess(service, "setServiceProperties");
    await writeServiceProperties(state, service, properties, call);
  }

  private stateOf(service: StorageServiceName) {
    if (service !== "table" && service !== "queue" && service !== "blob") {
      throw new TableKitError(
        "InvalidInput",
        `service must be "table", "queue" or "blob"; got ${JSON.stringify(service)}`,
      );
    }
    const port =
      service === "table"
        ? this.backend.tables
        : service === "queue"
          ? this.queuePort()
          : this.blobs().service;
    return requireServiceProperties(port.state, port.capabilities.backend);
  }

  /** The store's token, asked for a service-level operation of the service it names. */
  private checkServiceAccess(
    service: StorageServiceName,
    operation: "getServiceProperties" | "setServiceProperties",
  ): void {
    if (service === "table") this.access?.check(operation);
    else if (service === "queue") this.access?.checkQueue(operation);
    else this.access?.checkBlob(operation);
  }

  /**
   * A store scoped by a service's token reaches no other service (service SAS and bearer tokens are
   * per service; an account SAS names its services, checked per operation).
   */
  private assertService(letter: "q" | "b", port: "queues" | "blobs"): void {
    const service = this.access?.service;
    if (service !== undefined && service !== letter) {
      const name = service === "t" ? "Table" : service === "q" ? "Queue" : "Blob";
      throw new TableKitError(
        "AuthorizationServiceMismatch",
        `This store is scoped by a ${name} service access token, which does not reach ${port}`,
      );
    }
  }

  /** Releases the store's resources; any later call on it or its tables, queues and containers is InvalidInput. */
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

/** Listed queues with their metadata; a queue deleted since the listing read shows none. */
async function queueItemsWithMetadata(
  queues: QueueServiceBackend,
  names: readonly string[],
  call: CallOptions,
): Promise<{ name: string; metadata: ResourceMetadata }[]> {
  const state = queues.state;
  const items: { name: string; metadata: ResourceMetadata }[] = [];
  for (const name of names) {
    let metadata: ResourceMetadata = {};
    if (state) {
      try {
        metadata = copyMetadata((await state.getState(name, "metadata", call)).metadata);
      } catch (err) {
        if (!(err instanceof TableKitError && err.code === "QueueNotFound")) throw err;
      }
    }
    items.push({ name, metadata });
  }
  return items;
}
