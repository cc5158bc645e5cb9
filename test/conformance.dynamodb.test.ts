import { runConformance } from "./conformance/index.js";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";
import { targetOnServer } from "./support/server-target.js";

// The shared suite, unchanged, against the real DynamoDB Local jar (in memory, telemetry off).
const name = "dynamodb (DynamoDB Local)";
runConformance({ name, open: () => targetOnServer(name, startDynamoDbLocal) });
