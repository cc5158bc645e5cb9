import type { BackendStore, BackendTable, BackendTableQuery, CallOptions } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import { KnownPartitions } from "./partition-catalogue.js";
import type { DynamoApi } from "./sdk.js";
import { DynamoTableCatalogue } from "./table-catalogue.js";
import { DynamoDbTable } from "./table-handle.js";

/** A `dynamodb:` store: the tablekit tables of one DynamoDB account and region (and prefix). */
export class DynamoDbStore implements BackendStore {
  private readonly catalogue: DynamoTableCatalogue;
  /** Partitions with a catalogue marker, shared by every handle so each is written once a process. */
  private readonly known = new KnownPartitions();

  constructor(
    private readonly api: DynamoApi,
    readonly capabilities: Capabilities,
    options: { tablePrefix: string; ownsClient: boolean },
  ) {
    this.catalogue = new DynamoTableCatalogue(api, options.tablePrefix);
    this.ownsClient = options.ownsClient;
  }

  private readonly ownsClient: boolean;

  createTable(name: string, options: CallOptions): Promise<void> {
    this.known.forget(this.catalogue.dynamoName(name));
    return this.catalogue.create(name, options);
  }

  async deleteTable(name: string, options: CallOptions): Promise<void> {
    this.known.forget(this.catalogue.dynamoName(name));
    await this.catalogue.drop(name, options);
    this.known.forget(this.catalogue.dynamoName(name));
  }

  listTables(
    query: BackendTableQuery,
    options: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    return this.catalogue.list(query, options);
  }

  table(name: string): BackendTable {
    return new DynamoDbTable(this.api, this.catalogue.dynamoName(name), this.capabilities.limits, this.known);
  }

  async close(): Promise<void> {
    // A client the caller handed in stays theirs to destroy.
    if (this.ownsClient) this.api.client.destroy?.();
  }
}
