export type * from "./backend.js";
export type { OperationOptions } from "./call-options.js";
export type { Capabilities } from "./capabilities.js";
export { DEFAULT_STORE_URL, openStore } from "./open-store.js";
export type { Page, PagedAsyncIterableIterator, PageSettings } from "./paging.js";
export { type ListTablesOptions, Store } from "./store.js";
export {
  type GetEntityOptions,
  type ListEntitiesOptions,
  Table,
  type UpdateOptions,
  type WriteResponse,
} from "./table.js";
export type { ThrottleEvent, ThrottleOptions, ThrottleProfile } from "./throttling.js";
export type { TransactionAction, TransactionResponse, TransactionSubResponse } from "./transaction.js";
