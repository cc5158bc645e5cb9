import { describe, expect, it } from "vitest";
import { type BlobSuite, codeOf } from "./factory.js";

export const abortSuite: BlobSuite = (target) => {
  describe("abort", () => {
    it("an already-aborted signal is Aborted before any I/O", async () => {
      const c = target().store.container(target().freshContainerName());
      const abortSignal = AbortSignal.abort(new Error("stop"));
      expect(await codeOf(c.create({ abortSignal }))).toBe("Aborted");
      expect(await c.exists()).toBe(false);
      expect(await codeOf(c.getBlockBlobClient("b").upload("x", 1, { abortSignal }))).toBe("Aborted");
      expect(await codeOf(c.getBlobClient("b").download(0, undefined, { abortSignal }))).toBe("Aborted");
    });

    it("an abort during a streamed upload leaves the blob as it was", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("kept");
      await blob.upload("before", 6);
      const controller = new AbortController();
      async function* slow() {
        yield Buffer.alloc(64 * 1024, 1);
        controller.abort(new Error("user cancelled"));
        yield Buffer.alloc(64 * 1024, 2);
      }
      expect(
        await codeOf(blob.uploadStream(slow(), undefined, undefined, { abortSignal: controller.signal })),
      ).toBe("Aborted");
      expect((await blob.downloadToBuffer()).toString()).toBe("before");
    });
  });
};
