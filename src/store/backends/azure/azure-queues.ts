import type { InitialResourceState } from "../../access/state-backend.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendQueueListQuery, QueueBackend, QueueServiceBackend } from "../../queues/queue-backend.js";
import type { QueueCapabilities } from "../../queues/queue-capabilities.js";
import { AzureQueue } from "./azure-queue.js";
import type { AzureStoreOptions } from "./connection.js";
import { toTableKitError } from "./errors.js";
import { openQueueService, type QueueTarget } from "./queue-connection.js";
import { queueSdkCall } from "./queue-errors.js";
import type { AzureQueueClient, AzureQueueServiceClient } from "./queue-sdk.js";
import { AzureQueueState } from "./queue-state.js";

/** Names Azurite is asked for in one list request (it has no cap; the service's is 5,000). */
const EMULATOR_LIST_SIZE = 1_000_000;

/**
 * Azure Queue Storage (or Azurite's queue service) through `@azure/storage-queue`, loaded on the
 * first queue call: every raw operation is one SDK call, its failure mapped to the service's code.
 */
export class AzureQueues implements QueueServiceBackend {
  private service?: Promise<AzureQueueServiceClient>;
  private readonly clients = new Map<string, AzureQueueClient>();
  readonly state: AzureQueueState;

  constructor(
    private readonly target: QueueTarget,
    private readonly options: AzureStoreOptions,
    readonly capabilities: QueueCapabilities,
    private readonly emulator: boolean,
  ) {
    this.state = new AzureQueueState(
      () => this.serviceClient(),
      (name) => this.client(name),
    );
  }

  async createQueue(name: string, call: CallOptions, initial?: InitialResourceState): Promise<boolean> {
    const client = await this.client(name);
    const metadata = initial?.metadata;
    return (await queueSdkCall(call, (o) => client.createIfNotExists(metadata ? { ...o, metadata } : o)))
      .succeeded;
  }

  async deleteQueue(name: string, call: CallOptions): Promise<void> {
    const client = await this.client(name);
    await queueSdkCall(call, (o) => client.delete(o));
  }

  async listQueues(
    query: BackendQueueListQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    if (this.emulator) return this.listFromWholeList(query, call);
    return this.listPage(query.prefix, query.maxPageSize, query.continuation, call);
  }

  private async listPage(
    prefix: string | undefined,
    maxPageSize: number,
    continuation: string | undefined,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    const service = await this.serviceClient();
    const page = await queueSdkCall(call, async (o) => {
      const pages = service
        .listQueues({ ...o, ...(prefix ? { prefix } : {}) })
        .byPage({ maxPageSize, ...(continuation ? { continuationToken: continuation } : {}) });
      return (await pages.next()).value;
    });
    const names = (page?.queueItems ?? []).map((q: { name: string }) => q.name);
    return page?.continuationToken ? { names, continuation: page.continuationToken } : { names };
  }

  /**
   * Azurite's list markers are creation ids while its pages are sorted by name (divergence
   * `queue-list-paging`): read every name in one request, and page by name here.
   */
  private async listFromWholeList(
    query: BackendQueueListQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    const all = await this.listPage(query.prefix, EMULATOR_LIST_SIZE, undefined, call);
    const after = query.continuation ?? "";
    const rest = all.names.filter((name) => name > after).sort();
    const names = rest.slice(0, query.maxPageSize);
    return rest.length > query.maxPageSize ? { names, continuation: names.at(-1)! } : { names };
  }

  queue(name: string): QueueBackend {
    return new AzureQueue(() => this.client(name));
  }

  private serviceClient(): Promise<AzureQueueServiceClient> {
    this.service ??= openQueueService(this.target, this.options).catch((err) => {
      this.service = undefined;
      throw toTableKitError(err);
    });
    return this.service;
  }

  private async client(name: string): Promise<AzureQueueClient> {
    let client = this.clients.get(name);
    if (!client) {
      client = (await this.serviceClient()).getQueueClient(name);
      this.clients.set(name, client);
    }
    return client;
  }
}
