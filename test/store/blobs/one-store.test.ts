import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import { startAzurite } from "../../support/azurite.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../support/dynamodb-local.js";
import { type S3Server, startS3rver } from "../../support/s3rver.js";

/** One URL (or one URL plus one typed option) gives tables and blobs together, on every cloud. */
describe("one store for tables and blobs", () => {
  let dynamo: DynamoDbLocal;
  let s3: S3Server;
  beforeAll(async () => {
    [dynamo, s3] = await Promise.all([startDynamoDbLocal(), startS3rver()]);
  });
  afterAll(async () => {
    await Promise.all([dynamo?.stop(), s3?.stop()]);
  });

  it("dynamodb: with s3= and s3BucketPrefix= gives DynamoDB tables and S3 blobs", async () => {
    const url = `${dynamo.storeUrl}?prefix=one_&s3=${encodeURIComponent(s3.endpoint)}&s3BucketPrefix=one-`;
    const store = await openStore(url);
    try {
      expect(store.capabilities.backend).toBe("dynamodb");
      expect(store.blobCapabilities).toMatchObject({
        backend: "s3",
        maxContainerNameLength: 59,
        appendBlobs: false,
      });
      await store.createTable("Orders");
      await store.table("Orders").createEntity({ partitionKey: "p", rowKey: "r", blob: "orders/p/r" });
      const container = await store.createContainer("orders");
      await container.uploadBlockBlob("orders/p/r", "large payload", 13);
      const entity = await store.table("Orders").getEntity<{ blob: string }>("p", "r");
      expect((await container.getBlobClient(entity.blob).downloadToBuffer()).toString()).toBe(
        "large payload",
      );
      await store.deleteContainer("orders");
      await store.deleteTable("Orders");
    } finally {
      await store.close();
    }
  });

  it("the typed s3 option wins over the URL; a dynamodb: store without one has no blob port", async () => {
    const store = await openStore(`${dynamo.storeUrl}?s3=aws`, {
      s3: { endpoint: s3.endpoint, bucketPrefix: "typed-" },
    });
    expect(store.blobCapabilities?.maxContainerNameLength).toBe(57);
    await store.createContainer("box");
    expect(await store.container("box").exists()).toBe(true);
    await store.deleteContainer("box");
    await store.close();
    const tablesOnly = await openStore(dynamo.storeUrl);
    expect(tablesOnly.blobCapabilities).toBeUndefined();
    expect(() => tablesOnly.container("box")).toThrow(expect.objectContaining({ code: "NotSupported" }));
    await tablesOnly.close();
  });

  it("rejects a malformed s3 parameter or bucket prefix (InvalidStoreUrl)", async () => {
    await expect(openStore(`${dynamo.storeUrl}?s3=ftp://x`)).rejects.toMatchObject({
      code: "InvalidStoreUrl",
    });
    await expect(openStore(`${dynamo.storeUrl}?s3=aws&s3BucketPrefix=Bad_Prefix`)).rejects.toMatchObject({
      code: "InvalidStoreUrl",
    });
  });

  it("an azure: connection string naming the blob endpoint gives tables and blobs; one naming only tables, tables", async () => {
    const azurite = await startAzurite();
    try {
      const both = await openStore(`azure:${azurite.connectionString}`);
      expect(both.blobCapabilities?.backend).toBe("azure");
      await both.close();
      const tables = await openStore(azurite.storeUrl);
      expect(tables.blobCapabilities).toBeUndefined();
      await tables.close();
    } finally {
      await azurite.stop();
    }
  });
});
