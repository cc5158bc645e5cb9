import { describe, expect } from "vitest";
import type { BlobContainer, BlobItem } from "../../../src/index.js";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, type BlobTarget, codeOf, collect } from "./factory.js";

const NO_SOFT_DELETE = "the blob backend keeps no soft-deleted blobs (softDelete: false)";
const NO_PROPERTIES = "the blob backend keeps no service properties";

/** Soft delete on, with the retention days given, for the span of `work`; off again after. */
async function withRetention(t: BlobTarget, days: number, work: () => Promise<void>): Promise<void> {
  await t.store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days } });
  try {
    await work();
  } finally {
    await t.store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: false } });
  }
}

/** Every item of the container's flat listing, with the options given. */
function listAll(
  c: BlobContainer,
  options: { includeDeleted?: boolean; includeSnapshots?: boolean } = {},
): Promise<BlobItem[]> {
  return collect(c.listBlobsFlat(options));
}

const softDeleting = (caps: BlobTarget["capabilities"], t: BlobTarget) =>
  caps.softDelete && t.store.stateCapabilities.serviceProperties.blobs;

export const softDeleteSuite: BlobSuite = (target) => {
  describe("soft delete", () => {
    itWhen(
      target,
      (_caps, t) => t.store.stateCapabilities.serviceProperties.blobs,
      NO_PROPERTIES,
      "takes retention days of 1 and 365, refuses 0 and 366 and writes nothing",
      async () => {
        const { store } = target();
        try {
          for (const days of [0, 366]) {
            expect(
              await codeOf(
                store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days } }),
              ),
            ).toBe("InvalidXmlNodeValue");
            expect((await store.getServiceProperties("blob")).deleteRetentionPolicy?.enabled).toBe(false);
          }
          for (const days of [1, 365]) {
            await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days } });
            expect((await store.getServiceProperties("blob")).deleteRetentionPolicy).toEqual({
              enabled: true,
              days,
            });
          }
        } finally {
          await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: false } });
        }
      },
    );

    itWhen(
      target,
      softDeleting,
      NO_SOFT_DELETE,
      "keeps a deleted blob out of every read, listing and write, then undeletes it whole",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        await withRetention(t, 7, async () => {
          const blob = c.getBlockBlobClient("kept");
          await blob.upload("precious", 8, {
            metadata: { owner: "ann" },
            ...(t.capabilities.tags ? { tags: { project: "sd-kept" } } : {}),
          });
          await c.uploadBlockBlob("other", "x", 1);
          // The delete says it kept the blob, where the backend tells (Azure's SDK does not).
          expect((await blob.delete()).softDeleted).not.toBe(false);

          // Hidden: reads, properties, a plain listing, a tag search, a copy from it, a lease, metadata.
          expect(await codeOf(blob.downloadToBuffer())).toBe("BlobNotFound");
          expect(await blob.exists()).toBe(false);
          expect(await codeOf(blob.getProperties())).toBe("BlobNotFound");
          expect((await listAll(c)).map((b) => b.name)).toEqual(["other"]);
          if (t.capabilities.findByTags) {
            expect(await collect(c.findBlobsByTags(`"project" = 'sd-kept'`))).toEqual([]);
          }
          // A copy from it answers what a copy from a blob that never existed answers.
          const missing = await codeOf(c.getBlobClient("copy").syncCopyFromURL(c.getBlobClient("never")));
          expect(missing).not.toBe("ok");
          expect(await codeOf(c.getBlobClient("copy").syncCopyFromURL(blob))).toBe(missing);
          const begin = (from: typeof blob) =>
            codeOf((async () => (await c.getBlobClient("copy").beginCopyFromURL(from)).pollUntilDone())());
          expect(await begin(blob)).toBe(await begin(c.getBlockBlobClient("never")));
          expect(await c.getBlobClient("copy").exists()).toBe(false);
          if (t.capabilities.leases) {
            expect(await codeOf(blob.getBlobLeaseClient().acquireLease(15))).toBe("BlobNotFound");
          }
          expect(await codeOf(blob.setMetadata({ sneaky: "yes" }))).toBe("BlobNotFound");
          if (t.capabilities.tags) expect(await codeOf(blob.getTags())).toBe("BlobNotFound");
          // A second delete finds nothing to delete.
          expect(await codeOf(blob.delete())).toBe("BlobNotFound");

          const listed = await listAll(c, { includeDeleted: true });
          expect(listed.map((b) => [b.name, b.deleted === true])).toEqual([
            ["kept", true],
            ["other", false],
          ]);
          const kept = listed[0]!;
          expect(kept.properties.deletedOn).toBeInstanceOf(Date);
          expect(Math.abs(kept.properties.deletedOn!.getTime() - Date.now())).toBeLessThan(120_000);
          expect(kept.properties.remainingRetentionDays).toBeGreaterThanOrEqual(6);
          expect(kept.properties.remainingRetentionDays).toBeLessThanOrEqual(7);
          expect(kept.properties.contentLength).toBe(8);

          await blob.undelete();
          expect((await blob.downloadToBuffer()).toString()).toBe("precious");
          expect((await blob.getProperties()).metadata).toEqual({ owner: "ann" });
          if (t.capabilities.tags) expect((await blob.getTags()).tags).toEqual({ project: "sd-kept" });
          expect((await listAll(c, { includeDeleted: true })).map((b) => [b.name, b.deleted])).toEqual([
            ["kept", undefined],
            ["other", undefined],
          ]);
        });
      },
    );

    itWhen(
      target,
      (caps, t) => softDeleting(caps, t) && caps.snapshots,
      `${NO_SOFT_DELETE}, or no snapshots`,
      "soft-deletes a blob with its snapshots, or one snapshot, and undelete brings each back",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        await withRetention(t, 1, async () => {
          const blob = c.getBlockBlobClient("doc");
          await blob.upload("one", 3);
          const { snapshot } = await blob.createSnapshot();
          await blob.upload("two", 3);
          // The overwrite kept "one" again, as a soft-deleted snapshot.
          const overwritten = (await listAll(c, { includeDeleted: true, includeSnapshots: true })).filter(
            (b) => b.deleted,
          );
          expect(overwritten).toHaveLength(1);
          expect(overwritten[0]!.snapshot! > snapshot).toBe(true);

          // One snapshot alone: hidden, then back with undelete on the live blob.
          await blob.withSnapshot(snapshot).delete();
          expect(await blob.withSnapshot(snapshot).exists()).toBe(false);
          expect((await listAll(c, { includeSnapshots: true })).map((b) => b.snapshot)).toEqual([undefined]);
          await blob.undelete();
          expect((await blob.withSnapshot(snapshot).downloadToBuffer()).toString()).toBe("one");
          expect((await blob.withSnapshot(overwritten[0]!.snapshot!).downloadToBuffer()).toString()).toBe(
            "one",
          );

          // The blob with its snapshots: a plain delete is still refused, `include` keeps them all.
          expect(await codeOf(blob.delete())).toBe("SnapshotsPresent");
          await blob.delete({ deleteSnapshots: "include" });
          expect(await listAll(c, { includeSnapshots: true })).toEqual([]);
          const deleted = await listAll(c, { includeDeleted: true, includeSnapshots: true });
          expect(deleted.map((b) => [b.snapshot === undefined ? "blob" : "snapshot", b.deleted])).toEqual([
            ["snapshot", true],
            ["snapshot", true],
            ["blob", true],
          ]);
          // Without includeSnapshots, only the deleted blob.
          expect((await listAll(c, { includeDeleted: true })).map((b) => b.snapshot)).toEqual([undefined]);
          await blob.undelete();
          expect((await blob.downloadToBuffer()).toString()).toBe("two");
          expect((await listAll(c, { includeSnapshots: true })).map((b) => b.snapshot ?? "blob")).toEqual([
            snapshot,
            overwritten[0]!.snapshot,
            "blob",
          ]);
        });
      },
    );

    itWhen(
      target,
      (caps, t) => softDeleting(caps, t) && caps.blocks && caps.accessTiers,
      `${NO_SOFT_DELETE}, or no block lists or tiers`,
      "an undeleted blob has its committed block list and tier again",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        await withRetention(t, 1, async () => {
          const blob = c.getBlockBlobClient("built");
          const ids = ["YmxvY2stMQ==", "YmxvY2stMg=="];
          await blob.stageBlock(ids[0]!, "ab", 2);
          await blob.stageBlock(ids[1]!, "cd", 2);
          await blob.commitBlockList(ids);
          await blob.setAccessTier("Cool");
          await blob.delete();
          expect(await codeOf(blob.getBlockList("committed"))).toBe("BlobNotFound");
          await blob.undelete();
          const list = await blob.getBlockList("committed");
          expect(list.committedBlocks?.map((b) => b.name)).toEqual(ids);
          expect((await blob.getProperties()).accessTier).toBe("Cool");
          expect((await blob.downloadToBuffer()).toString()).toBe("abcd");
        });
      },
    );

    itWhen(
      target,
      (caps, t) => softDeleting(caps, t) && caps.snapshots,
      `${NO_SOFT_DELETE}, or no snapshots`,
      "pages of one item list live and soft-deleted blobs and snapshots once each, in order",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        await withRetention(t, 1, async () => {
          for (const name of ["a", "b", "c/1", "c/2", "d"]) await c.uploadBlockBlob(name, name, name.length);
          await c.getBlobClient("b").createSnapshot();
          await c.uploadBlockBlob("b", "b2", 2); // a soft-deleted snapshot of "b"
          await c.getBlobClient("a").delete();
          await c.getBlobClient("c/2").delete();
          const all = async (maxPageSize: number) => {
            const seen: string[] = [];
            for await (const page of c
              .listBlobsFlat({ includeDeleted: true, includeSnapshots: true })
              .byPage({ maxPageSize })) {
              for (const b of page.segment.blobItems) {
                seen.push(`${b.name}${b.snapshot ? "@s" : ""}${b.deleted ? "-deleted" : ""}`);
              }
            }
            return seen;
          };
          const expected = ["a-deleted", "b@s", "b@s-deleted", "b", "c/1", "c/2-deleted", "d"];
          expect(await all(1)).toEqual(expected);
          expect(await all(2)).toEqual(expected);
          expect(await all(100)).toEqual(expected);
          const top: string[] = [];
          for await (const item of c.listBlobsByHierarchy("/", { includeDeleted: true })) {
            top.push(
              item.kind === "prefix" ? `${item.name}(dir)` : `${item.name}${item.deleted ? "-deleted" : ""}`,
            );
          }
          expect(top).toEqual(["a-deleted", "b", "c/(dir)", "d"]);
        });
      },
    );

    itWhen(
      target,
      (caps, t) => softDeleting(caps, t) && caps.snapshots,
      `${NO_SOFT_DELETE}, or no snapshots`,
      "a blob written over a soft-deleted one keeps it as a soft-deleted snapshot undelete restores",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        await withRetention(t, 2, async () => {
          const blob = c.getBlockBlobClient("name");
          await blob.upload("old", 3);
          await blob.delete();
          await blob.upload("new!", 4);
          expect((await blob.downloadToBuffer()).toString()).toBe("new!");
          const all = await listAll(c, { includeDeleted: true, includeSnapshots: true });
          expect(all.map((b) => [b.snapshot === undefined, b.deleted === true])).toEqual([
            [false, true],
            [true, false],
          ]);
          await blob.undelete();
          // The live blob stays; the old one is back as its snapshot.
          expect((await blob.downloadToBuffer()).toString()).toBe("new!");
          expect((await blob.withSnapshot(all[0]!.snapshot!).downloadToBuffer()).toString()).toBe("old");
        });
      },
    );

    itWhen(
      target,
      softDeleting,
      NO_SOFT_DELETE,
      "undelete of a live blob changes nothing; of a name never written is BlobNotFound; with the policy off deletes are final",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        await withRetention(t, 1, async () => {
          const blob = c.getBlockBlobClient("live");
          const written = await blob.upload("same", 4);
          await blob.undelete();
          expect((await blob.getProperties()).etag).toBe(written.etag);
          expect(await codeOf(c.getBlobClient("never").undelete())).toBe("BlobNotFound");
        });
        // Off: the delete is final, nothing to list or undelete.
        const gone = c.getBlockBlobClient("gone");
        await gone.upload("bye", 3);
        await gone.delete();
        expect(await listAll(c, { includeDeleted: true })).toHaveLength(1);
        expect(await codeOf(gone.undelete())).toBe("BlobNotFound");
        expect(await gone.exists()).toBe(false);
      },
    );

    itWhen(
      target,
      (caps, t) => softDeleting(caps, t) && caps.persistent && t.openStore !== undefined,
      `${NO_SOFT_DELETE}, or the data does not outlive the store`,
      "a soft-deleted blob outlives the store: another store on the data undeletes it",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        await withRetention(t, 3, async () => {
          await c.uploadBlockBlob("durable", "still here", 10);
          await c.getBlobClient("durable").delete();
          const other = await t.openStore!();
          try {
            const again = other.container(c.containerName);
            expect((await listAll(again, { includeDeleted: true })).map((b) => b.deleted)).toEqual([true]);
            await again.getBlobClient("durable").undelete();
          } finally {
            await other.close();
          }
          expect((await c.getBlobClient("durable").downloadToBuffer()).toString()).toBe("still here");
        });
      },
    );

    itWhen(
      target,
      (caps) => !caps.softDelete,
      "the blob backend keeps soft-deleted blobs",
      "undelete and includeDeleted are NotSupported and write nothing",
      async () => {
        const c = await target().freshContainer();
        await c.uploadBlockBlob("b", "x", 1);
        expect(await codeOf(c.getBlobClient("b").undelete())).toBe("NotSupported");
        expect(await codeOf(listAll(c, { includeDeleted: true }))).toBe("NotSupported");
        expect((await c.getBlobClient("b").downloadToBuffer()).toString()).toBe("x");
      },
    );
  });
};
