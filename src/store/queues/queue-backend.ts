import { NEVER_EXPIRES_MS } from "../../model/index.js";
import type { InitialResourceState, StateBackend } from "../access/state-backend.js";
import type { CallOptions } from "../call-options.js";
import type { QueueCapabilities } from "./queue-capabilities.js";

/**
 * What a queue backend implements: raw operations only (docs/queues.md, docs/architecture.md). The
 * core (`Queue`, `Store`) has validated the queue name, message text, counts, visibility timeouts
 * and time-to-live against `capabilities.limits`, checked the closed state and the abort signal,
 * and applied the SDK's defaults before it calls any of these. A backend maps its own failures to
 * TableKitError codes (QueueNotFound, MessageNotFound, PopReceiptMismatch, …) with the original
 * error as `cause`, and never builds the caller's result shape.
 */
export interface QueueServiceBackend {
  readonly capabilities: QueueCapabilities;
  /** Metadata, stored access policies and service properties (state-backend.ts); absent: NotSupported. */
  readonly state?: StateBackend;
  /**
   * Creates the queue; false when it already existed (not an error, as in the service; `initial` is
   * then not written). A new queue starts with `initial`'s metadata, written with it, and no policies
   * (`initial` is given only to a backend with `state`).
   */
  createQueue(name: string, call: CallOptions, initial?: InitialResourceState): Promise<boolean>;
  /** Deletes the queue, its messages and its state; QueueNotFound when it does not exist. */
  deleteQueue(name: string, call: CallOptions): Promise<void>;
  /** Queue names starting with `prefix`, in name order, one page after `continuation`. */
  listQueues(
    query: BackendQueueListQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }>;
  /** A handle on one queue; no I/O. Operations on a missing queue throw QueueNotFound. */
  queue(name: string): QueueBackend;
}

export interface QueueBackend {
  /** Adds a message; `timeToLiveSeconds` is -1 for "never expires". */
  send(message: BackendSendMessage, call: CallOptions): Promise<LeasedMessage>;
  /**
   * Takes up to `count` visible, unexpired messages, makes each invisible to every other receiver
   * for `visibilityTimeoutSeconds`, raises its dequeue count and gives it a new pop receipt.
   */
  receive(count: number, visibilityTimeoutSeconds: number, call: CallOptions): Promise<LeasedMessage[]>;
  /** Up to `count` visible, unexpired messages, unchanged. */
  peek(count: number, call: CallOptions): Promise<StoredMessage[]>;
  /**
   * Replaces the text (when given) and the visibility of a message whose current pop receipt is
   * `popReceipt`; MessageNotFound when it is gone or expired, PopReceiptMismatch when the receipt is stale.
   */
  update(messageId: string, popReceipt: string, change: MessageChange, call: CallOptions): Promise<NewLease>;
  /** Deletes a message; the same failures as `update`. */
  delete(messageId: string, popReceipt: string, call: CallOptions): Promise<void>;
  /** Deletes every message. */
  clear(call: CallOptions): Promise<void>;
  /** The number of messages in the queue (the service calls it approximate: expired ones may count). */
  count(call: CallOptions): Promise<number>;
}

/** What `update` changes: the visibility, and the text when given. */
export interface MessageChange {
  readonly text?: string;
  readonly visibilityTimeoutSeconds: number;
}

/** The lease an update gives. */
export interface NewLease {
  readonly popReceipt: string;
  readonly nextVisibleOn: Date;
}

/**
 * When a message sent at `now` (ms) expires: `timeToLiveSeconds` later, never past the service's
 * "never" (9999-12-31T23:59:59Z), which is also what -1 means. For backends that keep time themselves.
 */
export function messageExpiry(now: number, timeToLiveSeconds: number): number {
  return timeToLiveSeconds === -1
    ? NEVER_EXPIRES_MS
    : Math.min(now + timeToLiveSeconds * 1000, NEVER_EXPIRES_MS);
}

export interface BackendQueueListQuery {
  readonly prefix?: string;
  /** 1..limits.maxListPageSize. */
  readonly maxPageSize: number;
  readonly continuation?: string;
}

export interface BackendSendMessage {
  readonly text: string;
  readonly visibilityTimeoutSeconds: number;
  /** Positive seconds, or -1 for never. */
  readonly timeToLiveSeconds: number;
}

/** A message as peek sees it. */
export interface StoredMessage {
  readonly messageId: string;
  readonly text: string;
  readonly dequeueCount: number;
  readonly insertedOn: Date;
  readonly expiresOn: Date;
}

/** A message with the receipt of the caller's lease (send and receive). */
export interface LeasedMessage extends StoredMessage {
  readonly popReceipt: string;
  readonly nextVisibleOn: Date;
}
