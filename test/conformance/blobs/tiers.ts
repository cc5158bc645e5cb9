import { describe, expect } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf } from "./factory.js";

const NO_TIERS = "the blob backend has no access tiers (accessTiers: false, e.g. S3)";

export const tiersSuite: BlobSuite = (target) => {
  describe("access tiers", () => {
    itWhen(
      target,
      (c) => c.accessTiers,
      NO_TIERS,
      "a block blob starts Hot (inferred); setAccessTier moves it, the ETag stays",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("t");
        const written = await blob.upload("x", 1);
        const before = await blob.getProperties();
        expect([before.accessTier, before.accessTierInferred]).toEqual(["Hot", true]);
        expect((await blob.setAccessTier("Cool")).status).toBe(200);
        const after = await blob.getProperties();
        expect([after.accessTier, after.accessTierInferred, after.etag]).toEqual([
          "Cool",
          false,
          written.etag,
        ]);
        expect(after.accessTierChangedOn).toBeInstanceOf(Date);
        for await (const listed of c.listBlobsFlat()) expect(listed.properties.accessTier).toBe("Cool");
        await blob.upload("x", 1, { tier: "Cold" });
        expect((await blob.getProperties()).accessTier).toBe("Cold");
      },
    );

    itWhen(
      target,
      (c) => c.accessTiers,
      NO_TIERS,
      "Archive refuses reads (BlobArchived) until rehydrated; properties still answer",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("cold");
        await blob.upload("bytes", 5, { tier: "Archive" });
        expect((await blob.getProperties()).accessTier).toBe("Archive");
        expect(await codeOf(blob.downloadToBuffer())).toBe("BlobArchived");
        // Its bytes are offline: a new blob cannot be made of them (serve's Set Blob Metadata does this).
        const { etag } = await blob.getProperties();
        expect(
          await codeOf(
            blob.commitParts([{ kind: "current", offset: 0, size: 5 }], {
              basedOn: etag,
              keepBlockList: true,
            }),
          ),
        ).toBe("BlobArchived");
        if (target().capabilities.tags) await blob.setTags({ still: "works" });
        expect((await blob.setAccessTier("Hot", { rehydratePriority: "High" })).status).toBe(202);
        let p = await blob.getProperties();
        for (let i = 0; i < 50 && p.archiveStatus !== undefined; i++) {
          await new Promise((r) => setTimeout(r, 100));
          p = await blob.getProperties();
        }
        expect(p.accessTier).toBe("Hot");
        expect((await blob.downloadToBuffer()).toString()).toBe("bytes");
        // An overwrite of an archived blob is a new blob, back on the default tier.
        await blob.setAccessTier("Archive");
        if (!target().capabilities.divergences.some((d) => d.id === "archived-blob-not-overwritten")) {
          await blob.upload("new", 3);
          expect((await blob.getProperties()).accessTier).toBe("Hot");
          expect((await blob.downloadToBuffer()).toString()).toBe("new");
        }
        await blob.delete();
        expect(await blob.exists()).toBe(false);
      },
    );

    itWhen(
      target,
      (c) => c.accessTiers,
      NO_TIERS,
      "tiers are for block blobs; an unknown tier is InvalidBlobTier",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("b");
        await blob.upload("x", 1);
        expect(await codeOf(blob.setAccessTier("Frozen" as "Hot"))).toBe("InvalidBlobTier");
        expect(await codeOf(blob.setAccessTier("Hot", { rehydratePriority: "Soon" as "High" }))).toBe(
          "InvalidBlobTier",
        );
        expect(await codeOf(c.getBlobClient("missing").setAccessTier("Cool"))).toBe("BlobNotFound");
        if (target().capabilities.appendBlobs) {
          await c.getAppendBlobClient("ap").create();
          expect(await codeOf(c.getBlobClient("ap").setAccessTier("Cool"))).toBe(
            "AccessTierNotSupportedForBlobType",
          );
          expect((await c.getBlobClient("ap").getProperties()).accessTier).toBeUndefined();
        }
      },
    );

    itWhen(
      target,
      (c) => !c.accessTiers,
      "the backend has tiers",
      "without tiers, setAccessTier and the tier option are NotSupported",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("n");
        await blob.upload("x", 1);
        expect(await codeOf(blob.setAccessTier("Cool"))).toBe("NotSupported");
        expect(await codeOf(blob.upload("x", 1, { tier: "Cool" }))).toBe("NotSupported");
      },
    );
  });
};
