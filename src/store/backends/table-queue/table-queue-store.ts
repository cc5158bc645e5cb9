import type { QueueServiceBackend } from "../../queues/queue-backend.js";
import type { Store } from "../../store.js";
import type { TableQueueOptions } from "./connection.js";
import { tableQueueCapabilities } from "./queue-capabilities.js";
import { TableQueueQueues } from "./table-queue-queues.js";

/**
 * What the table-backed queue opens: a queue port over a store's tables, for a store whose backend
 * has no queue service of its own (DynamoDB) or any store opened with `{ queues: "table" }`. It
 * holds no resources of its own: closing the store closes the tables it is built on.
 */
export function tableQueueStore(tables: Store, options: TableQueueOptions): QueueServiceBackend {
  return new TableQueueQueues(tables, tableQueueCapabilities(tables.capabilities), options);
}
