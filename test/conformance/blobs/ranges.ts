import { describe, expect, it } from "vitest";
import { type BlobSuite, codeOf, patternBytes } from "./factory.js";

export const rangesSuite: BlobSuite = (target) => {
  describe("ranges", () => {
    it("downloads count bytes from an offset, to the end, and clips a count past the end", async () => {
      const c = await target().freshContainer();
      const body = patternBytes(300_000);
      const blob = c.getBlobClient("r");
      await c.uploadBlockBlob("r", body, body.length);
      expect((await blob.downloadToBuffer(1000, 5000)).equals(body.subarray(1000, 6000))).toBe(true);
      expect((await blob.downloadToBuffer(299_990)).equals(body.subarray(299_990))).toBe(true);
      expect((await blob.downloadToBuffer(299_999, 10)).equals(body.subarray(299_999))).toBe(true);
      const ranged = await blob.download(10, 20);
      expect(ranged.contentLength).toBe(20);
      expect(ranged.contentRange).toBe("bytes 10-29/300000");
      ranged.readableStreamBody.destroy();
    });

    it("answers InvalidRange for a range at or past the end, also on an empty blob", async () => {
      const c = await target().freshContainer();
      await c.uploadBlockBlob("ten", "0123456789", 10);
      await c.uploadBlockBlob("empty", "", 0);
      expect(await codeOf(c.getBlobClient("ten").download(10))).toBe("InvalidRange");
      expect(await codeOf(c.getBlobClient("ten").download(11, 1))).toBe("InvalidRange");
      expect(await codeOf(c.getBlobClient("empty").download(0, 1))).toBe("InvalidRange");
      expect((await c.getBlobClient("empty").downloadToBuffer()).length).toBe(0);
    });

    it("rejects malformed offsets and counts before any I/O", async () => {
      const c = target().store.container(target().freshContainerName());
      const blob = c.getBlobClient("never");
      for (const [offset, count] of [
        [-1, undefined],
        [1.5, undefined],
        [0, 0],
        [0, -3],
        [Number.NaN, 1],
      ] as const) {
        expect(await codeOf(blob.download(offset, count)), `${offset},${count}`).toBe("InvalidInput");
      }
    });
  });
};
