import { TableKitError } from "../../../model/index.js";
import type { SdkSignedIdentifier } from "./state-codec.js";

/**
 * The slice of `@azure/storage-queue` the azure queue backend uses, declared structurally: the SDK
 * is an optional peer dependency, loaded by `loadQueueSdk()` on the first queue call of an `azure:` store.
 */
export interface AzureQueueCallOptions {
  abortSignal?: AbortSignal;
}

export interface AzureQueueMessageItem {
  messageId: string;
  messageText: string;
  dequeueCount: number;
  insertedOn: Date;
  expiresOn: Date;
  popReceipt?: string;
  nextVisibleOn?: Date;
}

export interface AzureQueueClient {
  createIfNotExists(
    options?: AzureQueueCallOptions & { metadata?: Record<string, string> },
  ): Promise<{ succeeded: boolean }>;
  setMetadata(metadata: Record<string, string>, options?: AzureQueueCallOptions): Promise<unknown>;
  getAccessPolicy(options?: AzureQueueCallOptions): Promise<{ signedIdentifiers?: SdkSignedIdentifier[] }>;
  setAccessPolicy(identifiers: SdkSignedIdentifier[], options?: AzureQueueCallOptions): Promise<unknown>;
  delete(options?: AzureQueueCallOptions): Promise<unknown>;
  getProperties(options?: AzureQueueCallOptions): Promise<{ approximateMessagesCount?: number }>;
  sendMessage(
    text: string,
    options?: AzureQueueCallOptions & { visibilityTimeout?: number; messageTimeToLive?: number },
  ): Promise<{
    messageId: string;
    popReceipt: string;
    insertedOn: Date;
    expiresOn: Date;
    nextVisibleOn: Date;
  }>;
  receiveMessages(
    options?: AzureQueueCallOptions & { numberOfMessages?: number; visibilityTimeout?: number },
  ): Promise<{ receivedMessageItems: AzureQueueMessageItem[] }>;
  peekMessages(
    options?: AzureQueueCallOptions & { numberOfMessages?: number },
  ): Promise<{ peekedMessageItems: AzureQueueMessageItem[] }>;
  updateMessage(
    messageId: string,
    popReceipt: string,
    message: string | undefined,
    visibilityTimeout: number,
    options?: AzureQueueCallOptions,
  ): Promise<{ popReceipt?: string; nextVisibleOn?: Date }>;
  deleteMessage(messageId: string, popReceipt: string, options?: AzureQueueCallOptions): Promise<unknown>;
  clearMessages(options?: AzureQueueCallOptions): Promise<unknown>;
}

export interface AzureQueueServiceClient {
  readonly url: string;
  getQueueClient(name: string): AzureQueueClient;
  getProperties(options?: AzureQueueCallOptions): Promise<object>;
  setProperties(properties: object, options?: AzureQueueCallOptions): Promise<unknown>;
  listQueues(options?: AzureQueueCallOptions & { prefix?: string; includeMetadata?: boolean }): {
    byPage(settings?: { maxPageSize?: number; continuationToken?: string }): AsyncIterableIterator<{
      queueItems?: { name: string; metadata?: Record<string, string> }[];
      continuationToken?: string;
    }>;
  };
}

export interface AzureQueueSdk {
  readonly QueueServiceClient: {
    new (url: string, credential?: object, options?: object): AzureQueueServiceClient;
    fromConnectionString(connectionString: string, options?: object): AzureQueueServiceClient;
  };
  readonly StorageSharedKeyCredential: new (accountName: string, accountKey: string) => object;
}

/** Loads `@azure/storage-queue`; NotSupported (with what to install) when it is missing. */
export async function loadQueueSdk(
  load: () => Promise<unknown> = () => import("@azure/storage-queue"),
): Promise<AzureQueueSdk> {
  try {
    return (await load()) as AzureQueueSdk;
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new TableKitError(
        "NotSupported",
        "Queues of an azure: store need the optional peer dependency @azure/storage-queue: run `npm install @azure/storage-queue`",
        { cause },
      );
    }
    throw cause;
  }
}
