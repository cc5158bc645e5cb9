/**
 * The rules of Azure Queue Storage, as data (docs/queues.md). The queue core checks every call
 * against its backend's `QueueLimits` before the backend sees it.
 */
export interface QueueLimits {
  /** Queue names: 3-63 lowercase letters, digits and single hyphens, starting and ending alphanumeric. */
  readonly queueNamePattern: RegExp;
  /** Largest message text, in UTF-8 bytes of the text as sent (64 KiB). */
  readonly maxMessageBytes: number;
  /** Messages one receive or peek may ask for (1..32). */
  readonly maxMessagesPerReceive: number;
  /** Longest visibility timeout, in seconds (7 days). */
  readonly maxVisibilityTimeoutSeconds: number;
  /** Longest finite time-to-live, in seconds; -1 means "never expires". */
  readonly maxTimeToLiveSeconds: number;
  /** Queue names per page of `listQueues` (the service returns at most 5,000). */
  readonly maxListPageSize: number;
}

const SEVEN_DAYS = 7 * 24 * 60 * 60;

/** Azure Queue Storage's documented limits. */
export const AZURE_QUEUE_LIMITS: QueueLimits = Object.freeze({
  queueNamePattern: /^(?=.{3,63}$)[a-z0-9](?:[a-z0-9]|-(?!-))*[a-z0-9]$/,
  maxMessageBytes: 64 * 1024,
  maxMessagesPerReceive: 32,
  maxVisibilityTimeoutSeconds: SEVEN_DAYS,
  // Since 2017-07-29 "the maximum time-to-live can be any positive number" (Put Message); the
  // largest a JavaScript number holds exactly. Expiry stops at the service's 9999-12-31 "never".
  maxTimeToLiveSeconds: Number.MAX_SAFE_INTEGER,
  maxListPageSize: 5000,
});

/** Defaults of `@azure/storage-queue` and the service. */
export const QUEUE_DEFAULTS = Object.freeze({
  /** Time-to-live of a message sent without one: 7 days. */
  timeToLiveSeconds: SEVEN_DAYS,
  /** Visibility timeout of a receive without one: 30 s. */
  receiveVisibilityTimeoutSeconds: 30,
});

/** The expiry the service reports for a message that never expires (TTL -1): 9999-12-31T23:59:59Z. */
export const NEVER_EXPIRES_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
