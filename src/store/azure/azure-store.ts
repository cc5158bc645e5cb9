import type { BackendStore } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import { AzureTables } from "./azure-tables.js";
import type { AzureConnection } from "./connection.js";

/** What an `azure:` URL opens: one storage account (or Cosmos DB Table API, or Azurite), serving the table port. */
export class AzureStore implements BackendStore {
  readonly tables: AzureTables;

  constructor(connection: AzureConnection, capabilities: Capabilities) {
    this.tables = new AzureTables(connection, capabilities);
  }

  async close(): Promise<void> {
    // Nothing to release: the SDK's HTTP client keeps no connection open once idle.
  }
}
