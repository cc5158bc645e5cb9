import type { BackendStore } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import type { AzureContainers } from "./azure-containers.js";
import { AzureTables } from "./azure-tables.js";
import type { AzureConnection } from "./connection.js";

/**
 * What an `azure:` URL opens: one storage account (or Cosmos DB Table API, or Azurite), serving the
 * table port, and the blob port when the settings name a Blob service.
 */
export class AzureStore implements BackendStore {
  readonly tables: AzureTables;
  readonly blobs?: AzureContainers;

  constructor(connection: AzureConnection, capabilities: Capabilities, blobs?: AzureContainers) {
    this.tables = new AzureTables(connection, capabilities);
    if (blobs) this.blobs = blobs;
  }

  async close(): Promise<void> {
    // Nothing to release: the SDK's HTTP client keeps no connection open once idle.
  }
}
