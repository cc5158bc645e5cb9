import type { Limits, StoredEntity } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  TableBackend,
  WriteResult,
} from "../../tables/table-backend.js";
import { toTableKitError } from "./errors.js";
import { fromItem, itemKey } from "./table-entity-codec.js";
import type { DynamoDbKnownPartitions } from "./table-partition-catalogue.js";
import { queryPage } from "./table-query.js";
import type { DynamoDbApi } from "./table-sdk.js";
import { type WriteTarget, writeAll, writeOne } from "./table-writes.js";

/** One tablekit table: the DynamoDB table `tableName`. Cheap to make; does no I/O until used. */
export class DynamoDbTable implements TableBackend {
  private readonly target: WriteTarget;

  constructor(
    private readonly api: DynamoDbApi,
    private readonly tableName: string,
    limits: Limits,
    known: DynamoDbKnownPartitions,
  ) {
    this.target = { api, tableName, limits, known };
  }

  async get(partitionKey: string, rowKey: string, call: CallOptions): Promise<StoredEntity | undefined> {
    try {
      const { Item } = await this.api.getItem(
        { TableName: this.tableName, Key: itemKey(partitionKey, rowKey), ConsistentRead: true },
        call.abortSignal,
      );
      return Item ? fromItem(Item) : undefined;
    } catch (err) {
      throw toTableKitError(err, call);
    }
  }

  query(query: BackendQuery, call: CallOptions): Promise<BackendPage> {
    return queryPage(this.api, this.tableName, query, call);
  }

  write(action: BackendAction, call: CallOptions): Promise<WriteResult | undefined> {
    return writeOne(this.target, action, call);
  }

  transact(actions: readonly BackendAction[], call: CallOptions): Promise<(WriteResult | undefined)[]> {
    return writeAll(this.target, actions, call);
  }
}
