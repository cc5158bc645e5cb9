import type { QueueServiceBackend } from "../queue-backend.js";
import type { Store } from "../store.js";
import { tableQueueCapabilities } from "./capabilities.js";
import type { TableQueueOptions } from "./options.js";
import { TableQueueStore } from "./table-queue-store.js";

export type { TableQueueOptions } from "./options.js";

/**
 * The table-backed queue over a store's tables: what `openStore` gives a store whose backend has
 * no queue service of its own (DynamoDB), or any store opened with `{ queues: "table" }`.
 */
export function tableQueueService(store: Store, options: TableQueueOptions): QueueServiceBackend {
  return new TableQueueStore(store, tableQueueCapabilities(store.capabilities), options);
}
