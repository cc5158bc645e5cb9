import { TableKitError, tableNotFound } from "../../../model/index.js";
import type {
  ResourceStateChange,
  StateBackend,
  StatePart,
  StoredResourceState,
} from "../../access/state-backend.js";
import type { StoredAccessPolicy } from "../../access/verify-sas.js";
import type { CallOptions } from "../../call-options.js";
import { sdkErrorName, toTableKitError } from "./errors.js";
import type { AttributeMap, DynamoDbApi } from "./table-sdk.js";

/** The attribute of a table's catalogue item that holds its stored access policies (JSON text). */
const POLICIES_ATTRIBUTE = "StoredAccessPolicies";

/**
 * A table's stored access policies, on the catalogue item its DynamoDB table holds (deleted with
 * the table; a table created again starts with a new item and none). DynamoDB has no item of the
 * account's own, so the Table service's properties have no place: `getServiceProperties` is absent
 * (NotSupported).
 */
export class DynamoDbTableState implements StateBackend {
  constructor(
    private readonly api: DynamoDbApi,
    private readonly dynamoName: (name: string) => string,
    private readonly catalogueKey: AttributeMap,
  ) {}

  private async item(name: string, call: CallOptions): Promise<AttributeMap> {
    try {
      const found = await this.api.getItem(
        { TableName: this.dynamoName(name), Key: this.catalogueKey, ConsistentRead: true },
        call.abortSignal,
      );
      if (found.Item) return found.Item;
    } catch (err) {
      if (sdkErrorName(err) !== "ResourceNotFoundException") throw toTableKitError(err, call);
    }
    throw tableNotFound(name);
  }

  async getState(name: string, _part: StatePart, call: CallOptions): Promise<StoredResourceState> {
    const item = await this.item(name, call);
    const value = item[POLICIES_ATTRIBUTE];
    const text = value && "S" in value ? value.S : undefined;
    return { metadata: {}, policies: text ? (JSON.parse(text) as StoredAccessPolicy[]) : [] };
  }

  async setState(name: string, change: ResourceStateChange, call: CallOptions): Promise<void> {
    if (!("access" in change)) throw new TableKitError("NotSupported", "Tables have no metadata");
    const item = await this.item(name, call);
    try {
      // The item as read, with the policies replaced; only while the catalogue item still exists.
      await this.api.putItem(
        {
          TableName: this.dynamoName(name),
          Item: { ...item, [POLICIES_ATTRIBUTE]: { S: JSON.stringify(change.access.policies) } },
          ConditionExpression: "attribute_exists(PartitionKey)",
        },
        call.abortSignal,
      );
    } catch (err) {
      const code = sdkErrorName(err);
      if (code === "ResourceNotFoundException" || code === "ConditionalCheckFailedException") {
        throw tableNotFound(name, { cause: err });
      }
      throw toTableKitError(err, call);
    }
  }
}
