import type { Backend } from "../../backend.js";
import { connect, DYNAMODB_OPTION_KEYS, type DynamoDbStoreOptions, parseLocation } from "./connection.js";
import { DynamoDbStore } from "./dynamodb-store.js";
import { dynamodbCapabilities } from "./table-capabilities.js";

export type { DynamoDbStoreOptions } from "./connection.js";

/**
 * The DynamoDB backend, for `openStore("dynamodb:…")`: one DynamoDB table per tablekit table, through
 * the AWS SDK v3 (`@aws-sdk/client-dynamodb`, an optional peer dependency loaded only here).
 * See docs/dynamodb.md for the URL, the options and the mapping.
 */
export const dynamodbBackend: Backend<DynamoDbStoreOptions> = {
  optionKeys: DYNAMODB_OPTION_KEYS,
  async open(location, options) {
    const where = parseLocation(location, options);
    const { api, ownsClient } = await connect(where);
    return new DynamoDbStore(api, dynamodbCapabilities(options.limits), {
      tablePrefix: where.tablePrefix,
      ownsClient,
    });
  },
};
