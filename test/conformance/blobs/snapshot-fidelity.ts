import { describe, expect } from "vitest";
import type { BlobCapabilities } from "../../../src/index.js";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, patternBytes } from "./factory.js";

const diverges = (c: BlobCapabilities, id: string) => c.divergences.some((d) => d.id === id);

/** A snapshot keeps everything the blob had when it was taken: pages, seal, tags, block list. */
export const snapshotFidelitySuite: BlobSuite = (target) => {
  describe("what a snapshot keeps", () => {
    itWhen(
      target,
      (c) => c.snapshots && c.pageBlobs,
      "no snapshots or no page blobs",
      "keeps a page blob's pages as they were through later writes, clears and resizes",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("disk");
        await disk.create(4096);
        const first = patternBytes(1024, 1);
        await disk.uploadPages(first, 0, 1024);
        await disk.uploadPages(patternBytes(512, 2), 2048, 512);
        const { snapshot } = await disk.createSnapshot();
        await disk.uploadPages(patternBytes(512, 3), 512, 512);
        await disk.clearPages(2048, 512);
        await disk.resize(1024);
        const old = disk.withSnapshot(snapshot);
        const bytes = await old.downloadToBuffer();
        expect(bytes.length).toBe(4096);
        expect(bytes.subarray(0, 1024).equals(first)).toBe(true);
        expect(bytes.subarray(2048, 2560).equals(patternBytes(512, 2))).toBe(true);
        expect(bytes.subarray(1024, 2048).every((b) => b === 0)).toBe(true);
        expect((await old.downloadToBuffer(2048, 512)).equals(patternBytes(512, 2))).toBe(true);
        const ranges = await old.getPageRanges();
        expect(ranges.blobContentLength).toBe(4096);
        expect(ranges.pageRange).toEqual([
          { start: 0, end: 1023 },
          { start: 2048, end: 2559 },
        ]);
        // The blob moved on.
        expect((await disk.getPageRanges()).blobContentLength).toBe(1024);
        expect((await disk.downloadToBuffer(512, 512)).equals(patternBytes(512, 3))).toBe(true);
        // A snapshot is read-only.
        expect(await codeOf(old.uploadPages(first, 0, 1024))).toBe("InvalidQueryParameterValue");
        // Deleting the blob's snapshots and the blob leaves nothing readable.
        await disk.delete({ deleteSnapshots: "include" });
        expect(await old.exists()).toBe(false);
      },
    );

    itWhen(
      target,
      (c) => c.snapshots && c.pageBlobs,
      "no snapshots or no page blobs",
      "answers Get Page Ranges' diff: written (even with the same bytes) and cleared since a snapshot",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("disk");
        await disk.create(1024 * 1024 * 2);
        const page = patternBytes(512, 7);
        await disk.uploadPages(page, 0, 512);
        await disk.uploadPages(page, 1024 * 1024, 512);
        await disk.uploadPages(page, 4096, 512);
        const before = (await disk.createSnapshot()).snapshot;
        await disk.uploadPages(page, 0, 512); // the same bytes again: still a write
        await disk.clearPages(1024 * 1024, 512);
        const diff = await disk.getPageRangesDiff(0, undefined, before);
        const cleared = { start: 1024 * 1024, end: 1024 * 1024 + 511 };
        if (diverges(target().capabilities, "page-ranges-diff-lists-unchanged")) {
          expect(diff.pageRange).toContainEqual({ start: 0, end: 511 });
          return;
        }
        expect(diff.pageRange).toEqual([{ start: 0, end: 511 }]);
        expect(diff.clearRange).toEqual([cleared]);
        // Between two snapshots, from the newer one's client; a range limits it.
        const after = (await disk.createSnapshot()).snapshot;
        await disk.uploadPages(page, 8192, 512);
        const between = await disk.withSnapshot(after).getPageRangesDiff(0, undefined, before);
        expect(between.pageRange).toEqual([{ start: 0, end: 511 }]);
        expect(between.clearRange).toEqual([cleared]);
        const limited = await disk.getPageRangesDiff(0, 1024 * 1024, after);
        expect(limited.pageRange).toEqual([{ start: 8192, end: 8703 }]);
        expect(limited.clearRange).toEqual([]);
        expect(await codeOf(disk.withSnapshot(before).getPageRangesDiff(0, undefined, after))).toBe(
          "PreviousSnapshotCannotBeNewer",
        );
        await disk.withSnapshot(before).delete();
        expect(await codeOf(disk.getPageRangesDiff(0, undefined, before))).toBe("PreviousSnapshotNotFound");
        expect(await codeOf(disk.getPageRangesDiff(0, undefined, "not a time"))).toBe(
          "InvalidQueryParameterValue",
        );
      },
    );

    itWhen(
      target,
      (c) => c.snapshots && c.copiesPageBlobs,
      "no snapshots, or copies of page blobs are block blobs (copiesPageBlobs: false)",
      "copies a page blob onto itself without losing its pages, and from one of its snapshots",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("disk");
        await disk.create(2048);
        await disk.uploadPages(patternBytes(512, 4), 512, 512);
        const { snapshot } = await disk.createSnapshot();
        await disk.uploadPages(patternBytes(512, 5), 1024, 512);
        await disk.syncCopyFromURL(disk, { metadata: { again: "yes" } });
        const now = await disk.downloadToBuffer();
        expect(now.subarray(512, 1024).equals(patternBytes(512, 4))).toBe(true);
        expect(now.subarray(1024, 1536).equals(patternBytes(512, 5))).toBe(true);
        expect((await disk.getPageRanges()).pageRange).toHaveLength(2);
        const restored = c.getPageBlobClient("restored");
        await restored.syncCopyFromURL(disk.withSnapshot(snapshot));
        const back = await restored.downloadToBuffer();
        expect(back.subarray(512, 1024).equals(patternBytes(512, 4))).toBe(true);
        expect(back.subarray(1024, 1536).every((b) => b === 0)).toBe(true);
      },
    );

    itWhen(
      target,
      (c) => c.snapshots && c.pageBlobs,
      "no snapshots or no page blobs",
      "clears more than one write may carry, up to the whole blob, while a snapshot keeps the pages",
      async () => {
        const c = await target().freshContainer();
        const size = 2 * target().capabilities.maxPageWriteBytes;
        const disk = c.getPageBlobClient("big");
        await disk.create(size);
        await disk.uploadPages(patternBytes(512, 9), 0, 512);
        await disk.uploadPages(patternBytes(512, 8), size - 512, 512);
        const { snapshot } = await disk.createSnapshot();
        expect(await codeOf(disk.uploadPages(Buffer.alloc(size), 0, size))).toBe("RequestBodyTooLarge");
        await disk.clearPages(0, size);
        expect((await disk.getPageRanges()).pageRange).toEqual([]);
        const old = disk.withSnapshot(snapshot);
        expect((await old.downloadToBuffer(size - 512, 512)).equals(patternBytes(512, 8))).toBe(true);
        expect((await old.getPageRanges()).pageRange).toHaveLength(2);
      },
    );

    itWhen(
      target,
      (c) => c.snapshots && c.sealAppendBlobs,
      "no snapshots or no sealed append blobs",
      "keeps an append blob's seal",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("log");
        await log.create();
        await log.appendBlock("one", 3);
        await log.seal();
        const { snapshot } = await log.createSnapshot();
        expect((await log.withSnapshot(snapshot).getProperties()).isSealed).toBe(true);
        // The seal is not copied; sealBlob seals the copy (where copies keep the blob's type).
        if (target().capabilities.copiesPageBlobs) {
          const copy = c.getAppendBlobClient("copy");
          await copy.syncCopyFromURL(log);
          expect((await copy.getProperties()).isSealed).toBe(false);
          const sealed = c.getAppendBlobClient("sealed-copy");
          await (await sealed.beginCopyFromURL(log, { sealBlob: true })).pollUntilDone();
          expect((await sealed.getProperties()).isSealed).toBe(true);
          expect(await codeOf(sealed.appendBlock("x", 1))).toBe("BlobIsSealed");
        }
        const open = c.getAppendBlobClient("open");
        await open.create();
        const taken = (await open.createSnapshot()).snapshot;
        expect((await open.withSnapshot(taken).getProperties()).isSealed).toBeFalsy();
      },
    );

    itWhen(
      target,
      (c) => c.snapshots && c.tags,
      "no snapshots or no tags",
      "keeps the blob's tags as they were; a snapshot's own tags can be set, the blob's stay",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlobClient("b");
        await c.uploadBlockBlob("b", "x", 1, { tags: { stage: "draft" } });
        const { snapshot } = await blob.createSnapshot();
        await blob.setTags({ stage: "final", extra: "1" });
        const old = blob.withSnapshot(snapshot);
        expect((await old.getTags()).tags).toEqual({ stage: "draft" });
        expect((await old.getProperties()).tagCount).toBe(1);
        expect((await blob.getProperties()).tagCount).toBe(2);
        expect((await blob.getTags()).tags).toEqual({ stage: "final", extra: "1" });
        await old.setTags({ a: "b" });
        expect((await old.getTags()).tags).toEqual({ a: "b" });
        expect((await blob.getTags()).tags).toEqual({ stage: "final", extra: "1" });
        if (!diverges(target().capabilities, "set-tags-ignores-if-tags")) {
          expect(await codeOf(old.setTags({ a: "b" }, { conditions: { tagConditions: `"a" = 'c'` } }))).toBe(
            "ConditionNotMet",
          );
        }
        expect(await codeOf(blob.withSnapshot("2020-01-01T00:00:00.0000000Z").setTags({ a: "b" }))).toBe(
          "BlobNotFound",
        );
        expect(await codeOf(blob.withSnapshot("2020-01-01T00:00:00.0000000Z").getTags())).toBe(
          "BlobNotFound",
        );
      },
    );

    itWhen(
      target,
      (c) => c.snapshots && c.blocks,
      "no snapshots or no block lists",
      "keeps the committed block list, not the staged blocks",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("b");
        const id = (n: number) => Buffer.from(`block-${n}`).toString("base64");
        await blob.stageBlock(id(1), "aaa", 3);
        await blob.stageBlock(id(2), "bb", 2);
        await blob.commitBlockList([id(1), id(2)]);
        await blob.stageBlock(id(3), "c", 1);
        const { snapshot } = await blob.createSnapshot();
        await blob.commitBlockList([id(3)]);
        const list = await blob.withSnapshot(snapshot).getBlockList("all");
        expect(list.committedBlocks).toEqual([
          { name: id(1), size: 3 },
          { name: id(2), size: 2 },
        ]);
        expect(list.uncommittedBlocks).toEqual([]);
        expect(list.blobContentLength).toBe(5);
        expect((await blob.getBlockList("committed")).committedBlocks).toEqual([{ name: id(3), size: 1 }]);
      },
    );
  });
};
