import { runPatterns } from "./patterns/index.js";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";
import { targetOnServer } from "./support/server-target.js";

// Every pattern suite, unchanged, against the real DynamoDB Local jar (in memory, telemetry off).
const name = "dynamodb (DynamoDB Local)";
runPatterns({ name, open: () => targetOnServer(name, startDynamoDbLocal) });
