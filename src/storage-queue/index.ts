/**
 * tablekit/storage-queue: what `@azure/storage-queue` exports that a program uses, over any
 * tablekit store's queue port. Change the import line and the connection string (`memory:`,
 * `file:./app.db`, `dynamodb:…`, or an Azure connection string), and a queue program runs unchanged
 * (docs/data-tables.md#queues). Nothing here loads the SDK.
 */

// Its declarations name Node types: a consumer without "types" loads them from here.
/// <reference types="node" preserve="true" />

export { isRestError, RestError } from "../data-tables/rest-error.js";
export { closeDataTablesStores as closeStorageQueueStores } from "../data-tables/store-registry.js";
export {
  type PeekedMessageItem,
  QueueClient,
  type QueueCreateOptions,
  type QueueGetAccessPolicyResponse,
  type QueueGetPropertiesResponse,
  type QueueIfResponse,
  type QueuePeekMessagesOptions,
  type QueuePeekMessagesResponse,
  type QueueReceiveMessageOptions,
  type QueueReceiveMessageResponse,
  type QueueSendMessageOptions,
  type QueueSendMessageResponse,
  type QueueUpdateMessageResponse,
  type ReceivedMessageItem,
  type SignedIdentifier,
} from "./queue-client.js";
export {
  type QueueItem,
  QueueServiceClient,
  type ServiceListQueuesOptions,
  type ServiceListQueuesSegmentResponse,
} from "./queue-service-client.js";
export type {
  CorsRule,
  Logging,
  Metrics,
  QueueResponseHeaders,
  QueueServiceProperties,
  RetentionPolicy,
} from "./responses.js";
