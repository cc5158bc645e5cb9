import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type BlobSuite, codeOf, patternBytes, patternStream, readAll } from "./factory.js";

const MiB = 1024 * 1024;

export const roundTripsSuite: BlobSuite = (target) => {
  describe("round trips", () => {
    it("stores an empty blob, a small one and a multi-MiB one byte for byte", async () => {
      const c = await target().freshContainer();
      const bodies = {
        empty: Buffer.alloc(0),
        small: Buffer.from("héllo, wörld"),
        large: patternBytes(5 * MiB + 3),
      };
      for (const [name, body] of Object.entries(bodies)) {
        const { response } = await c.uploadBlockBlob(name, body, body.length);
        expect(response.etag).toMatch(/^"/);
        const blob = c.getBlobClient(name);
        expect((await blob.downloadToBuffer()).equals(body), name).toBe(true);
        const download = await blob.download();
        expect(download.contentLength).toBe(body.length);
        expect(download.etag).toBe(response.etag);
        expect((await readAll(download.readableStreamBody)).equals(body)).toBe(true);
      }
    });

    it("uploads from text, bytes, an ArrayBuffer and streams of unknown length", async () => {
      const c = await target().freshContainer();
      const block = c.getBlockBlobClient("text");
      await block.uploadData("abc");
      expect((await block.downloadToBuffer()).toString()).toBe("abc");
      await block.uploadData(new Uint8Array([1, 2, 3]).buffer);
      expect([...(await block.downloadToBuffer())]).toEqual([1, 2, 3]);
      const total = 3 * MiB + 17;
      const fromGenerator = c.getBlockBlobClient("stream/generator");
      await fromGenerator.uploadStream(patternStream(total, 100_000, 7));
      expect((await fromGenerator.downloadToBuffer()).equals(patternBytes(total, 7))).toBe(true);
      const fromReadable = c.getBlockBlobClient("stream/readable");
      await fromReadable.uploadStream(Readable.from(patternStream(MiB, 65_536, 3)));
      expect((await fromReadable.downloadToBuffer()).equals(patternBytes(MiB, 3))).toBe(true);
      const empty = c.getBlockBlobClient("stream/empty");
      await empty.uploadStream(Readable.from([]));
      expect((await empty.getProperties()).contentLength).toBe(0);
    });

    it("uploads a stream in parts of bufferSize (blocks, multipart) and reassembles it", async () => {
      const c = await target().freshContainer();
      const total = 11 * MiB + 5;
      const blob = c.getBlockBlobClient("parts");
      let progress = 0;
      await blob.uploadStream(patternStream(total, 256 * 1024, 9), 5 * MiB, 2, {
        onProgress: (p) => {
          progress = p.loadedBytes;
        },
      });
      expect(progress).toBe(total);
      expect((await blob.downloadToBuffer()).equals(patternBytes(total, 9))).toBe(true);
    });

    it("keeps content type and metadata (names in their case where the backend keeps it), and reports properties", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("doc.json");
      const { etag } = await blob.upload("{}", 2, {
        blobHTTPHeaders: { blobContentType: "application/json" },
        metadata: { Author: "Ada", _rev: "7", empty_ok: "a b" },
      });
      const props = await blob.getProperties();
      expect(props).toMatchObject({
        etag,
        contentLength: 2,
        contentType: "application/json",
        blobType: "BlockBlob",
        metadata: {
          [target().capabilities.metadataKeepsCase ? "Author" : "author"]: "Ada",
          _rev: "7",
          empty_ok: "a b",
        },
      });
      expect(props.lastModified).toBeInstanceOf(Date);
      const plain = c.getBlockBlobClient("plain");
      await plain.upload("x", 1);
      expect(await plain.getProperties()).toMatchObject({
        contentType: "application/octet-stream",
        metadata: {},
      });
      const replaced = await blob.upload("[]", 2);
      expect(replaced.etag).not.toBe(etag);
      expect((await blob.getProperties()).metadata).toEqual({});
    });

    it("deletes, reports existence and answers BlobNotFound", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("gone");
      expect(await blob.exists()).toBe(false);
      expect(await codeOf(blob.download())).toBe("BlobNotFound");
      expect(await codeOf(blob.getProperties())).toBe("BlobNotFound");
      expect(await codeOf(blob.delete())).toBe("BlobNotFound");
      expect(await blob.deleteIfExists()).toEqual({ succeeded: false });
      await blob.upload("x", 1);
      expect(await blob.exists()).toBe(true);
      // With no retention policy nothing is kept: softDeleted false, or absent where the backend does not say.
      const deleted = await blob.deleteIfExists();
      expect(deleted.succeeded).toBe(true);
      expect(deleted.softDeleted).not.toBe(true);
      await blob.upload("y", 1);
      await c.deleteBlob("gone");
      expect(await blob.exists()).toBe(false);
    });

    it("keeps names with spaces, unicode, percent signs and deep paths apart", async () => {
      const c = await target().freshContainer();
      const names = ["a b", "ü/ñ/日本", "100%", "a%2Fb", "a/b", "x?y#z&w=1", "emoji 😀", "+plus"];
      for (const n of names) await c.uploadBlockBlob(n, n, Buffer.byteLength(n));
      for (const n of names) expect((await c.getBlobClient(n).downloadToBuffer()).toString(), n).toBe(n);
    });
  });
};
