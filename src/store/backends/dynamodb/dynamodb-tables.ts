import { compileFilter, type FilterPredicate } from "../../../filter/evaluate.js";
import { sleep, TableKitError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendTableQuery, TableBackend, TableServiceBackend } from "../../tables/table-backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import { DynamoDbTable } from "./dynamodb-table.js";
import { sdkErrorName, toTableKitError } from "./errors.js";
import { decodeTableContinuation, encodeTableContinuation } from "./table-continuation.js";
import { DynamoDbKnownPartitions } from "./table-partition-catalogue.js";
import type { AttributeMap, BatchGetInput, DynamoDbApi } from "./table-sdk.js";
import { DynamoDbTableState } from "./table-state.js";

/**
 * Tables: one DynamoDB table per tablekit table, named prefix + the name in lower case (tablekit
 * names are case-insensitive). Each holds a catalogue item with the name as created, which
 * `listTables` returns. Its keys are no entity's: `encodeKey` never puts U+0001 before a character
 * above U+0001.
 */
export const CATALOGUE_PARTITION_KEY = "\u0001~tablekit";
const CATALOGUE_KEY: AttributeMap = {
  PartitionKey: { S: CATALOGUE_PARTITION_KEY },
  RowKey: { S: "\u0001~table" },
};
const NAME_ATTRIBUTE = "TableName";
const LOWER_CASE_NAME = /^[a-z][a-z0-9]{2,62}$/;
/** Errors reading a catalogue item that mean the table is gone or is not tablekit's. */
const NOT_OURS = new Set(["ResourceNotFoundException", "ValidationException"]);

/** How long createTable/deleteTable wait for DynamoDB to finish (it takes seconds in the cloud). */
const WAIT_LIMIT_MS = 5 * 60_000;

/** The tables of a `dynamodb:` store: the DynamoDB tables under its prefix that tablekit created. */
export class DynamoDbTables implements TableServiceBackend {
  /** Partitions with a catalogue marker, shared by every table handle so each is written once a process. */
  private readonly known = new DynamoDbKnownPartitions();
  /** Stored access policies, on each table's catalogue item. */
  readonly state: DynamoDbTableState;

  constructor(
    private readonly api: DynamoDbApi,
    readonly capabilities: Capabilities,
    private readonly prefix: string,
  ) {
    this.state = new DynamoDbTableState(api, (name) => this.dynamoName(name), CATALOGUE_KEY);
  }

  table(name: string): TableBackend {
    return new DynamoDbTable(this.api, this.dynamoName(name), this.capabilities.limits, this.known);
  }

  /** The DynamoDB table of a tablekit table. */
  private dynamoName(name: string): string {
    return this.prefix + name.toLowerCase();
  }

  /** Creates the table and waits until it is ACTIVE; TableAlreadyExists in any case of the name. */
  async createTable(name: string, options: CallOptions): Promise<void> {
    const tableName = this.dynamoName(name);
    this.known.forget(tableName);
    try {
      await this.api.createTable(
        {
          TableName: tableName,
          KeySchema: [
            { AttributeName: "PartitionKey", KeyType: "HASH" },
            { AttributeName: "RowKey", KeyType: "RANGE" },
          ],
          AttributeDefinitions: [
            { AttributeName: "PartitionKey", AttributeType: "S" },
            { AttributeName: "RowKey", AttributeType: "S" },
          ],
          BillingMode: "PAY_PER_REQUEST",
        },
        options.abortSignal,
      );
    } catch (err) {
      if (sdkErrorName(err) === "ResourceInUseException") {
        throw new TableKitError("TableAlreadyExists", "The table specified already exists.", {
          cause: err,
          details: { tableName: name },
        });
      }
      throw toTableKitError(err, options);
    }
    await this.waitFor(tableName, "ACTIVE", options);
    try {
      await this.api.putItem(
        { TableName: tableName, Item: { ...CATALOGUE_KEY, [NAME_ATTRIBUTE]: { S: name } } },
        options.abortSignal,
      );
    } catch (err) {
      throw toTableKitError(err, options);
    }
  }

  /** Deletes the table with every entity and waits until it is gone; TableNotFound if absent. */
  async deleteTable(name: string, options: CallOptions): Promise<void> {
    const tableName = this.dynamoName(name);
    this.known.forget(tableName);
    try {
      await this.api.deleteTable(tableName, options.abortSignal);
    } catch (err) {
      // A table still being created or deleted answers ResourceInUse: wait, then try once more.
      if (sdkErrorName(err) !== "ResourceInUseException") throw toTableKitError(err, options);
      await this.waitFor(tableName, "ACTIVE", options);
      await this.api.deleteTable(tableName, options.abortSignal).catch((e) => {
        throw toTableKitError(e, options);
      });
    }
    await this.waitFor(tableName, "GONE", options);
    this.known.forget(tableName);
  }

