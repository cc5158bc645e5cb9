/**
 * tablekit/storage-blob on a store whose blob port lacks features (S3 through s3rver): what the
 * port's capabilities say it cannot do answers the RestError the SDK would get from a service that
 * refuses it, and the basics still run. Branches on the capabilities, never on the backend's name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobServiceClient, closeStorageBlobStores, isRestError } from "../../src/storage-blob/index.js";
import type { BlobCapabilities } from "../../src/store/index.js";
import { openStore } from "../../src/store/index.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../support/dynamodb-local.js";
import { type S3Server, startS3rver } from "../support/s3rver.js";

let dynamo: DynamoDbLocal;
let s3: S3Server;
let storeUrl: string;
let capabilities: BlobCapabilities;

beforeAll(async () => {
  [dynamo, s3] = await Promise.all([startDynamoDbLocal(), startS3rver()]);
  const url = new URL(dynamo.storeUrl);
  url.searchParams.set("s3", s3.endpoint);
  url.searchParams.set("s3BucketPrefix", "tk-");
  storeUrl = url.toString();
  const store = await openStore(storeUrl);
  capabilities = store.blobCapabilities!;
  await store.close();
}, 240_000);

afterAll(async () => {
  await closeStorageBlobStores();
  await Promise.all([dynamo?.stop(), s3?.stop()]);
});

async function refusal(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "no error";
  } catch (err) {
    if (!isRestError(err)) return `not a RestError: ${String(err)}`;
    return `${err.statusCode} ${err.code} ${(err.details as { errorCode?: string }).errorCode}`;
  }
}

describe("tablekit/storage-blob where the blob port lacks a feature", () => {
  it("runs the basics, and answers each missing feature with a 501 NotSupported RestError", async () => {
    // The store this test needs: one that lacks at least these features.
    expect([
      capabilities.leases,
      capabilities.snapshots,
      capabilities.tags,
      capabilities.appendBlobs,
      capabilities.softDelete,
    ]).toEqual([false, false, false, false, false]);
    const service = BlobServiceClient.fromConnectionString(storeUrl);
    const { containerClient } = await service.createContainer("limits");
    const blob = containerClient.getBlockBlobClient("a.txt");
    await blob.uploadData(Buffer.from("hello"));
    expect((await blob.downloadToBuffer()).toString()).toBe("hello");

    const notSupported = "501 NotSupported NotSupported";
    expect(await refusal(() => blob.getBlobLeaseClient().acquireLease(15))).toBe(notSupported);
    expect(await refusal(() => containerClient.getBlobLeaseClient().acquireLease(15))).toBe(notSupported);
    expect(await refusal(() => blob.createSnapshot())).toBe(notSupported);
    expect(await refusal(() => blob.setTags({ a: "1" }))).toBe(notSupported);
    expect(await refusal(() => blob.getTags())).toBe(notSupported);
    expect(await refusal(() => containerClient.getAppendBlobClient("log").create())).toBe(notSupported);
    expect(await refusal(() => blob.undelete())).toBe(notSupported);
    // Nothing was written by a refused call.
    const names: string[] = [];
    for await (const item of containerClient.listBlobsFlat()) names.push(item.name);
    expect(names).toEqual(["a.txt"]);
  }, 120_000);
});
