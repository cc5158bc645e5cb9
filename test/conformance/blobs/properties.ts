import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { BlobCapabilities } from "../../../src/index.js";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf } from "./factory.js";

const diverges = (c: BlobCapabilities, id: string) => c.divergences.some((d) => d.id === id);

const md5 = (text: string) => new Uint8Array(createHash("md5").update(text).digest());

export const propertiesSuite: BlobSuite = (target) => {
  describe("blob properties", () => {
    itWhen(
      target,
      (c) => c.contentHeaders,
      "the backend keeps no content headers",
      "keeps the content headers given on upload and on a block list commit, and reports them in listings",
      async () => {
        const c = await target().freshContainer();
        const headers = {
          blobContentType: "text/html",
          blobCacheControl: "max-age=60",
          blobContentEncoding: "identity",
          blobContentLanguage: "en-GB",
          blobContentDisposition: 'attachment; filename="a.html"',
        };
        const blob = c.getBlockBlobClient("page.html");
        await blob.upload("<p>", 3, { blobHTTPHeaders: headers });
        const p = await blob.getProperties();
        expect(p).toMatchObject({
          contentType: "text/html",
          cacheControl: "max-age=60",
          contentEncoding: "identity",
          contentLanguage: "en-GB",
          contentDisposition: 'attachment; filename="a.html"',
        });
        const download = await blob.download();
        download.readableStreamBody.destroy();
        expect(download.cacheControl).toBe("max-age=60");
        const items = [];
        // With metadata: a backend whose listings carry no headers (S3) reads each blob's.
        for await (const item of c.listBlobsFlat({ includeMetadata: true })) items.push(item);
        expect(items[0]!.properties).toMatchObject({ cacheControl: "max-age=60", contentLanguage: "en-GB" });
        if (target().capabilities.blocks) {
          const committed = c.getBlockBlobClient("blocks");
          await committed.stageBlock(Buffer.from("b1").toString("base64"), "ab", 2);
          await committed.commitBlockList([Buffer.from("b1").toString("base64")], {
            blobHTTPHeaders: { blobCacheControl: "no-store" },
          });
          expect((await committed.getProperties()).cacheControl).toBe("no-store");
        }
      },
    );

    itWhen(
      target,
      (c) => c.contentMD5,
      "the backend keeps no Content-MD5",
      "keeps the Content-MD5 of a single upload, or the one a block list commit gives",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("a");
        await blob.upload("hello", 5);
        expect([...((await blob.getProperties()).contentMD5 ?? [])]).toEqual([...md5("hello")]);
        await blob.upload("hello", 5, { blobHTTPHeaders: { blobContentMD5: md5("hello") } });
        expect([...((await blob.getProperties()).contentMD5 ?? [])]).toEqual([...md5("hello")]);
        if (!target().capabilities.blocks) return;
        // A commit's MD5 is kept as given: the blocks were checked when staged.
        const given = md5("declared by the caller");
        const id = Buffer.from("b1").toString("base64");
        await blob.stageBlock(id, "hello", 5);
        await blob.commitBlockList([id], { blobHTTPHeaders: { blobContentMD5: given } });
        expect([...((await blob.getProperties()).contentMD5 ?? [])]).toEqual([...given]);
      },
    );

    itWhen(
      target,
      (c) => c.contentMD5 && c.appendBlobs,
      "the backend keeps no Content-MD5, or has no append blobs",
      "computes no Content-MD5 for an append blob: created, appended, or given one",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("log");
        await log.create();
        expect((await log.getProperties()).contentMD5).toBeUndefined();
        await log.appendBlock("line\n", 5);
        expect((await log.getProperties()).contentMD5).toBeUndefined();
        if (!diverges(target().capabilities, "append-blob-download-md5")) {
          expect((await log.download()).contentMD5).toBeUndefined();
        }
        const given = md5("declared");
        await log.create({ blobHTTPHeaders: { blobContentMD5: given } });
        expect([...((await log.getProperties()).contentMD5 ?? [])]).toEqual([...given]);
      },
    );

    itWhen(
      target,
      (c) => c.contentMD5 && c.appendBlobs && c.pageBlobs,
      "the backend keeps no Content-MD5, or has no append or page blobs",
      "keeps an empty append or page blob's Content-MD5 as given (1 to 64 bytes), as Set Blob Properties does",
      async () => {
        const c = await target().freshContainer();
        const odd = new Uint8Array([1, 2, 3, 4, 5]);
        const log = c.getAppendBlobClient("log");
        await log.create({ blobHTTPHeaders: { blobContentMD5: odd } });
        expect([...((await log.getProperties()).contentMD5 ?? [])]).toEqual([...odd]);
        const disk = c.getPageBlobClient("disk");
        await disk.create(512, { blobHTTPHeaders: { blobContentMD5: odd } });
        expect([...((await disk.getProperties()).contentMD5 ?? [])]).toEqual([...odd]);
        expect(await codeOf(log.create({ blobHTTPHeaders: { blobContentMD5: new Uint8Array(65) } }))).toBe(
          "InvalidInput",
        );
        expect(
          await codeOf(disk.create(512, { blobHTTPHeaders: { blobContentMD5: new Uint8Array(0) } })),
        ).toBe("InvalidInput");
      },
    );

    it("refuses a Content-MD5 that is not 16 bytes and a header that is not printable ASCII", async () => {
      const c = target().store.container(target().freshContainerName());
      const upload = (blobHTTPHeaders: object) => codeOf(c.uploadBlockBlob("x", "x", 1, { blobHTTPHeaders }));
      expect(await upload({ blobContentMD5: new Uint8Array(15) })).toBe("InvalidInput");
      expect(await upload({ blobContentMD5: new Uint8Array(17) })).toBe("InvalidInput");
      expect(await upload({ blobCacheControl: "tëxt" })).toBe("InvalidInput");
      expect(await upload({ blobContentLanguage: " en" })).toBe("InvalidInput");
    });

    itWhen(
      target,
      (c) => c.setProperties,
      "the backend cannot change a blob's properties in place",
      "setHTTPHeaders replaces every content header, clearing those not given; bytes and metadata stay",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("doc");
        const first = await blob.upload("body", 4, {
          blobHTTPHeaders: { blobContentType: "text/plain", blobCacheControl: "no-cache" },
          metadata: { k: "v" },
        });
        const set = await blob.setHTTPHeaders({ blobContentLanguage: "fr" });
        expect(set.etag).not.toBe(first.etag);
        const p = await blob.getProperties();
        expect(p.contentLanguage).toBe("fr");
        expect(p.cacheControl).toBeUndefined();
        expect(p.contentMD5).toBeUndefined();
        expect(p.metadata).toEqual({ k: "v" });
        expect((await blob.downloadToBuffer()).toString()).toBe("body");
        expect(await codeOf(blob.setHTTPHeaders({}, { conditions: { ifMatch: first.etag } }))).toBe(
          "ConditionNotMet",
        );
        expect(await codeOf(c.getBlobClient("missing").setHTTPHeaders({}))).toBe("BlobNotFound");
      },
    );

    itWhen(
      target,
      (c) => c.setProperties,
      "the backend cannot change a blob's properties in place",
      "setMetadata replaces the metadata (empty values kept), keeps the bytes and content headers",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("doc");
        await blob.upload("body", 4, {
          blobHTTPHeaders: { blobContentType: "text/plain" },
          metadata: { a: "1" },
        });
        await blob.setMetadata({ b: "2", Mixed: "", c: "" });
        const p = await blob.getProperties();
        const mixed = target().capabilities.metadataKeepsCase ? "Mixed" : "mixed";
        const dropsEmpty = target().capabilities.divergences.some((d) => d.id === "empty-metadata-dropped");
        expect(p.metadata).toEqual(dropsEmpty ? { b: "2" } : { b: "2", [mixed]: "", c: "" });
        expect(p.contentType).toBe("text/plain");
        await blob.setMetadata();
        expect((await blob.getProperties()).metadata).toEqual({});
        expect((await blob.downloadToBuffer()).toString()).toBe("body");
      },
    );

    it("answers NotSupported for setHTTPHeaders and setMetadata where the backend cannot change them in place", async () => {
      if (target().capabilities.setProperties) return;
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("doc");
      await blob.upload("x", 1);
      expect(await codeOf(blob.setHTTPHeaders({}))).toBe("NotSupported");
      expect(await codeOf(blob.setMetadata({ a: "b" }))).toBe("NotSupported");
    });

    it("keeps the creation time across an overwrite where the backend reports it", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("t");
      await blob.upload("1", 1);
      const created = (await blob.getProperties()).createdOn;
      const resets = target().capabilities.divergences.some(
        (d) => d.id === "creation-time-reset-on-overwrite",
      );
      if (created === undefined || resets) return;
      await new Promise((r) => setTimeout(r, 1100));
      await blob.upload("2", 1);
      const after = await blob.getProperties();
      expect(after.createdOn?.getTime()).toBe(created.getTime());
      expect(after.lastModified.getTime()).toBeGreaterThan(created.getTime());
    });

    it("refuses two metadata names that differ only in case", async () => {
      const c = target().store.container(target().freshContainerName());
      expect(await codeOf(c.uploadBlockBlob("x", "x", 1, { metadata: { Name: "1", nAme: "2" } }))).toBe(
        "InvalidMetadata",
      );
    });
  });
};
