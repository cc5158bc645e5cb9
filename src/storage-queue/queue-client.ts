import { requestId, responseDate } from "../data-tables/responses.js";
import { toStorageRestError } from "../data-tables/rest-error.js";
import { registry, type StoreTarget, storeFor } from "../data-tables/store-registry.js";
import { TableKitError } from "../model/errors.js";
import type { ResourceMetadata } from "../store/access/state-backend.js";
import type { SignedIdentifier } from "../store/access/stored-access-policies.js";
import type { OperationOptions } from "../store/call-options.js";
import type {
  PeekedMessageItem,
  Queue,
  QueueCreateOptions,
  QueuePeekMessagesOptions,
  QueueReceiveMessageOptions,
  QueueSendMessageOptions,
  ReceivedMessageItem,
} from "../store/queues/queue.js";
import { QUEUE_SERVICE_VERSION, type QueueResponseHeaders, queueHeaders } from "./responses.js";

export type {
  PeekedMessageItem,
  QueueCreateOptions,
  QueuePeekMessagesOptions,
  QueueReceiveMessageOptions,
  QueueSendMessageOptions,
  ReceivedMessageItem,
  SignedIdentifier,
};

export interface QueueSendMessageResponse extends QueueResponseHeaders {
  messageId: string;
  popReceipt: string;
  insertedOn: Date;
  expiresOn: Date;
  nextVisibleOn: Date;
  errorCode?: string;
}

export interface QueueReceiveMessageResponse extends QueueResponseHeaders {
  receivedMessageItems: ReceivedMessageItem[];
  errorCode?: string;
}

export interface QueuePeekMessagesResponse extends QueueResponseHeaders {
  peekedMessageItems: PeekedMessageItem[];
  errorCode?: string;
}

export interface QueueUpdateMessageResponse extends QueueResponseHeaders {
  popReceipt: string;
  nextVisibleOn: Date;
}

export interface QueueGetPropertiesResponse extends QueueResponseHeaders {
  metadata: ResourceMetadata;
  approximateMessagesCount: number;
}

export interface QueueGetAccessPolicyResponse extends QueueResponseHeaders {
  signedIdentifiers: SignedIdentifier[];
}

/** `createIfNotExists` / `deleteIfExists`: `succeeded` says whether this call did it. */
export interface QueueIfResponse extends QueueResponseHeaders {
  succeeded: boolean;
  errorCode?: string;
}

/**
 * `@azure/storage-queue`'s QueueClient over any tablekit store's queue port (`memory:`, `file:…`,
 * `dynamodb:…` with its table-backed queue, or Azure): the SDK's methods, responses (with the
 * response headers; no `_response`) and RestErrors. docs/data-tables.md#queues.
 */
export class QueueClient {
  readonly name: string;
  readonly url: string;
  readonly accountName: string;
  private cached: Queue | undefined;
  private cachedGeneration = -1;

  /** @internal Made by `QueueServiceClient.getQueueClient` or `fromConnectionString`. */
  constructor(
    private readonly target: StoreTarget,
    name: string,
  ) {
    if (typeof name !== "string" || name === "") {
      throw new TableKitError("InvalidInput", "A queue name is required");
    }
    this.name = name;
    this.url = `${target.endpoint}/${name}`;
    this.accountName = accountOf(target.endpoint);
  }

  /**
   * The port's queue, kept while the shared store stays open: a new one per call would look the
   * store up and check the name again on every message (bench/storage-queue.bench.ts).
   */
  private async queue(): Promise<Queue> {
    if (this.cached !== undefined && this.cachedGeneration === registry.generation) return this.cached;
    const generation = registry.generation;
    const queue = (await storeFor(this.target)).queue(this.name);
    this.cached = queue;
    this.cachedGeneration = generation;
    return queue;
  }

  private fail(err: unknown, method: string, path = ""): unknown {
    return toStorageRestError(err, { url: `${this.url}${path}`, method }, QUEUE_SERVICE_VERSION);
  }

  /** Creates the queue; an existing one with the same metadata is success, other metadata QueueAlreadyExists. */
  async create(options?: QueueCreateOptions): Promise<QueueResponseHeaders> {
    try {
      await (await this.queue()).create(options);
    } catch (err) {
      throw this.fail(err, "PUT");
    }
    return queueHeaders();
  }

  /** As the SDK's: `succeeded: false` (and `errorCode` where the service refused) when the queue exists. */
  async createIfNotExists(options?: QueueCreateOptions): Promise<QueueIfResponse> {
    try {
      const queue = await this.queue();
      if ((await queue.createIfNotExists(options)).succeeded) return { succeeded: true, ...queueHeaders() };
      // Existing: the same metadata is the service's 204 (headers, no error), other metadata its 409.
      await queue.create(options);
      return { succeeded: false, ...queueHeaders() };
    } catch (err) {
      if (err instanceof TableKitError && err.code === "QueueAlreadyExists") {
        return { succeeded: false, errorCode: err.code };
      }
      throw this.fail(err, "PUT");
    }
  }

  async delete(options?: OperationOptions): Promise<QueueResponseHeaders> {
    try {
      await (await this.queue()).delete(options);
    } catch (err) {
      throw this.fail(err, "DELETE");
    }
    return queueHeaders();
  }

