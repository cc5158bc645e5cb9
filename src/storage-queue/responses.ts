import { requestId, responseDate } from "../data-tables/responses.js";
import type { ServiceProperties as StoreServiceProperties } from "../store/access/service-properties.js";

/** The service version `@azure/storage-queue` 12.32 sends, which the service's answers echo. */
export const QUEUE_SERVICE_VERSION = "2026-06-06";

/** The headers every `@azure/storage-queue` response carries (tablekit answers without HTTP). */
export interface QueueResponseHeaders {
  clientRequestId?: string;
  requestId?: string;
  version?: string;
  date?: Date;
}

export function queueHeaders(): QueueResponseHeaders {
  return {
    clientRequestId: requestId(),
    requestId: requestId(),
    version: QUEUE_SERVICE_VERSION,
    date: responseDate(),
  };
}

export interface RetentionPolicy {
  enabled: boolean;
  days?: number;
}

export interface Logging {
  version: string;
  deleteProperty: boolean;
  read: boolean;
  write: boolean;
  retentionPolicy: RetentionPolicy;
}

export interface Metrics {
  version?: string;
  enabled: boolean;
  includeAPIs?: boolean;
  retentionPolicy?: RetentionPolicy;
}

export interface CorsRule {
  allowedOrigins: string;
  allowedMethods: string;
  allowedHeaders: string;
  exposedHeaders: string;
  maxAgeInSeconds: number;
}

/** `@azure/storage-queue`'s `QueueServiceProperties`. */
export interface QueueServiceProperties {
  queueAnalyticsLogging?: Logging;
  hourMetrics?: Metrics;
  minuteMetrics?: Metrics;
  cors?: CorsRule[];
}

/** The SDK's properties from the store's (the port's `logging` is the SDK's `queueAnalyticsLogging`). */
export function sdkQueueProperties(p: StoreServiceProperties): QueueServiceProperties {
  return {
    queueAnalyticsLogging: p.logging,
    hourMetrics: p.hourMetrics,
    minuteMetrics: p.minuteMetrics,
    cors: [...(p.cors ?? [])],
  };
}

export function storeQueueProperties(p: QueueServiceProperties): StoreServiceProperties {
  if (p === null || typeof p !== "object") return p;
  const { queueAnalyticsLogging, ...rest } = p;
  return {
    ...rest,
    ...(queueAnalyticsLogging !== undefined ? { logging: queueAnalyticsLogging } : {}),
  } as StoreServiceProperties;
}
