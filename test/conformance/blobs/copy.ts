import { describe, expect, it } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, collect, patternBytes } from "./factory.js";

export const copySuite: BlobSuite = (target) => {
  describe("copy", () => {
    it("copies a blob of the store with its metadata and content type, or the metadata given", async () => {
      const c = await target().freshContainer();
      const other = await target().freshContainer();
      const body = patternBytes(150_000, 3);
      await c.uploadBlockBlob("src", body, body.length, {
        metadata: { origin: "first" },
        blobHTTPHeaders: { blobContentType: "text/plain" },
      });
      const source = c.getBlobClient("src");
      const copied = await other.getBlobClient("dst").syncCopyFromURL(source);
      expect(copied.copyStatus).toBe("success");
      expect(copied.copyId).toMatch(/^[0-9a-f-]{36}$/);
      const dst = other.getBlobClient("dst");
      expect((await dst.downloadToBuffer()).equals(body)).toBe(true);
      expect(await dst.getProperties()).toMatchObject({
        contentLength: 150_000,
        contentType: "text/plain",
        metadata: { origin: "first" },
      });
      const poller = await c.getBlobClient("dst2").beginCopyFromURL(source, { metadata: { fresh: "yes" } });
      const done = await poller.pollUntilDone();
      expect(done.copyStatus).toBe("success");
      expect((await c.getBlobClient("dst2").getProperties()).metadata).toEqual({ fresh: "yes" });
      // The source stays as it was; rewriting the copy never touches it.
      await c.uploadBlockBlob("dst2", "changed", 7);
      expect((await source.downloadToBuffer()).equals(body)).toBe(true);
    });

    itWhen(
      target,
      (caps) => caps.copyProperties,
      "the backend records no copy properties (copyProperties: false)",
      "reports the copy's properties until the blob is written again",
      async () => {
        const c = await target().freshContainer();
        await c.uploadBlockBlob("s", "12345", 5);
        const dst = c.getBlobClient("d");
        const copied = await dst.syncCopyFromURL(c.getBlobClient("s"), { sourceUrl: "http://example/s" });
        const props = await dst.getProperties();
        expect(props).toMatchObject({
          copyId: copied.copyId,
          copyStatus: "success",
          copySource: "http://example/s",
          copyProgress: "5/5",
        });
        expect(props.copyCompletedOn).toBeInstanceOf(Date);
        // Listings give them with includeCopy only.
        const listed = await collect(c.listBlobsFlat({ includeCopy: true }));
        expect(listed.find((i) => i.name === "d")?.properties).toMatchObject({
          copyId: copied.copyId,
          copyStatus: "success",
          copySource: "http://example/s",
          copyProgress: "5/5",
        });
        expect(listed.find((i) => i.name === "s")?.properties.copyId).toBeUndefined();
        const plain = await collect(c.listBlobsFlat());
        expect(plain.find((i) => i.name === "d")?.properties.copyId).toBeUndefined();
        await c.uploadBlockBlob("d", "other", 5);
        expect((await dst.getProperties()).copyId).toBeUndefined();
      },
    );

    it("applies source and destination conditions, and answers a missing source", async () => {
      const c = await target().freshContainer();
      const put = await c.uploadBlockBlob("s", "abc", 3);
      const source = c.getBlobClient("s");
      const dst = c.getBlobClient("d");
      expect(await codeOf(dst.syncCopyFromURL(source, { sourceConditions: { ifMatch: '"0x1"' } }))).toBe(
        "SourceConditionNotMet",
      );
      expect(
        await codeOf(dst.syncCopyFromURL(source, { sourceConditions: { ifNoneMatch: put.response.etag } })),
      ).toBe("SourceConditionNotMet");
      expect(await dst.exists()).toBe(false);
      await dst.syncCopyFromURL(source, { sourceConditions: { ifMatch: put.response.etag } });
      expect(await codeOf(dst.syncCopyFromURL(source, { conditions: { ifNoneMatch: "*" } }))).toBe(
        target().capabilities.conditionalWrites ? "BlobAlreadyExists" : "NotSupported",
      );
      expect(await codeOf(dst.syncCopyFromURL(c.getBlobClient("missing")))).toBe("CannotVerifyCopySource");
      expect(await codeOf(dst.abortCopyFromURL("some-id"))).toBe("NoPendingCopyOperation");
      expect(await codeOf(c.getBlobClient("nothing").abortCopyFromURL("some-id"))).toBe("BlobNotFound");
      expect(await codeOf(dst.syncCopyFromURL("not a url"))).toBe("InvalidInput");
      expect(await codeOf(dst.syncCopyFromURL("ftp://host/x"))).toBe("InvalidInput");
    });

    itWhen(
      target,
      (caps) => caps.snapshots,
      "the blob backend has no snapshots (snapshots: false)",
      "copies a snapshot back over its blob (restoring a version)",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("v");
        await blob.upload("version 1", 9);
        const { snapshot } = await blob.createSnapshot();
        await blob.upload("version 2", 9);
        await blob.syncCopyFromURL(blob.withSnapshot(snapshot));
        expect((await blob.downloadToBuffer()).toString()).toBe("version 1");
        expect(await codeOf(blob.withSnapshot(snapshot).syncCopyFromURL(c.getBlobClient("v")))).toBe(
          "InvalidQueryParameterValue",
        );
        await blob.delete({ deleteSnapshots: "include" });
      },
    );

    itWhen(
      target,
      (caps) => caps.blocks,
      "the blob backend has no staged blocks (blocks: false)",
      "stages blocks from ranges of another blob and uploads a blob from one",
      async () => {
        const c = await target().freshContainer();
        const body = patternBytes(10_000, 5);
        await c.uploadBlockBlob("s", body, body.length, { blobHTTPHeaders: { blobContentType: "x/y" } });
        const source = c.getBlobClient("s");
        const dst = c.getBlockBlobClient("d");
        await dst.stageBlockFromURL("QUFB", source, 0, 4000);
        await dst.stageBlockFromURL("QkJC", source, 4000);
        await dst.commitBlockList(["QkJC", "QUFB"]);
        const out = await dst.downloadToBuffer();
        expect(out.equals(Buffer.concat([body.subarray(4000), body.subarray(0, 4000)]))).toBe(true);
        const whole = c.getBlockBlobClient("w");
        await whole.syncUploadFromURL(source, { metadata: { own: "1" } });
        expect((await whole.downloadToBuffer()).equals(body)).toBe(true);
        expect(await whole.getProperties()).toMatchObject({ contentType: "x/y", metadata: { own: "1" } });
        expect(await codeOf(dst.stageBlockFromURL("Q0ND", source, 20_000, 10))).toBe(
          "CannotVerifyCopySource",
        );
      },
    );
  });
};
