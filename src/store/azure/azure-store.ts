import type { BackendStore } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import type { QueueServiceBackend } from "../queue-backend.js";
import { AzureTables } from "./azure-tables.js";
import type { AzureConnection } from "./connection.js";

/**
 * What an `azure:` URL opens: one storage account (or Cosmos DB Table API, or Azurite), serving the
 * table port, and the queue port when the settings name a Queue service (docs/queues.md).
 */
export class AzureStore implements BackendStore {
  readonly tables: AzureTables;

  constructor(
    connection: AzureConnection,
    capabilities: Capabilities,
    readonly queues?: QueueServiceBackend,
  ) {
    this.tables = new AzureTables(connection, capabilities);
  }

  async close(): Promise<void> {
    // Nothing to release: the SDK's HTTP clients keep no connection open once idle.
  }
}
