import type { Limits, NormalizedEntity, StoredEntity } from "../../model/index.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  BackendTable,
  CallOptions,
  UpdateMode,
  WriteResult,
} from "../backend.js";
import { throwIfAborted, toTableKitError } from "./errors.js";
import { fromItem, itemKey } from "./item-codec.js";
import type { KnownPartitions } from "./partition-catalogue.js";
import { queryPage } from "./query.js";
import type { DynamoApi } from "./sdk.js";
import { type WriteTarget, writeAll, writeOne } from "./writes.js";

/** One tablekit table: the DynamoDB table `tableName`. Cheap to make; does no I/O until used. */
export class DynamoDbTable implements BackendTable {
  private readonly target: WriteTarget;

  constructor(
    private readonly api: DynamoApi,
    private readonly tableName: string,
    limits: Limits,
    known: KnownPartitions,
  ) {
    this.target = { api, tableName, limits, known };
  }

  async insert(entity: NormalizedEntity, options: CallOptions): Promise<WriteResult> {
    return (await writeOne(this.target, { kind: "create", entity }, options))!;
  }

  async upsert(entity: NormalizedEntity, mode: UpdateMode, options: CallOptions): Promise<WriteResult> {
    return (await writeOne(this.target, { kind: "upsert", entity, mode }, options))!;
  }

  async update(
    entity: NormalizedEntity,
    mode: UpdateMode,
    etag: string,
    options: CallOptions,
  ): Promise<WriteResult> {
    return (await writeOne(this.target, { kind: "update", entity, mode, etag }, options))!;
  }

  async delete(partitionKey: string, rowKey: string, etag: string, options: CallOptions): Promise<void> {
    await writeOne(this.target, { kind: "delete", partitionKey, rowKey, etag }, options);
  }

  async get(partitionKey: string, rowKey: string, options: CallOptions): Promise<StoredEntity | undefined> {
    throwIfAborted(options);
    try {
      const { Item } = await this.api.getItem(
        { TableName: this.tableName, Key: itemKey(partitionKey, rowKey), ConsistentRead: true },
        options.abortSignal,
      );
      return Item ? fromItem(Item) : undefined;
    } catch (err) {
      throw toTableKitError(err, options);
    }
  }

  query(query: BackendQuery, options: CallOptions): Promise<BackendPage> {
    return queryPage(this.api, this.tableName, query, options);
  }

  transact(actions: readonly BackendAction[], options: CallOptions): Promise<(WriteResult | undefined)[]> {
    return writeAll(this.target, actions, options);
  }
}
