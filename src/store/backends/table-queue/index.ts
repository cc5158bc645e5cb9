export type { TableQueueOptions } from "./connection.js";
/** The table-backed queue (docs/queues.md): what `openStore` loads for `queues: "table"`. */
export { tableQueueStore } from "./table-queue-store.js";