  async deleteIfExists(options?: OperationOptions): Promise<QueueIfResponse> {
    try {
      await (await this.queue()).delete(options);
      return { succeeded: true, ...queueHeaders() };
    } catch (err) {
      if (err instanceof TableKitError && err.code === "QueueNotFound") {
        return { succeeded: false, errorCode: err.code };
      }
      throw this.fail(err, "DELETE");
    }
  }

  async exists(options?: OperationOptions): Promise<boolean> {
    try {
      return await (await this.queue()).exists(options);
    } catch (err) {
      throw this.fail(err, "GET", "?comp=metadata");
    }
  }

  async getProperties(options?: OperationOptions): Promise<QueueGetPropertiesResponse> {
    try {
      const { metadata, approximateMessagesCount } = await (await this.queue()).getProperties(options);
      return { ...queueHeaders(), metadata, approximateMessagesCount };
    } catch (err) {
      throw this.fail(err, "GET", "?comp=metadata");
    }
  }

  async setMetadata(metadata?: ResourceMetadata, options?: OperationOptions): Promise<QueueResponseHeaders> {
    try {
      await (await this.queue()).setMetadata(metadata, options);
    } catch (err) {
      throw this.fail(err, "PUT", "?comp=metadata");
    }
    return queueHeaders();
  }

  async getAccessPolicy(options?: OperationOptions): Promise<QueueGetAccessPolicyResponse> {
    try {
      const { signedIdentifiers } = await (await this.queue()).getAccessPolicy(options);
      return { ...queueHeaders(), signedIdentifiers };
    } catch (err) {
      throw this.fail(err, "GET", "?comp=acl");
    }
  }

  async setAccessPolicy(
    queueAcl?: SignedIdentifier[],
    options?: OperationOptions,
  ): Promise<QueueResponseHeaders> {
    try {
      await (await this.queue()).setAccessPolicy(queueAcl, options);
    } catch (err) {
      throw this.fail(err, "PUT", "?comp=acl");
    }
    return queueHeaders();
  }

  async sendMessage(
    messageText: string,
    options?: QueueSendMessageOptions,
  ): Promise<QueueSendMessageResponse> {
    try {
      const sent = await (await this.queue()).sendMessage(messageText, options);
      // Spelt out, not spread: the hottest queue call, and V8 builds a literal of known shape faster.
      return {
        clientRequestId: requestId(),
        requestId: requestId(),
        version: QUEUE_SERVICE_VERSION,
        date: responseDate(),
        messageId: sent.messageId,
        popReceipt: sent.popReceipt,
        insertedOn: sent.insertedOn,
        expiresOn: sent.expiresOn,
        nextVisibleOn: sent.nextVisibleOn,
        errorCode: undefined,
      };
    } catch (err) {
      throw this.fail(err, "POST", "/messages");
    }
  }

  async receiveMessages(options?: QueueReceiveMessageOptions): Promise<QueueReceiveMessageResponse> {
    try {
      const { receivedMessageItems } = await (await this.queue()).receiveMessages(options);
      return { ...queueHeaders(), errorCode: undefined, receivedMessageItems };
    } catch (err) {
      throw this.fail(err, "GET", "/messages");
    }
  }

  async peekMessages(options?: QueuePeekMessagesOptions): Promise<QueuePeekMessagesResponse> {
    try {
      const { peekedMessageItems } = await (await this.queue()).peekMessages(options);
      return { ...queueHeaders(), errorCode: undefined, peekedMessageItems };
    } catch (err) {
      throw this.fail(err, "GET", "/messages?peekonly=true");
    }
  }

  /** Changes a received message's visibility and, when `message` is given, its text; a new pop receipt. */
  async updateMessage(
    messageId: string,
    popReceipt: string,
    message?: string,
    visibilityTimeout?: number,
    options?: OperationOptions,
  ): Promise<QueueUpdateMessageResponse> {
    try {
      const queue = await this.queue();
      const updated = await queue.updateMessage(messageId, popReceipt, message, visibilityTimeout, options);
      return { ...queueHeaders(), popReceipt: updated.popReceipt, nextVisibleOn: updated.nextVisibleOn };
    } catch (err) {
      throw this.fail(err, "PUT", `/messages/${messageId}`);
    }
  }

  async deleteMessage(
    messageId: string,
    popReceipt: string,
    options?: OperationOptions,
  ): Promise<QueueResponseHeaders> {
    try {
      await (await this.queue()).deleteMessage(messageId, popReceipt, options);
    } catch (err) {
      throw this.fail(err, "DELETE", `/messages/${messageId}`);
    }
    return queueHeaders();
  }

  async clearMessages(options?: OperationOptions): Promise<QueueResponseHeaders> {
    try {
      await (await this.queue()).clearMessages(options);
    } catch (err) {
      throw this.fail(err, "DELETE", "/messages");
    }
    return queueHeaders();
  }
}

/** The account an endpoint names: the path's first segment (emulator style) or the host's first label. */
export function accountOf(endpoint: string): string {
  const match = /^https?:\/\/([^/]+)(\/[^/?#]+)?/i.exec(endpoint);
  if (!match) return "";
  const [, host = "", path] = match;
  if (path && /^[\d.]+(:\d+)?$|^localhost(:\d+)?$/i.test(host)) return path.slice(1);
  return host.split(".")[0] ?? "";
}
