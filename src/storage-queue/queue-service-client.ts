import { toStorageRestError } from "../data-tables/rest-error.js";
import { connectionStringTarget, type StoreTarget, storeFor } from "../data-tables/store-registry.js";
import { TableKitError } from "../model/errors.js";
import type { OperationOptions } from "../store/call-options.js";
import type { Store } from "../store/store.js";
import { accountOf, QueueClient } from "./queue-client.js";
import {
  QUEUE_SERVICE_VERSION,
  type QueueResponseHeaders,
  type QueueServiceProperties,
  queueHeaders,
  sdkQueueProperties,
  storeQueueProperties,
} from "./responses.js";

export interface QueueItem {
  name: string;
  metadata?: Record<string, string>;
}

export interface ServiceListQueuesOptions extends OperationOptions {
  prefix?: string;
  includeMetadata?: boolean;
}

/** One page of `listQueues().byPage()`, as the SDK's `ServiceListQueuesSegmentResponse`. */
export interface ServiceListQueuesSegmentResponse extends QueueResponseHeaders {
  serviceEndpoint: string;
  prefix?: string;
  marker?: string;
  maxPageSize?: number;
  queueItems?: QueueItem[];
  /** The next page's token; `""` on the last page, as the service's empty NextMarker. */
  continuationToken: string;
}

export interface QueuePagedIterator extends AsyncIterableIterator<QueueItem> {
  byPage(settings?: {
    continuationToken?: string;
    maxPageSize?: number;
  }): AsyncIterableIterator<ServiceListQueuesSegmentResponse>;
}

/**
 * `@azure/storage-queue`'s QueueServiceClient over any tablekit store's queue port. Clients made
 * from the same connection string (or store URL) share one store, with the data-tables clients too.
 */
export class QueueServiceClient {
  readonly url: string;
  readonly accountName: string;
  private readonly target: StoreTarget;

  /** A tablekit store URL (`memory:`, `file:…`, `dynamodb:…`); Azure accounts through `fromConnectionString`. */
  constructor(url: string, _credential?: object, _options?: object) {
    if (typeof url === "string" && /^https?:\/\//i.test(url)) {
      throw new TableKitError(
        "InvalidStoreUrl",
        "tablekit/storage-queue reaches Azure through QueueServiceClient.fromConnectionString(connectionString)",
      );
    }
    this.target = connectionStringTarget(url, "queue");
    this.url = this.target.endpoint;
    this.accountName = accountOf(this.url);
  }

  /** A client from an Azure connection string, or from any tablekit store URL. */
  static fromConnectionString(connectionString: string, _options?: object): QueueServiceClient {
    // A connection string is never an http(s) URL: the constructor takes it as it takes a store URL.
    return new QueueServiceClient(connectionString);
  }

  private store(): Promise<Store> {
    return storeFor(this.target);
  }

  private fail(err: unknown, method: string, path: string): unknown {
    return toStorageRestError(err, { url: `${this.url}${path}`, method }, QUEUE_SERVICE_VERSION);
  }

  getQueueClient(queueName: string): QueueClient {
    return new QueueClient(this.target, queueName);
  }

  /** Creates a queue (the SDK's answer: headers, not a client). */
  async createQueue(queueName: string, options?: OperationOptions & { metadata?: Record<string, string> }) {
    return this.getQueueClient(queueName).create(options);
  }

  async deleteQueue(queueName: string, options?: OperationOptions): Promise<QueueResponseHeaders> {
    return this.getQueueClient(queueName).delete(options);
  }

  /** Queues in name order; iterate, or `.byPage({ maxPageSize, continuationToken })`. */
  listQueues(options?: ServiceListQueuesOptions): QueuePagedIterator {
    const pages = (settings?: { continuationToken?: string; maxPageSize?: number }) =>
      this.pages(options, settings);
    async function* items(): AsyncGenerator<QueueItem> {
      for await (const page of pages()) yield* page.queueItems ?? [];
    }
    const iterator = items() as AsyncGenerator<QueueItem> & QueuePagedIterator;
    iterator.byPage = pages;
    return iterator;
  }

  private async *pages(
    options: ServiceListQueuesOptions | undefined,
    settings: { continuationToken?: string; maxPageSize?: number } | undefined,
  ): AsyncGenerator<ServiceListQueuesSegmentResponse> {
    let source: AsyncIterableIterator<
      { name: string; metadata?: Record<string, string> }[] & { continuationToken?: string }
    >;
    try {
      const store = await this.store();
      source = store.listQueues(options).byPage({
        ...(settings?.maxPageSize !== undefined ? { maxPageSize: settings.maxPageSize } : {}),
        ...(settings?.continuationToken ? { continuationToken: settings.continuationToken } : {}),
      });
    } catch (err) {
      throw this.fail(err, "GET", "?comp=list");
    }
    let marker = settings?.continuationToken;
    for (;;) {
      let page: IteratorResult<
        { name: string; metadata?: Record<string, string> }[] & { continuationToken?: string }
      >;
      try {
        page = await source.next();
      } catch (err) {
        throw this.fail(err, "GET", "?comp=list");
      }
      if (page.done) return;
      const queueItems = page.value.map((q): QueueItem => {
        const metadata = q.metadata && Object.keys(q.metadata).length > 0 ? { ...q.metadata } : undefined;
        return metadata ? { name: q.name, metadata } : { name: q.name };
      });
      const continuationToken = page.value.continuationToken ?? "";
      yield {
        ...queueHeaders(),
        serviceEndpoint: `${this.url}/`,
        prefix: options?.prefix,
        marker,
        maxPageSize: settings?.maxPageSize,
        queueItems,
        continuationToken,
      };
      if (!continuationToken) return;
      marker = continuationToken;
    }
  }

  /** The Queue service's properties (analytics logging, metrics, CORS); defaults where never set. */
  async getProperties(options?: OperationOptions): Promise<QueueServiceProperties & QueueResponseHeaders> {
    try {
      const properties = await (await this.store()).getServiceProperties("queue", options);
      return { ...queueHeaders(), ...sdkQueueProperties(properties) };
    } catch (err) {
      throw this.fail(err, "GET", "/?restype=service&comp=properties");
    }
  }

  /** Sets the Queue service's properties: sections given replace the stored ones, absent ones are kept. */
  async setProperties(
    properties: QueueServiceProperties,
    options?: OperationOptions,
  ): Promise<QueueResponseHeaders> {
    try {
      await (await this.store()).setServiceProperties("queue", storeQueueProperties(properties), options);
    } catch (err) {
      throw this.fail(err, "PUT", "/?restype=service&comp=properties");
    }
    return queueHeaders();
  }
}
