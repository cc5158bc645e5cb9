import { TableKitError } from "../model/index.js";
import type { BackendStore, CommonStoreOptions } from "./backend.js";
import { Store } from "./store.js";

/**
 * The store's bundle with the queue port `CommonStoreOptions.queues` asks for: the backend's own,
 * the table-backed queue built on the store's tables (the default where a backend has none, e.g.
 * DynamoDB), or none.
 */
export async function withQueuePort(
  opened: BackendStore,
  options: CommonStoreOptions,
  url: string,
): Promise<BackendStore> {
  const choice = options.queues ?? (opened.queues ? "native" : "table");
  const bundle = (queues: BackendStore["queues"]): BackendStore => ({
    tables: opened.tables,
    ...(queues ? { queues } : {}),
    ...(opened.blobs ? { blobs: opened.blobs } : {}),
    close: () => opened.close(),
  });
  switch (choice) {
    case "none":
      return bundle(undefined);
    case "native":
      if (!opened.queues) {
        throw new TableKitError(
          "NotSupported",
          `The ${opened.tables.capabilities.backend} backend has no queue service of its own; use queues: "table"`,
        );
      }
      return opened;
    case "table": {
      const { tableQueueStore } = await import("./table-queue/index.js");
      // A queue-less view of the same tables (closing it closes nothing): the table-backed queue
      // uses only the public table port.
      const tablesOnly = new Store({ tables: opened.tables, close: async () => {} }, url);
      return bundle(tableQueueStore(tablesOnly, options.tableQueue ?? {}));
    }
    default:
      throw new TableKitError(
        "InvalidInput",
        `queues must be "native", "table" or "none", got ${JSON.stringify(choice)}`,
      );
  }
}
