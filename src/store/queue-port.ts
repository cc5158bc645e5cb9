import { TableKitError } from "../model/index.js";
import type { BackendStore, OpenStoreOptions } from "./backend.js";
import type { QueueServiceBackend } from "./queue-backend.js";
import { Store } from "./store.js";

/**
 * The queue port a store gets (`OpenStoreOptions.queues`): the backend's own, the table-backed
 * queue built on the store's tables (the default where a backend has none, e.g. DynamoDB), or none.
 */
export async function chooseQueuePort(
  backend: BackendStore,
  options: OpenStoreOptions,
  url: string,
): Promise<QueueServiceBackend | undefined> {
  const choice = options.queues ?? (backend.queues ? "native" : "table");
  switch (choice) {
    case "none":
      return undefined;
    case "native":
      if (!backend.queues) {
        throw new TableKitError(
          "NotSupported",
          `The ${backend.capabilities.backend} backend has no queue service of its own; use queues: "table"`,
        );
      }
      return backend.queues;
    case "table": {
      const { tableQueueStore } = await import("./table-queue/index.js");
      // A queue-less view of the same tables: the table-backed queue uses only the public table port.
      return tableQueueStore(new Store(backend, url, {}), options.tableQueue ?? {});
    }
    default:
      throw new TableKitError(
        "InvalidInput",
        `queues must be "native", "table" or "none", got ${JSON.stringify(choice)}`,
      );
  }
}
