import { describe, expect } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, collect, patternBytes } from "./factory.js";

/** Incremental Copy Blob: a page blob snapshot into a destination that keeps a snapshot per copy. */
export const incrementalCopySuite: BlobSuite = (target) => {
  describe("incremental copy", () => {
    itWhen(
      target,
      (c) => c.incrementalCopy,
      "the backend does not copy incrementally (incrementalCopy: false)",
      "copies a page blob snapshot, takes a snapshot of the destination, and reads only its snapshots",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("disk");
        await disk.create(2048);
        await disk.uploadPages(patternBytes(512, 1), 0, 512);
        const first = (await disk.createSnapshot()).snapshot;
        const backup = c.getPageBlobClient("backup");
        expect(await codeOf(backup.startCopyIncremental(disk))).toBe("IncrementalCopySourceMustBeSnapshot");
        const copied = await backup.startCopyIncremental(disk.withSnapshot(first));
        expect(copied.copyStatus).toBe("success");
        const props = await backup.getProperties();
        expect(props).toMatchObject({
          blobType: "PageBlob",
          contentLength: 2048,
          isIncrementalCopy: true,
          destinationSnapshot: copied.destinationSnapshot,
        });
        expect(await codeOf(backup.downloadToBuffer())).toBe("OperationNotAllowedOnIncrementalCopyBlob");
        const kept = backup.withSnapshot(copied.destinationSnapshot);
        expect((await kept.downloadToBuffer(0, 512)).equals(patternBytes(512, 1))).toBe(true);
        // The next copy takes a later snapshot; an earlier one or another blob's is refused.
        await disk.uploadPages(patternBytes(512, 2), 1024, 512);
        const second = (await disk.createSnapshot()).snapshot;
        const again = await backup.startCopyIncremental(disk.withSnapshot(second));
        expect(again.destinationSnapshot > copied.destinationSnapshot).toBe(true);
        const diff = await backup
          .withSnapshot(again.destinationSnapshot)
          .getPageRangesDiff(0, undefined, copied.destinationSnapshot);
        expect(diff.pageRange).toEqual([{ start: 1024, end: 1535 }]);
        expect(await codeOf(backup.startCopyIncremental(disk.withSnapshot(first)))).toBe(
          "IncrementalCopyOfEarlierSnapshotNotAllowed",
        );
        const other = c.getPageBlobClient("other");
        await other.create(512);
        const otherSnap = (await other.createSnapshot()).snapshot;
        expect(await codeOf(backup.startCopyIncremental(other.withSnapshot(otherSnap)))).toBe(
          "IncrementalCopyBlobMismatch",
        );
        await c.uploadBlockBlob("plain", "x", 1);
        expect(
          await codeOf(c.getPageBlobClient("plain").startCopyIncremental(disk.withSnapshot(first))),
        ).toBe("IncrementalCopyBlobMismatch");
        const listed = await collect(c.listBlobsFlat({ prefix: "backup", includeSnapshots: true }));
        expect(listed.map((b) => b.snapshot)).toEqual([
          copied.destinationSnapshot,
          again.destinationSnapshot,
          undefined,
        ]);
        expect(listed[2]!.properties.isIncrementalCopy).toBe(true);
      },
    );

    itWhen(
      target,
      (c) => !c.incrementalCopy,
      "the backend copies incrementally",
      "answers NotSupported where the store does not copy incrementally",
      async () => {
        const c = await target().freshContainer();
        const disk = c.getPageBlobClient("disk");
        expect(
          await codeOf(
            c.getPageBlobClient("b").startCopyIncremental(disk.withSnapshot("2020-01-01T00:00:00Z")),
          ),
        ).toBe("NotSupported");
      },
    );
  });
};
