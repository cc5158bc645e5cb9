import { startAzurite } from "./azurite.js";
import { startDynamoDbLocal } from "./dynamodb-local.js";
import { startS3rver } from "./s3rver.js";
import type { TestServer } from "./server-target.js";

/**
 * The three worlds the patterns run in, each one store URL serving tables, queues and blobs:
 * - embedded: `file:`/`memory:` (see embedded-target.ts) — all three ports in one SQLite store;
 * - Azure: Azurite's table, queue and blob services behind one connection string;
 * - AWS: DynamoDB Local for tables, the table-backed queue on them, s3rver for blobs.
 */

/** Azurite with all three services, opened through one `azure:` connection string. */
export async function startAzureWorld(): Promise<TestServer> {
  const azurite = await startAzurite();
  return { storeUrl: `azure:${azurite.connectionString}`, stop: () => azurite.stop() };
}

/** DynamoDB Local and s3rver, opened through one `dynamodb:` URL (`s3=` names the blob endpoint). */
export async function startAwsWorld(): Promise<TestServer> {
  const [dynamo, s3] = await Promise.allSettled([startDynamoDbLocal(), startS3rver()]);
  if (dynamo.status === "rejected" || s3.status === "rejected") {
    await Promise.all([dynamo, s3].map((r) => (r.status === "fulfilled" ? r.value.stop() : undefined)));
    throw dynamo.status === "rejected" ? dynamo.reason : (s3 as PromiseRejectedResult).reason;
  }
  const url = new URL(dynamo.value.storeUrl);
  url.searchParams.set("s3", s3.value.endpoint);
  url.searchParams.set("s3BucketPrefix", "tk-");
  return {
    storeUrl: url.toString(),
    stop: async () => {
      await Promise.all([dynamo.value.stop(), s3.value.stop()]);
    },
  };
}
