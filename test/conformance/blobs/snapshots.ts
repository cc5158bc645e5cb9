import { describe, expect, it } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, collect, patternBytes } from "./factory.js";

const NO_SNAPSHOTS = "the blob backend has no snapshots (snapshots: false)";
const SNAPSHOT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;

export const snapshotsSuite: BlobSuite = (target) => {
  describe("snapshots", () => {
    itWhen(
      target,
      (c) => c.snapshots,
      NO_SNAPSHOTS,
      "keeps a snapshot's bytes and metadata while the blob is rewritten, appended and deleted",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("doc");
        const first = patternBytes(200_000, 1);
        await blob.upload(first, first.length, { metadata: { version: "one" } });
        const taken = await blob.createSnapshot();
        expect(taken.snapshot).toMatch(SNAPSHOT_TIME);
        const withMeta = await blob.createSnapshot({ metadata: { label: "tagged" } });
        expect(withMeta.snapshot > taken.snapshot).toBe(true);
        await blob.upload("second", 6, { metadata: { version: "two" } });
        const old = blob.withSnapshot(taken.snapshot);
        expect(old.snapshot).toBe(taken.snapshot);
        expect((await old.downloadToBuffer()).equals(first)).toBe(true);
        expect((await old.downloadToBuffer(100, 10)).equals(first.subarray(100, 110))).toBe(true);
        expect(await old.getProperties()).toMatchObject({
          contentLength: 200_000,
          metadata: { version: "one" },
        });
        expect((await blob.withSnapshot(withMeta.snapshot).getProperties()).metadata).toEqual({
          label: "tagged",
        });
        expect((await blob.downloadToBuffer()).toString()).toBe("second");
        await blob.delete({ deleteSnapshots: "only" });
        expect(await old.exists()).toBe(false);
        expect((await blob.downloadToBuffer()).toString()).toBe("second");
      },
    );

    itWhen(
      target,
      (c) => c.snapshots && c.appendBlobs,
      `${NO_SNAPSHOTS}, or no append blobs`,
      "snapshots an append blob at its length: later appends stay out of it",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("log");
        await log.create();
        await log.appendBlock("one\n", 4);
        const { snapshot } = await log.createSnapshot();
        await log.appendBlock("two\n", 4);
        expect((await log.withSnapshot(snapshot).downloadToBuffer()).toString()).toBe("one\n");
        expect((await log.downloadToBuffer()).toString()).toBe("one\ntwo\n");
      },
    );

    itWhen(
      target,
      (c) => c.snapshots,
      NO_SNAPSHOTS,
      "refuses a plain delete of a blob with snapshots; include deletes both, one snapshot deletes alone",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlobClient("b");
        await c.uploadBlockBlob("b", "bytes", 5);
        const a = (await blob.createSnapshot()).snapshot;
        const b = (await blob.createSnapshot()).snapshot;
        expect(await codeOf(blob.delete())).toBe("SnapshotsPresent");
        expect(await codeOf(blob.deleteIfExists())).toBe("SnapshotsPresent");
        expect(await blob.exists()).toBe(true);
        await blob.withSnapshot(a).delete();
        expect(await blob.withSnapshot(a).exists()).toBe(false);
        expect(await codeOf(blob.withSnapshot(a).delete())).toBe("BlobNotFound");
        expect(await blob.withSnapshot(a).deleteIfExists()).toEqual({ succeeded: false });
        expect(await blob.withSnapshot(b).exists()).toBe(true);
        await blob.delete({ deleteSnapshots: "include" });
        expect(await blob.exists()).toBe(false);
        expect(await blob.withSnapshot(b).exists()).toBe(false);
        // Once its snapshots are gone, a plain delete goes through.
        await c.uploadBlockBlob("b", "again", 5);
        const s = (await blob.createSnapshot()).snapshot;
        await blob.withSnapshot(s).delete();
        await blob.delete();
        expect(await blob.exists()).toBe(false);
      },
    );

    itWhen(
      target,
      (c) => c.snapshots,
      NO_SNAPSHOTS,
      "lists snapshots before their blob, oldest first, across pages",
      async () => {
        const c = await target().freshContainer();
        await c.uploadBlockBlob("a", "a", 1);
        await c.uploadBlockBlob("b", "bb", 2, { metadata: { k: "v" } });
        const b = c.getBlobClient("b");
        const s1 = (await b.createSnapshot()).snapshot;
        const s2 = (await b.createSnapshot()).snapshot;
        await c.uploadBlockBlob("c", "ccc", 3);
        const plain = await collect(c.listBlobsFlat());
        expect(plain.map((i) => i.name)).toEqual(["a", "b", "c"]);
        expect(plain.every((i) => i.snapshot === undefined)).toBe(true);
        const all = await collect(c.listBlobsFlat({ includeSnapshots: true, includeMetadata: true }));
        expect(all.map((i) => [i.name, i.snapshot])).toEqual([
          ["a", undefined],
          ["b", s1],
          ["b", s2],
          ["b", undefined],
          ["c", undefined],
        ]);
        expect(all[1]).toMatchObject({ properties: { contentLength: 2 }, metadata: { k: "v" } });
        // Pages of two end inside b's snapshots and resume there.
        const pages = [];
        for await (const page of c.listBlobsFlat({ includeSnapshots: true }).byPage({ maxPageSize: 2 })) {
          pages.push(page.segment.blobItems.map((i) => `${i.name}${i.snapshot ? `@${i.snapshot}` : ""}`));
        }
        if (target().capabilities.divergences.some((d) => d.id === "snapshots-listed-after-blob")) {
          expect(pages.flat()).toEqual(expect.arrayContaining(["a", "b", "c"]));
        } else {
          expect(pages.flat()).toEqual(["a", `b@${s1}`, `b@${s2}`, "b", "c"]);
          expect(pages.length).toBe(3);
        }
      },
    );

    itWhen(
      target,
      (c) => c.snapshots,
      NO_SNAPSHOTS,
      "refuses every write through a snapshot, and a snapshot time that is not one",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("w");
        await blob.upload("v1", 2);
        const { snapshot } = await blob.createSnapshot();
        const snap = blob.withSnapshot(snapshot);
        expect(await codeOf(snap.upload("v2", 2))).toBe("InvalidQueryParameterValue");
        expect(await codeOf(snap.stageBlock("QUFB", "x", 1))).toBe("InvalidQueryParameterValue");
        expect(await codeOf(snap.commitBlockList([]))).toBe("InvalidQueryParameterValue");
        expect(await codeOf(snap.createSnapshot())).toBe("InvalidQueryParameterValue");
        expect(await codeOf(snap.delete({ deleteSnapshots: "include" }))).toBe("InvalidInput");
        expect((await blob.downloadToBuffer()).toString()).toBe("v1");
        expect((await snap.downloadToBuffer()).toString()).toBe("v1");
        for (const bad of [
          "yesterday",
          "2026-01-02T03:04:05.12345678Z",
          "2026-13-02T03:04:05Z",
          "2026-01-02 03:04:05Z",
        ]) {
          expect(() => blob.withSnapshot(bad), bad).toThrow(/snapshot/);
        }
        // Fewer fractional digits name the same snapshot.
        const short = snapshot.replace(/0+Z$/, "Z").replace(/\.Z$/, "Z");
        expect(blob.withSnapshot(short).snapshot).toBe(snapshot);
        // A time no snapshot has, and a snapshot of a blob that never existed.
        expect(await codeOf(blob.withSnapshot("2001-01-01T00:00:00.0000000Z").getProperties())).toBe(
          "BlobNotFound",
        );
        expect(await codeOf(c.getBlobClient("none").createSnapshot())).toBe("BlobNotFound");
        expect(await codeOf(blob.createSnapshot({ conditions: { ifMatch: '"0x1"' } }))).toBe(
          "ConditionNotMet",
        );
      },
    );

    itWhen(
      target,
      (c) => !c.snapshots,
      "the blob backend has snapshots",
      "answers NotSupported for every snapshot call where the backend has none",
      async () => {
        const c = await target().freshContainer();
        await c.uploadBlockBlob("n", "x", 1);
        const blob = c.getBlobClient("n");
        expect(await codeOf(blob.createSnapshot())).toBe("NotSupported");
        expect(await codeOf(blob.withSnapshot("2026-01-01T00:00:00.0000000Z").download())).toBe(
          "NotSupported",
        );
        expect(await codeOf(blob.delete({ deleteSnapshots: "include" }))).toBe("NotSupported");
        expect(await codeOf(collect(c.listBlobsFlat({ includeSnapshots: true })))).toBe("NotSupported");
        expect(await blob.exists()).toBe(true);
      },
    );

    it("deletes a container with its snapshots", async () => {
      const c = await target().freshContainer();
      await c.uploadBlockBlob("x", "x", 1);
      if (target().capabilities.snapshots) await c.getBlobClient("x").createSnapshot();
      await c.delete();
      expect(await c.exists()).toBe(false);
    });
  });
};
