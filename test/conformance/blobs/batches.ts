import { describe, expect, it } from "vitest";
import { TableKitError } from "../../../src/index.js";
import { type BlobSuite, codeOf, collect } from "./factory.js";

/** BlobBatchClient on the port: deleteBlobs and setBlobsAccessTier, one result per blob, limits checked before any call. */
export const batchesSuite: BlobSuite = (target) => {
  describe("blob batches", () => {
    it("deletes blobs by name and by client, each result in order; a missing blob is its own 404", async () => {
      const t = target();
      const container = await t.freshContainer();
      for (const blob of ["a", "b", "c"]) await container.uploadBlockBlob(blob, "x", 1);
      const result = await container
        .getBlobBatchClient()
        .deleteBlobs(["a", "missing", container.getBlobClient("c")]);
      expect(result.subResponses.map((r) => [r.blobName, r.status, r.errorCode])).toEqual([
        ["a", 202, undefined],
        ["missing", 404, "BlobNotFound"],
        ["c", 202, undefined],
      ]);
      expect([result.subResponsesSucceededCount, result.subResponsesFailedCount]).toEqual([2, 1]);
      expect((await collect(container.listBlobsFlat())).map((b) => b.name)).toEqual(["b"]);
    });

    it("a blob's conditions give the same outcome as the single call (412, or NotSupported where the port refuses them)", async () => {
      const t = target();
      const container = await t.freshContainer();
      await container.uploadBlockBlob("a", "x", 1);
      await container.uploadBlockBlob("b", "x", 1);
      const conditions = { ifMatch: '"0x1"' };
      const single = await codeOf(container.getBlobClient("a").delete({ conditions }));
      const result = await container.getBlobBatchClient().deleteBlobs(["b"], { conditions });
      expect(result.subResponses[0]!.errorCode).toBe(single);
      expect(result.subResponses[0]!.error).toBeInstanceOf(TableKitError);
      expect((await collect(container.listBlobsFlat())).length).toBe(2);
    });

    it("the service's batch spans containers; a container's batch refuses another container's blob before running any", async () => {
      const t = target();
      const one = await t.freshContainer();
      const two = await t.freshContainer();
      await one.uploadBlockBlob("a", "x", 1);
      await two.uploadBlockBlob("a", "x", 1);
      expect(await codeOf(one.getBlobBatchClient().deleteBlobs(["a", two.getBlobClient("a")]))).toBe(
        "InvalidInput",
      );
      expect((await collect(one.listBlobsFlat())).length).toBe(1);
      const result = await t.store
        .getBlobBatchClient()
        .deleteBlobs([one.getBlobClient("a"), two.getBlobClient("a")]);
      expect(result.subResponses.map((r) => r.status)).toEqual([202, 202]);
      expect(await codeOf(t.store.getBlobBatchClient().deleteBlobs(["a"]))).toBe("InvalidInput");
    });

    it("256 blobs are one batch; 257 and none are InvalidInput with nothing deleted", async () => {
      const t = target();
      const container = await t.freshContainer();
      await container.uploadBlockBlob("keep", "x", 1);
      const over = Array.from({ length: 257 }, (_, i) => (i === 0 ? "keep" : `n${i}`));
      expect(await codeOf(container.getBlobBatchClient().deleteBlobs(over))).toBe("InvalidInput");
      expect(await codeOf(container.getBlobBatchClient().deleteBlobs([]))).toBe("InvalidInput");
      expect((await collect(container.listBlobsFlat())).length).toBe(1);
      const at = await container.getBlobBatchClient().deleteBlobs(over.slice(0, 256));
      expect(at.subResponses).toHaveLength(256);
      expect([at.subResponsesSucceededCount, at.subResponsesFailedCount]).toEqual([1, 255]);
    });

    it("setBlobsAccessTier answers per blob: the port's Set Blob Tier where it has one, NotSupported where not", async () => {
      const t = target();
      const container = await t.freshContainer();
      await container.uploadBlockBlob("a", "x", 1);
      const result = await container.getBlobBatchClient().setBlobsAccessTier(["a"], "Cool");
      const caps = t.store.blobCapabilities!;
      expect(result.subResponses[0]!.errorCode).toBe(caps.accessTiers ? undefined : "NotSupported");
      if (caps.accessTiers) {
        expect((await container.getBlobClient("a").getProperties()).accessTier).toBe("Cool");
      }
    });
  });
};