  /** Waits for a table status, or for the table to be gone; TableNotFound if it vanishes instead. */
  private async waitFor(tableName: string, status: "ACTIVE" | "GONE", options: CallOptions): Promise<void> {
    const started = Date.now();
    for (let delay = 20; ; delay = Math.min(delay * 2, 1000)) {
      let current: string | undefined;
      try {
        current = (await this.api.describeTable(tableName, options.abortSignal)).Table?.TableStatus;
      } catch (err) {
        if (sdkErrorName(err) !== "ResourceNotFoundException") throw toTableKitError(err, options);
        if (status === "GONE") return;
        throw toTableKitError(err, options);
      }
      if (current === status) return;
      if (Date.now() - started > WAIT_LIMIT_MS) {
        throw new TableKitError("OperationTimedOut", `DynamoDB table ${tableName} did not become ${status}`);
      }
      await sleep(delay, options.abortSignal);
    }
  }

  /** Table names as created, in case-insensitive order, filtered on `TableName`. */
  async listTables(
    query: BackendTableQuery,
    options: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    const matches: FilterPredicate = query.filter ? compileFilter(query.filter) : () => true;
    const names: string[] = [];
    let after = query.continuation === undefined ? undefined : decodeTableContinuation(query.continuation);
    if (after === undefined && this.prefix !== "") after = this.prefix;
    for (;;) {
      const page = await this.api
        .listTables({ ExclusiveStartTableName: after, Limit: 100 }, options.abortSignal)
        .catch((err) => {
          throw toTableKitError(err, options);
        });
      const listed = page.TableNames ?? [];
      const ours = listed.filter(
        (t) => t.startsWith(this.prefix) && LOWER_CASE_NAME.test(t.slice(this.prefix.length)),
      );
      const created = await this.namesAsCreated(ours, options);
      for (const tableName of ours) {
        const name = created.get(tableName);
        if (name === undefined) continue; // not tablekit's, or still being created
        const entity = {
          partitionKey: "",
          rowKey: "",
          properties: new Map([[NAME_ATTRIBUTE, { type: "String", value: name } as const]]),
        };
        if (!matches(entity)) continue;
        names.push(name);
        if (names.length === query.maxPageSize)
          return { names, continuation: encodeTableContinuation(tableName) };
      }
      const last = listed.at(-1);
      const pastPrefix = last !== undefined && !last.startsWith(this.prefix) && last > this.prefix;
      if (!page.LastEvaluatedTableName || pastPrefix) return { names };
      after = page.LastEvaluatedTableName;
    }
  }

  /** The catalogue items of these DynamoDB tables, read in one batch where possible. */
  private async namesAsCreated(tableNames: string[], options: CallOptions): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (tableNames.length === 0) return out;
    let request: BatchGetInput["RequestItems"] = Object.fromEntries(
      tableNames.map((t) => [t, { Keys: [CATALOGUE_KEY], ConsistentRead: true }]),
    );
    try {
      while (Object.keys(request).length > 0) {
        const result = await this.api.batchGet({ RequestItems: request }, options.abortSignal);
        for (const [tableName, items] of Object.entries(result.Responses ?? {})) {
          const name = (items[0]?.[NAME_ATTRIBUTE] as { S?: string } | undefined)?.S;
          if (name !== undefined) out.set(tableName, name);
        }
        request = result.UnprocessedKeys ?? {};
      }
    } catch (err) {
      // A table deleted meanwhile, or another tool's table with other keys, fails the whole
      // batch: read them one by one, skipping those.
      if (!NOT_OURS.has(sdkErrorName(err) ?? "")) throw toTableKitError(err, options);
      for (const tableName of tableNames) {
        const item = await this.api
          .getItem({ TableName: tableName, Key: CATALOGUE_KEY, ConsistentRead: true }, options.abortSignal)
          .catch((e) => {
            if (NOT_OURS.has(sdkErrorName(e) ?? "")) return undefined;
            throw toTableKitError(e, options);
          });
        const name = (item?.Item?.[NAME_ATTRIBUTE] as { S?: string } | undefined)?.S;
        if (name !== undefined) out.set(tableName, name);
      }
    }
    return out;
  }
}
