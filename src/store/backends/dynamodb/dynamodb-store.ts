import type { BackendStore } from "../../backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import { DynamoDbTables } from "./dynamodb-tables.js";
import type { DynamoDbApi } from "./table-sdk.js";

/** What a `dynamodb:` URL opens: one DynamoDB account and region (and table prefix), serving the table port. */
export class DynamoDbStore implements BackendStore {
  readonly tables: DynamoDbTables;

  constructor(
    private readonly api: DynamoDbApi,
    capabilities: Capabilities,
    private readonly options: { tablePrefix: string; ownsClient: boolean },
  ) {
    this.tables = new DynamoDbTables(api, capabilities, options.tablePrefix);
  }

  async close(): Promise<void> {
    // A client the caller handed in stays theirs to destroy.
    if (this.options.ownsClient) this.api.client.destroy?.();
  }
}
