import { QUEUE_DEFAULTS, type QueueLimits, TableKitError } from "../../model/index.js";
import type { AccessPolicy } from "../access/access-policy.js";
import { refuseHeldName } from "../access/deleted-name-hold.js";
import { checkResourceMetadata, copyMetadata, sameMetadata } from "../access/resource-metadata.js";
import type { ResourceMetadata } from "../access/state-backend.js";
import { requireState } from "../access/state-port.js";
import type { QueueOperation } from "../access/storage-operations.js";
import { datedIdentifiers, datedPolicies, type SignedIdentifier } from "../access/stored-access-policies.js";
import type { CallOptions } from "../call-options.js";
import { callOptions, type OperationOptions, type StoreLifecycle } from "../call-options.js";
import type { LeasedMessage, QueueBackend, QueueServiceBackend, StoredMessage } from "./queue-backend.js";
import {
  checkInteger,
  checkTimeToLive,
  checkToken,
  validateMessageText,
  validateQueueName,
} from "./queue-rules.js";

export interface QueueSendMessageOptions extends OperationOptions {
  /** Seconds before the message becomes visible (0..7 days; default 0). Must be less than the TTL. */
  visibilityTimeout?: number;
  /** Seconds the message lives (default 7 days; -1 = never expires). */
  messageTimeToLive?: number;
}

export interface QueueReceiveMessageOptions extends OperationOptions {
  /** Messages to take, 1..32 (default 1). */
  numberOfMessages?: number;
  /** Seconds the messages stay invisible to other receivers (1 s..7 days; default 30). */
  visibilityTimeout?: number;
}

export interface QueuePeekMessagesOptions extends OperationOptions {
  /** Messages to look at, 1..32 (default 1). */
  numberOfMessages?: number;
}

/** `sendMessage`'s result, as `@azure/storage-queue` names it. */
export interface QueueSendMessageResponse {
  messageId: string;
  popReceipt: string;
  insertedOn: Date;
  expiresOn: Date;
  nextVisibleOn: Date;
}

export interface PeekedMessageItem {
  messageId: string;
  messageText: string;
  dequeueCount: number;
  insertedOn: Date;
  expiresOn: Date;
}

export interface ReceivedMessageItem extends PeekedMessageItem {
  popReceipt: string;
  nextVisibleOn: Date;
}

export interface QueueReceiveMessageResponse {
  receivedMessageItems: ReceivedMessageItem[];
}

export interface QueuePeekMessagesResponse {
  peekedMessageItems: PeekedMessageItem[];
}

export interface QueueUpdateMessageResponse {
  popReceipt: string;
  nextVisibleOn: Date;
}

export interface QueueGetPropertiesResponse {
  /** Messages in the queue; the service counts expired messages it has not yet removed. */
  approximateMessagesCount: number;
  /** The queue's metadata, names in the case they were set with (`{}` on a backend that keeps none). */
  metadata: ResourceMetadata;
}

export interface QueueCreateOptions extends OperationOptions {
  /** Name/value pairs kept with the queue (names: C# identifiers, kept in case, compared ignoring it). */
  metadata?: ResourceMetadata;
}

/** `getAccessPolicy`'s result, as `@azure/storage-queue` names it. */
export interface QueueGetAccessPolicyResponse {
  signedIdentifiers: SignedIdentifier[];
}

/** `createIfNotExists` / `deleteIfExists`: whether this call created / deleted the queue. */
export interface QueueIfResponse {
  succeeded: boolean;
}

/**
 * One queue, with `@azure/storage-queue`'s QueueClient method names and shapes. Validates every
 * argument against the backend's limits, applies the SDK's defaults, then calls one backend method.
 * Delivery is at-least-once: a message whose visibility timeout ends before it is deleted is
 * delivered again (docs/queues.md shows the idempotent consumer).
 */
export class Queue {
  private readonly backendQueue: QueueBackend;
  private nameChecked = false;

  constructor(
    private readonly service: QueueServiceBackend,
    readonly name: string,
    private readonly lifecycle: StoreLifecycle,
    /** What the store's access token allows; absent means everything. */
    private readonly access?: AccessPolicy,
    /** Seconds a deleted queue's name is refused (the store option `deletedNameHold`). */
    private readonly deletedNameHoldSeconds = 0,
  ) {
    this.backendQueue = service.queue(name);
  }

  private get limits(): QueueLimits {
    return this.service.capabilities.limits;
  }

