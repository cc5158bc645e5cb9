import type { CallOptions } from "../backend.js";
import type {
  BackendQueueListQuery,
  BackendSendMessage,
  LeasedMessage,
  QueueBackend,
  QueueCapabilities,
  QueueServiceBackend,
  StoredMessage,
} from "../queue-backend.js";
import type { AzureStoreOptions } from "./connection.js";
import { queueCodeFor, toTableKitError } from "./errors.js";
import { openQueueService, type QueueTarget } from "./queue-connection.js";
import type { AzureQueueClient, AzureQueueMessageItem, AzureQueueServiceClient } from "./queue-sdk.js";

/** Names Azurite is asked for in one list request (it has no cap; the service's is 5,000). */
const EMULATOR_LIST_SIZE = 1_000_000;

/**
 * Azure Queue Storage (or Azurite's queue service) through `@azure/storage-queue`, loaded on the
 * first queue call: every raw operation is one SDK call, its failure mapped to the service's code.
 */
export class AzureQueues implements QueueServiceBackend {
  private service?: Promise<AzureQueueServiceClient>;
  private readonly clients = new Map<string, AzureQueueClient>();

  constructor(
    private readonly target: QueueTarget,
    private readonly options: AzureStoreOptions,
    readonly capabilities: QueueCapabilities,
    private readonly emulator: boolean,
  ) {}

  async createQueue(name: string, call: CallOptions): Promise<boolean> {
    const client = await this.client(name);
    return (await sdkCall(call, (o) => client.createIfNotExists(o))).succeeded;
  }

  async deleteQueue(name: string, call: CallOptions): Promise<void> {
    const client = await this.client(name);
    await sdkCall(call, (o) => client.delete(o));
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
    const page = await sdkCall(call, async (o) => {
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

class AzureQueue implements QueueBackend {
  constructor(private readonly client: () => Promise<AzureQueueClient>) {}

  async send(message: BackendSendMessage, call: CallOptions): Promise<LeasedMessage> {
    const client = await this.client();
    const sent = await sdkCall(call, (o) =>
      client.sendMessage(message.text, {
        ...o,
        visibilityTimeout: message.visibilityTimeoutSeconds,
        messageTimeToLive: message.timeToLiveSeconds,
      }),
    );
    return {
      messageId: sent.messageId,
      text: message.text,
      dequeueCount: 0,
      insertedOn: sent.insertedOn,
      expiresOn: sent.expiresOn,
      popReceipt: sent.popReceipt,
      nextVisibleOn: sent.nextVisibleOn,
    };
  }

  async receive(
    count: number,
    visibilityTimeoutSeconds: number,
    call: CallOptions,
  ): Promise<LeasedMessage[]> {
    const client = await this.client();
    const result = await sdkCall(call, (o) =>
      client.receiveMessages({ ...o, numberOfMessages: count, visibilityTimeout: visibilityTimeoutSeconds }),
    );
    return result.receivedMessageItems.map((m) => ({
      ...stored(m),
      popReceipt: m.popReceipt!,
      nextVisibleOn: m.nextVisibleOn!,
    }));
  }

  async peek(count: number, call: CallOptions): Promise<StoredMessage[]> {
    const client = await this.client();
    const result = await sdkCall(call, (o) => client.peekMessages({ ...o, numberOfMessages: count }));
    return result.peekedMessageItems.map(stored);
  }

  async update(
    messageId: string,
    popReceipt: string,
    change: { readonly text?: string; readonly visibilityTimeoutSeconds: number },
    call: CallOptions,
  ): Promise<{ popReceipt: string; nextVisibleOn: Date }> {
    const client = await this.client();
    const result = await sdkCall(call, (o) =>
      client.updateMessage(messageId, popReceipt, change.text, change.visibilityTimeoutSeconds, o),
    );
    return { popReceipt: result.popReceipt!, nextVisibleOn: result.nextVisibleOn! };
  }

  async delete(messageId: string, popReceipt: string, call: CallOptions): Promise<void> {
    const client = await this.client();
    await sdkCall(call, (o) => client.deleteMessage(messageId, popReceipt, o));
  }

  async clear(call: CallOptions): Promise<void> {
    const client = await this.client();
    await sdkCall(call, (o) => client.clearMessages(o));
  }

  async count(call: CallOptions): Promise<number> {
    const client = await this.client();
    return (await sdkCall(call, (o) => client.getProperties(o))).approximateMessagesCount ?? 0;
  }
}

function stored(m: AzureQueueMessageItem): StoredMessage {
  return {
    messageId: m.messageId,
    text: m.messageText,
    dequeueCount: m.dequeueCount,
    insertedOn: m.insertedOn,
    expiresOn: m.expiresOn,
  };
}

/** One SDK call with the caller's signal; its failure as a TableKitError with the service's code. */
async function sdkCall<T>(
  call: CallOptions,
  work: (options: { abortSignal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  try {
    return await work(call.abortSignal ? { abortSignal: call.abortSignal } : {});
  } catch (err) {
    throw toTableKitError(err, call.abortSignal, queueCodeFor);
  }
}
