import type { BackendFactory } from "../backend.js";
import { dynamodbCapabilities } from "./capabilities.js";
import { DynamoDbStore } from "./dynamodb-store.js";
import { type DynamoDbStoreOptions, parseLocation } from "./location.js";
import { DynamoApi, loadDynamoSdk } from "./sdk.js";

export { DYNAMODB_ITEM_BYTES, dynamodbCapabilities, dynamodbLimits } from "./capabilities.js";
export type { DynamoDbStoreOptions } from "./location.js";

/**
 * The DynamoDB backend, for `openStore("dynamodb:…")`: one DynamoDB table per tablekit table, through
 * the AWS SDK v3 (`@aws-sdk/client-dynamodb`, an optional peer dependency loaded only here).
 * See docs/dynamodb.md for the URL, the options and the mapping.
 */
export const dynamodbBackend: BackendFactory = async (location, options) => {
  const settings = options as DynamoDbStoreOptions;
  const where = parseLocation(location, settings);
  const sdk = await loadDynamoSdk();
  const client =
    where.client ??
    new sdk.DynamoDBClient({
      ...(where.region ? { region: where.region } : {}),
      ...(where.endpoint ? { endpoint: where.endpoint } : {}),
      ...(where.credentials ? { credentials: where.credentials } : {}),
    });
  return new DynamoDbStore(new DynamoApi(sdk, client), dynamodbCapabilities(options.limits), {
    tablePrefix: where.tablePrefix,
    ownsClient: where.client === undefined,
  });
};