  /**
   * The backend's call options; throws InvalidInput (closed), Aborted, the token's 403 when it does
   * not allow `operation`, or InvalidResourceName first.
   */
  private begin(options: OperationOptions | undefined, operation: QueueOperation): CallOptions {
    const call = callOptions(this.lifecycle, options);
    this.access?.checkQueue(operation, this.name);
    if (!this.nameChecked) {
      validateQueueName(this.name, this.limits);
      this.nameChecked = true;
    }
    return call;
  }

  /**
   * Creates the queue. An existing queue is not an error when its metadata is the same (the service
   * answers 204); with other metadata it is QueueAlreadyExists, as the service answers.
   */
  async create(options?: QueueCreateOptions): Promise<void> {
    await this.createQueue(options);
  }

  /** As the SDK's: `{ succeeded: false }` for any existing queue, whatever its metadata. */
  async createIfNotExists(options?: QueueCreateOptions): Promise<QueueIfResponse> {
    try {
      return { succeeded: await this.createQueue(options) };
    } catch (err) {
      if (err instanceof TableKitError && err.code === "QueueAlreadyExists") return { succeeded: false };
      throw err;
    }
  }

  private async createQueue(options: QueueCreateOptions | undefined): Promise<boolean> {
    const call = this.begin(options, "createQueue");
    const metadata = checkResourceMetadata(options?.metadata);
    const hasMetadata = Object.keys(metadata).length > 0;
    const state = hasMetadata ? this.state("queue metadata") : this.service.state;
    await refuseHeldName(
      this.service.state,
      this.name,
      this.deletedNameHoldSeconds,
      "QueueBeingDeleted",
      call,
    );
    const created = await this.service.createQueue(this.name, call, hasMetadata ? { metadata } : undefined);
    if (
      !created &&
      state &&
      !sameMetadata(metadata, (await state.getState(this.name, "metadata", call)).metadata)
    ) {
      throw new TableKitError(
        "QueueAlreadyExists",
        "The specified queue already exists with other metadata.",
        {
          details: { queueName: this.name },
        },
      );
    }
    return created;
  }

  private state(what: string) {
    return requireState(this.service.state, this.service.capabilities.backend, what);
  }

  /** Replaces the queue's metadata (`{}` or none removes it); QueueNotFound when it does not exist. */
  async setMetadata(metadata?: ResourceMetadata, options?: OperationOptions): Promise<void> {
    const call = this.begin(options, "setMetadata");
    const checked = checkResourceMetadata(metadata);
    await this.state("queue metadata").setState(this.name, { metadata: checked }, call);
  }

  /** The queue's stored access policies; QueueNotFound when it does not exist. */
  async getAccessPolicy(options?: OperationOptions): Promise<QueueGetAccessPolicyResponse> {
    const call = this.begin(options, "getAcl");
    const { policies } = await this.state("stored access policies").getState(this.name, "access", call);
    return { signedIdentifiers: datedIdentifiers(policies) };
  }

  /** Replaces the queue's stored access policies (at most five; permissions from `raup`). */
  async setAccessPolicy(identifiers?: SignedIdentifier[], options?: OperationOptions): Promise<void> {
    const call = this.begin(options, "setAcl");
    const policies = datedPolicies(identifiers, "queue");
    await this.state("stored access policies").setState(this.name, { access: { policies } }, call);
  }

  /** Deletes the queue and its messages; QueueNotFound when it does not exist. */
  async delete(options?: OperationOptions): Promise<void> {
    await this.service.deleteQueue(this.name, this.begin(options, "deleteQueue"));
  }

  async deleteIfExists(options?: OperationOptions): Promise<QueueIfResponse> {
    try {
      await this.service.deleteQueue(this.name, this.begin(options, "deleteQueue"));
      return { succeeded: true };
    } catch (err) {
      if (err instanceof TableKitError && err.code === "QueueNotFound") return { succeeded: false };
      throw err;
    }
  }

  /** True when the queue exists. */
  async exists(options?: OperationOptions): Promise<boolean> {
    try {
      await this.backendQueue.count(this.begin(options, "getMetadata"));
      return true;
    } catch (err) {
      if (err instanceof TableKitError && err.code === "QueueNotFound") return false;
      throw err;
    }
  }

  /** The message count and the metadata; QueueNotFound when the queue does not exist. */
  async getProperties(options?: OperationOptions): Promise<QueueGetPropertiesResponse> {
    const call = this.begin(options, "getMetadata");
    const approximateMessagesCount = await this.backendQueue.count(call);
    const state = this.service.state;
    const metadata = state ? copyMetadata((await state.getState(this.name, "metadata", call)).metadata) : {};
    return { approximateMessagesCount, metadata };
  }

