import { QUEUE_DEFAULTS } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type {
  BackendSendMessage,
  LeasedMessage,
  MessageChange,
  NewLease,
  QueueBackend,
  StoredMessage,
} from "../../queues/queue-backend.js";
import { queueSdkCall } from "./queue-errors.js";
import type { AzureQueueClient, AzureQueueMessageItem } from "./queue-sdk.js";

/** One queue of Azure Queue Storage: each raw operation is one `QueueClient` call. */
export class AzureQueue implements QueueBackend {
  constructor(private readonly client: () => Promise<AzureQueueClient>) {}

  async send(message: BackendSendMessage, call: CallOptions): Promise<LeasedMessage> {
    const client = await this.client();
    const sent = await queueSdkCall(call, (o) =>
      client.sendMessage(message.text, {
        ...o,
        // The service's defaults are left out of the request, as the SDK's caller would.
        ...(message.visibilityTimeoutSeconds === 0
          ? {}
          : { visibilityTimeout: message.visibilityTimeoutSeconds }),
        ...(message.timeToLiveSeconds === QUEUE_DEFAULTS.timeToLiveSeconds
          ? {}
          : { messageTimeToLive: message.timeToLiveSeconds }),
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
    const result = await queueSdkCall(call, (o) =>
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
    const result = await queueSdkCall(call, (o) => client.peekMessages({ ...o, numberOfMessages: count }));
    return result.peekedMessageItems.map(stored);
  }

  async update(
    messageId: string,
    popReceipt: string,
    change: MessageChange,
    call: CallOptions,
  ): Promise<NewLease> {
    const client = await this.client();
    const result = await queueSdkCall(call, (o) =>
      client.updateMessage(messageId, popReceipt, change.text, change.visibilityTimeoutSeconds, o),
    );
    return { popReceipt: result.popReceipt!, nextVisibleOn: result.nextVisibleOn! };
  }

  async delete(messageId: string, popReceipt: string, call: CallOptions): Promise<void> {
    const client = await this.client();
    await queueSdkCall(call, (o) => client.deleteMessage(messageId, popReceipt, o));
  }

  async clear(call: CallOptions): Promise<void> {
    const client = await this.client();
    await queueSdkCall(call, (o) => client.clearMessages(o));
  }

  async count(call: CallOptions): Promise<number> {
    const client = await this.client();
    return (await queueSdkCall(call, (o) => client.getProperties(o))).approximateMessagesCount ?? 0;
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
