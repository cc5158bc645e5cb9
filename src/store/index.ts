export type * from "./backend.js";
export type { OperationOptions } from "./call-options.js";
export type { Capabilities } from "./capabilities.js";
export { DEFAULT_STORE_URL, openStore } from "./open-store.js";
export type { Page, PagedAsyncIterableIterator, PageSettings } from "./paging.js";
export {
  type PeekedMessageItem,
  Queue,
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
} from "./queue.js";
export type * from "./queue-backend.js";
export { type ListQueuesOptions, type ListTablesOptions, Store } from "./store.js";
export {
  type GetEntityOptions,
  type ListEntitiesOptions,
  Table,
  type UpdateOptions,
  type WriteResponse,
} from "./table.js";
export type { TransactionAction, TransactionResponse, TransactionSubResponse } from "./transaction.js";
