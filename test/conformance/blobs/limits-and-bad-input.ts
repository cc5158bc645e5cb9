import { describe, expect, it } from "vitest";
import { type BlobSuite, codeOf } from "./factory.js";

/**
 * A name of exactly `n` units of the backend's measure (ASCII: characters and bytes agree), in
 * short path segments: the limit is on the whole name (and s3rver keeps each segment as a file name).
 */
const nameOf = (n: number) =>
  `${"abcdefghi/".repeat(Math.floor((n - 1) / 10))}${"z".repeat(n - 10 * Math.floor((n - 1) / 10))}`;

export const limitsSuite: BlobSuite = (target) => {
  describe("limits and bad input", () => {
    it("takes a blob name at the length limit and refuses one past it", async () => {
      const t = target();
      const c = await t.freshContainer();
      const max = t.capabilities.maxBlobNameLength;
      await c.uploadBlockBlob(nameOf(max), "x", 1);
      expect((await c.getBlobClient(nameOf(max)).downloadToBuffer()).toString()).toBe("x");
      expect(await codeOf(c.uploadBlockBlob(nameOf(max + 1), "x", 1))).toBe("InvalidResourceName");
    });

    it("refuses names a URL would rewrite, control characters and unpaired surrogates", async () => {
      const c = target().store.container(target().freshContainerName());
      for (const bad of [
        "",
        "a.",
        "a/",
        "a/./b",
        "../a",
        "a\\b",
        "a\u0000b",
        "tab\there",
        "\ud800",
        `${"a/".repeat(254)}a`,
      ]) {
        expect(await codeOf(c.uploadBlockBlob(bad, "x", 1)), JSON.stringify(bad)).toBe("InvalidResourceName");
      }
    });

    it("takes metadata at the size limit and refuses one byte more", async () => {
      const t = target();
      const c = await t.freshContainer();
      const max = t.capabilities.maxMetadataBytes;
      const atLimit = { name: "v".repeat(max - 4) };
      await c.uploadBlockBlob("m", "x", 1, { metadata: atLimit });
      expect((await c.getBlobClient("m").getProperties()).metadata).toEqual(atLimit);
      expect(await codeOf(c.uploadBlockBlob("m2", "x", 1, { metadata: { name: "v".repeat(max - 3) } }))).toBe(
        "MetadataTooLarge",
      );
      expect(await c.getBlobClient("m2").exists()).toBe(false);
    });

    it("refuses bad metadata names and values before any I/O", async () => {
      const c = target().store.container(target().freshContainerName());
      for (const metadata of [
        { "1abc": "x" },
        { "a-b": "x" },
        { "a b": "x" },
        { ok: "é" },
        { ok: " padded" },
        { ok: "line\nbreak" },
        { Same: "1", same: "2" },
        { ok: 5 as unknown as string },
      ] as Record<string, string>[]) {
        expect(await codeOf(c.uploadBlockBlob("x", "x", 1, { metadata })), JSON.stringify(metadata)).toBe(
          "InvalidMetadata",
        );
      }
    });

    it("refuses a contentLength that is not the body's and a body that is not bytes", async () => {
      const c = target().store.container(target().freshContainerName());
      expect(await codeOf(c.uploadBlockBlob("x", "abc", 2))).toBe("InvalidInput");
      expect(await codeOf(c.uploadBlockBlob("x", 42 as unknown as string, 2))).toBe("InvalidInput");
      expect(
        await codeOf(c.getBlockBlobClient("x").uploadStream("text" as unknown as AsyncIterable<Uint8Array>)),
      ).toBe("InvalidInput");
      expect(
        await codeOf(c.uploadBlockBlob("x", "x", 1, { blobHTTPHeaders: { blobContentType: "tëxt/plain" } })),
      ).toBe("InvalidInput");
    });

    it("a stream that fails or holds a non-byte chunk leaves the blob as it was", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("kept");
      await blob.upload("original", 8);
      async function* failing() {
        yield Buffer.alloc(100_000, 1);
        throw new Error("source broke");
      }
      async function* textChunk() {
        yield Buffer.from("fine");
        yield "not bytes" as unknown as Uint8Array;
      }
      expect(await codeOf(blob.uploadStream(failing()))).not.toBe("ok");
      expect(await codeOf(blob.uploadStream(textChunk()))).toBe("InvalidInput");
      expect((await blob.downloadToBuffer()).toString()).toBe("original");
    });
  });
};
