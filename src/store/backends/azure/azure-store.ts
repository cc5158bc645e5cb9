import type { BackendStore } from "../../backend.js";
import type { QueueServiceBackend } from "../../queues/queue-backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import type { AzureContainers } from "./azure-containers.js";
import { AzureTables } from "./azure-tables.js";
import type { AzureConnection } from "./connection.js";

/**
 * What an `azure:` URL opens: one storage account (or Cosmos DB Table API, or Azurite), serving the
 * table port, the queue port when the settings name a Queue service (docs/queues.md), and the blob
 * port when they name a Blob service (docs/blobs.md).
 */
export class AzureStore implements BackendStore {
  readonly tables: AzureTables;
  readonly queues?: QueueServiceBackend;
  readonly blobs?: AzureContainers;

  constructor(
    connection: AzureConnection,
    capabilities: Capabilities,
    ports: { readonly queues?: QueueServiceBackend; readonly blobs?: AzureContainers } = {},
  ) {
    this.tables = new AzureTables(connection, capabilities);
    if (ports.queues) this.queues = ports.queues;
    if (ports.blobs) this.blobs = ports.blobs;
  }

  async close(): Promise<void> {
    // Nothing to release: the SDK's HTTP clients keep no connection open once idle.
  }
}
