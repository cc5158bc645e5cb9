import { describe, expect } from "vitest";
import type { BlobCapabilities } from "../../../src/index.js";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, patternBytes } from "./factory.js";

const NO_PAGES = "the blob backend has no page blobs (pageBlobs: false; S3 objects are written whole)";
const pages = (c: BlobCapabilities) => c.pageBlobs;
const MiB = 1024 * 1024;
/** The bytes the ranges cover, adjacent ranges merged: backends may keep a write's boundaries or not. */
function covered(ranges: readonly { start: number; end: number }[]) {
  const out: { start: number; end: number }[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && last.end + 1 === r.start) out[out.length - 1] = { start: last.start, end: r.end };
    else out.push({ ...r });
  }
  return out;
}
const diverges = (c: BlobCapabilities, id: string) => c.divergences.some((d) => d.id === id);

export const pagesSuite: BlobSuite = (target) => {
  describe("page blobs", () => {
    itWhen(
      target,
      pages,
      NO_PAGES,
      "writes, clears and reads pages; unwritten pages read as zeros",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("disk.vhd");
        await disk.create(8 * 512, { blobSequenceNumber: 7, metadata: { kind: "disk" } });
        expect(await disk.getProperties()).toMatchObject({
          blobType: "PageBlob",
          contentLength: 4096,
          blobSequenceNumber: 7,
          metadata: { kind: "disk" },
        });
        expect((await disk.downloadToBuffer()).equals(Buffer.alloc(4096))).toBe(true);
        const a = patternBytes(1024, 1);
        const b = patternBytes(512, 2);
        const written = await disk.uploadPages(a, 512, 1024);
        expect(written.blobSequenceNumber).toBe(7);
        await disk.uploadPages(b, 3072, 512);
        await disk.uploadPages(patternBytes(512, 3), 1536, 512); // adjacent: one range in the list
        expect(covered((await disk.getPageRanges()).pageRange)).toEqual([
          { start: 512, end: 2047 },
          { start: 3072, end: 3583 },
        ]);
        await disk.clearPages(1024, 512);
        const ranges = await disk.getPageRanges();
        expect(covered(ranges.pageRange)).toEqual([
          { start: 512, end: 1023 },
          { start: 1536, end: 2047 },
          { start: 3072, end: 3583 },
        ]);
        expect(ranges.blobContentLength).toBe(4096);
        expect(covered((await disk.getPageRanges(600, 1000)).pageRange)).toEqual([
          { start: 600, end: 1023 },
          { start: 1536, end: 1599 },
        ]);
        const expected = Buffer.alloc(4096);
        a.copy(expected, 512, 0, 512);
        patternBytes(512, 3).copy(expected, 1536);
        b.copy(expected, 3072);
        expect((await disk.downloadToBuffer()).equals(expected)).toBe(true);
        expect((await disk.downloadToBuffer(1000, 700)).equals(expected.subarray(1000, 1700))).toBe(true);
      },
    );

    itWhen(
      target,
      (c) => c.pageBlobs && c.contentHeaders && c.tags && c.tagConditions,
      `${NO_PAGES}, or no content headers or tags`,
      "creates a page blob with its content headers and tags, under tag conditions; no MD5 is computed",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("disk.vhd");
        await disk.create(1024, {
          blobHTTPHeaders: { blobContentType: "application/x-vhd", blobCacheControl: "no-cache" },
          tags: { kind: "disk" },
        });
        const p = await disk.getProperties();
        expect(p).toMatchObject({ contentType: "application/x-vhd", cacheControl: "no-cache", tagCount: 1 });
        expect(p.contentMD5).toBeUndefined();
        expect((await disk.getTags()).tags).toEqual({ kind: "disk" });
        expect(await codeOf(disk.create(512, { conditions: { tagConditions: `"kind" = 'other'` } }))).toBe(
          "ConditionNotMet",
        );
        expect((await disk.getProperties()).contentLength).toBe(1024);
        await disk.create(512, { conditions: { tagConditions: `"kind" = 'disk'` } });
        const again = await disk.getProperties();
        expect(again.contentLength).toBe(512);
        expect(again.cacheControl).toBeUndefined();
        expect(again.tagCount ?? 0).toBe(0);
      },
    );

    itWhen(target, pages, NO_PAGES, "overwrites part of a written range", async () => {
      const c = await target().freshContainer();
      const disk = c.getPageBlobClient("d");
      await disk.create(4 * 512);
      await disk.uploadPages(patternBytes(2048, 1), 0, 2048);
      await disk.uploadPages(patternBytes(512, 9), 1024, 512);
      const expected = patternBytes(2048, 1);
      patternBytes(512, 9).copy(expected, 1024);
      expect((await disk.downloadToBuffer()).equals(expected)).toBe(true);
      expect(covered((await disk.getPageRanges()).pageRange)).toEqual([{ start: 0, end: 2047 }]);
    });

    itWhen(target, pages, NO_PAGES, "resizes and runs the sequence-number actions", async () => {
      const c = await target().freshContainer();
      const disk = c.getPageBlobClient("d");
      await disk.create(2048);
      await disk.uploadPages(patternBytes(2048, 4), 0, 2048);
      await disk.resize(1024);
      expect(covered((await disk.getPageRanges()).pageRange)).toEqual([{ start: 0, end: 1023 }]);
      await disk.resize(4096);
      const grown = await disk.downloadToBuffer();
      expect(grown.subarray(0, 1024).equals(patternBytes(2048, 4).subarray(0, 1024))).toBe(true);
      expect(grown.subarray(1024).equals(Buffer.alloc(3072))).toBe(true);
      expect((await disk.updateSequenceNumber("update", 10)).blobSequenceNumber).toBe(10);
      expect((await disk.updateSequenceNumber("max", 5)).blobSequenceNumber).toBe(10);
      expect((await disk.updateSequenceNumber("max", 12)).blobSequenceNumber).toBe(12);
      expect((await disk.updateSequenceNumber("increment")).blobSequenceNumber).toBe(13);
      expect((await disk.getProperties()).blobSequenceNumber).toBe(13);
    });

    itWhen(
      target,
      pages,
      NO_PAGES,
      "applies sequence-number and ETag conditions, writing nothing when they fail",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("d");
        const created = await disk.create(1024, { blobSequenceNumber: 5 });
        const page = patternBytes(512, 1);
        const fails = [
          { ifSequenceNumberLessThanOrEqualTo: 4 },
          { ifSequenceNumberLessThan: 5 },
          { ifSequenceNumberEqualTo: 6 },
        ];
        const checked = !diverges(target().capabilities, "page-sequence-conditions-ignored");
        for (const conditions of checked ? fails : []) {
          expect(await codeOf(disk.uploadPages(page, 0, 512, { conditions }))).toBe(
            "SequenceNumberConditionNotMet",
          );
        }
        expect(covered((await disk.getPageRanges()).pageRange)).toEqual([]);
        await disk.uploadPages(page, 0, 512, {
          conditions: {
            ifSequenceNumberLessThanOrEqualTo: 5,
            ifSequenceNumberLessThan: 6,
            ifSequenceNumberEqualTo: 5,
          },
        });
        expect(await codeOf(disk.clearPages(0, 512, { conditions: { ifMatch: created.etag } }))).toBe(
          "ConditionNotMet",
        );
        expect(covered((await disk.getPageRanges()).pageRange)).toEqual([{ start: 0, end: 511 }]);
      },
    );

    itWhen(
      target,
      pages,
      NO_PAGES,
      "refuses misaligned, oversized and out-of-blob writes, and page calls on other blobs",
      async () => {
        const caps = target().capabilities;
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("d");
        expect(await codeOf(disk.create(1000))).toBe("InvalidInput");
        expect(await codeOf(disk.create(caps.maxPageBlobBytes + 512))).toBe("InvalidInput");
        await disk.create(caps.maxPageBlobBytes); // the largest: costs nothing until written
        await disk.resize(16 * MiB);
        expect(await codeOf(disk.uploadPages(patternBytes(512), 100, 512))).toBe("InvalidPageRange");
        expect(await codeOf(disk.uploadPages(patternBytes(500), 0, 500))).toBe("InvalidPageRange");
        expect(await codeOf(disk.clearPages(0, 0))).toBe("InvalidPageRange");
        const over = caps.maxPageWriteBytes + 512;
        expect(await codeOf(disk.uploadPages(Buffer.alloc(over), 0, over))).toBe("RequestBodyTooLarge");
        await disk.uploadPages(Buffer.alloc(caps.maxPageWriteBytes, 1), 0, caps.maxPageWriteBytes);
        expect(await codeOf(disk.uploadPages(patternBytes(512), 16 * MiB, 512))).toBe("InvalidPageRange");
        if (!diverges(caps, "page-write-past-end")) {
          expect(await codeOf(disk.uploadPages(patternBytes(1024), 16 * MiB - 512, 1024))).toBe(
            "InvalidPageRange",
          );
        }
        expect(await codeOf(disk.getPageRanges(16 * MiB, 512))).toBe("InvalidRange");
        await c.getBlockBlobClient("b").upload("x", 1);
        expect(await codeOf(c.getPageBlobClient("b").uploadPages(patternBytes(512), 0, 512))).toBe(
          "InvalidBlobType",
        );
        expect(await codeOf(c.getPageBlobClient("missing").getPageRanges())).toBe("BlobNotFound");
      },
    );

    itWhen(
      target,
      pages,
      NO_PAGES,
      "a page blob is replaced by an upload and lists as a page blob",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("d");
        await disk.create(1024);
        await disk.uploadPages(patternBytes(512, 1), 0, 512);
        const items = [];
        for await (const item of c.listBlobsFlat()) items.push(item);
        expect(items.map((i) => [i.name, i.properties.blobType, i.properties.contentLength])).toEqual([
          ["d", "PageBlob", 1024],
        ]);
        await c.getBlockBlobClient("d").upload("abc", 3);
        expect((await c.getBlobClient("d").downloadToBuffer()).toString()).toBe("abc");
        await disk.create(1024);
        expect(covered((await disk.getPageRanges()).pageRange)).toEqual([]);
      },
    );

    itWhen(
      target,
      (c) => !c.pageBlobs,
      "the blob backend has page blobs (pageBlobs: true), so there is no refusal to check",
      "answers NotSupported for page blobs",
      async () => {
        const c = await target().freshContainer();
        expect(await codeOf(c.getPageBlobClient("d").create(512))).toBe("NotSupported");
      },
    );
  });
};
