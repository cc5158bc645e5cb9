/**
 * tablekit/storage-blob's `undelete` and `includeDeleted` on an embedded store whose delete
 * retention policy is on (set through the store: the SDK's service properties are not offered).
 */
import { afterAll, expect, it } from "vitest";
import { BlobServiceClient, closeStorageBlobStores } from "../../src/storage-blob/index.js";
import { openStore } from "../../src/store/index.js";

afterAll(() => closeStorageBlobStores());

it("restores a soft-deleted blob through the SDK-shaped clients", async () => {
  const url = "memory:storage-blob-undelete";
  const store = await openStore(url);
  try {
    await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days: 3 } });
    const service = BlobServiceClient.fromConnectionString(url);
    const { containerClient } = await service.createContainer("kept");
    const blob = containerClient.getBlockBlobClient("a.txt");
    await blob.uploadData(Buffer.from("hello"));
    await blob.delete();
    expect(await blob.exists()).toBe(false);
    const listed = [];
    for await (const item of containerClient.listBlobsFlat({ includeDeleted: true })) listed.push(item);
    expect(listed.map((b) => [b.name, b.deleted, b.properties.remainingRetentionDays])).toEqual([
      ["a.txt", true, 3],
    ]);
    const answer = await blob.undelete();
    expect(answer.requestId).toBeDefined();
    expect((await blob.downloadToBuffer()).toString()).toBe("hello");
  } finally {
    await store.close();
  }
});
