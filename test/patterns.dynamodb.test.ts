import { runPatterns } from "./patterns/index.js";
import { targetOnServer } from "./support/server-target.js";
import { startAwsWorld } from "./support/worlds.js";

// Every pattern suite, unchanged, against DynamoDB Local (tables, and the table-backed queue on
// them) with s3rver for blobs: the world of a DynamoDB user.
const name = "dynamodb (DynamoDB Local + s3rver)";
runPatterns({ name, open: () => targetOnServer(name, startAwsWorld) });