  async sendMessage(
    messageText: string,
    options?: QueueSendMessageOptions,
  ): Promise<QueueSendMessageResponse> {
    const call = this.begin(options, "sendMessage");
    const limits = this.limits;
    const text = validateMessageText(messageText, limits);
    const visibilityTimeoutSeconds = checkInteger(
      "visibilityTimeout",
      options?.visibilityTimeout ?? 0,
      0,
      limits.maxVisibilityTimeoutSeconds,
    );
    const timeToLiveSeconds = checkTimeToLive(
      options?.messageTimeToLive ?? QUEUE_DEFAULTS.timeToLiveSeconds,
      limits,
    );
    if (timeToLiveSeconds !== -1 && visibilityTimeoutSeconds >= timeToLiveSeconds) {
      throw new TableKitError(
        "InvalidQueryParameterValue",
        `visibilityTimeout (${visibilityTimeoutSeconds} s) must be less than messageTimeToLive (${timeToLiveSeconds} s)`,
        { details: { visibilityTimeout: visibilityTimeoutSeconds, messageTimeToLive: timeToLiveSeconds } },
      );
    }
    const sent = await this.backendQueue.send({ text, visibilityTimeoutSeconds, timeToLiveSeconds }, call);
    return {
      messageId: sent.messageId,
      popReceipt: sent.popReceipt,
      insertedOn: sent.insertedOn,
      expiresOn: sent.expiresOn,
      nextVisibleOn: sent.nextVisibleOn,
    };
  }

  async receiveMessages(options?: QueueReceiveMessageOptions): Promise<QueueReceiveMessageResponse> {
    const call = this.begin(options, "receiveMessages");
    const limits = this.limits;
    const count = checkInteger(
      "numberOfMessages",
      options?.numberOfMessages ?? 1,
      1,
      limits.maxMessagesPerReceive,
    );
    const visibility = checkInteger(
      "visibilityTimeout",
      options?.visibilityTimeout ?? QUEUE_DEFAULTS.receiveVisibilityTimeoutSeconds,
      1,
      limits.maxVisibilityTimeoutSeconds,
    );
    const messages = await this.backendQueue.receive(count, visibility, call);
    return { receivedMessageItems: messages.map(received) };
  }

  async peekMessages(options?: QueuePeekMessagesOptions): Promise<QueuePeekMessagesResponse> {
    const call = this.begin(options, "peekMessages");
    const count = checkInteger(
      "numberOfMessages",
      options?.numberOfMessages ?? 1,
      1,
      this.limits.maxMessagesPerReceive,
    );
    return { peekedMessageItems: (await this.backendQueue.peek(count, call)).map(peeked) };
  }

  /**
   * Changes a received message's visibility (0 s..7 days; 0 makes it visible at once) and, when
   * `message` is given, its text. Returns the new pop receipt; the old one is stale from now on.
   */
  async updateMessage(
    messageId: string,
    popReceipt: string,
    message?: string,
    visibilityTimeout?: number,
    options?: OperationOptions,
  ): Promise<QueueUpdateMessageResponse> {
    const call = this.begin(options, "updateMessage");
    const limits = this.limits;
    const id = checkToken("messageId", messageId);
    const receipt = checkToken("popReceipt", popReceipt);
    const text = message === undefined ? undefined : validateMessageText(message, limits);
    const visibilityTimeoutSeconds = checkInteger(
      "visibilityTimeout",
      visibilityTimeout ?? 0,
      0,
      limits.maxVisibilityTimeoutSeconds,
    );
    const change = text === undefined ? { visibilityTimeoutSeconds } : { text, visibilityTimeoutSeconds };
    const result = await this.backendQueue.update(id, receipt, change, call);
    return { popReceipt: result.popReceipt, nextVisibleOn: result.nextVisibleOn };
  }

  async deleteMessage(messageId: string, popReceipt: string, options?: OperationOptions): Promise<void> {
    const call = this.begin(options, "deleteMessage");
    await this.backendQueue.delete(
      checkToken("messageId", messageId),
      checkToken("popReceipt", popReceipt),
      call,
    );
  }

  /** Deletes every message of the queue. */
  async clearMessages(options?: OperationOptions): Promise<void> {
    await this.backendQueue.clear(this.begin(options, "clearMessages"));
  }
}

function peeked(m: StoredMessage): PeekedMessageItem {
  return {
    messageId: m.messageId,
    messageText: m.text,
    dequeueCount: m.dequeueCount,
    insertedOn: m.insertedOn,
    expiresOn: m.expiresOn,
  };
}

function received(m: LeasedMessage): ReceivedMessageItem {
  return { ...peeked(m), popReceipt: m.popReceipt, nextVisibleOn: m.nextVisibleOn };
}
