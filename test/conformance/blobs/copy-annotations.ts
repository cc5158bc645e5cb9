import { createHash } from "node:crypto";
import { describe, expect } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf } from "./factory.js";

const NO_TAGS = "the blob backend keeps no index tags (tags: false, e.g. S3)";
const NO_TIERS = "the blob backend has no access tiers (accessTiers: false)";
const NO_LEASES = "the blob backend keeps no leases (leases: false)";
const NO_TAG_CONDITIONS = "the blob backend applies no tag conditions (tagConditions: false)";

const md5 = (text: string) => new Uint8Array(createHash("md5").update(text).digest());

/** What a copy gives its destination beside the bytes (tags, tier, a checked MD5), and tags under leases. */
export const copyAnnotationsSuite: BlobSuite = (target) => {
  describe("copy: tags, tier, source MD5; tags and leases", () => {
    itWhen(
      target,
      (c) => c.tags,
      NO_TAGS,
      "a copy takes the tags given (REPLACE, none when none) or the source's (COPY), never both",
      async () => {
        const c = await target().freshContainer();
        await c.getBlockBlobClient("src").upload("hello", 5, { tags: { from: "source" } });
        const source = c.getBlobClient("src");
        const dst = c.getBlobClient("dst");
        await dst.syncCopyFromURL(source, { tags: { given: "yes" } });
        expect((await dst.getTags()).tags).toEqual({ given: "yes" });
        expect((await dst.getProperties()).tagCount).toBe(1);
        // REPLACE by default: a copy without tags leaves the destination with none.
        await dst.syncCopyFromURL(source);
        expect((await dst.getTags()).tags).toEqual({});
        await dst.syncCopyFromURL(source, { copySourceTags: "COPY" });
        expect((await dst.getTags()).tags).toEqual({ from: "source" });
        const before = await dst.getProperties();
        expect(await codeOf(dst.syncCopyFromURL(source, { copySourceTags: "COPY", tags: { a: "b" } }))).toBe(
          "InvalidInput",
        );
        expect(await codeOf(dst.syncCopyFromURL(source, { copySourceTags: "copy" as never }))).toBe(
          "InvalidInput",
        );
        // Refused before anything is written: the destination is as it was.
        expect((await dst.getProperties()).etag).toBe(before.etag);
        // Put Blob From URL takes them as well.
        const put = c.getBlockBlobClient("put");
        await put.syncUploadFromURL(source, { tags: { via: "put" } });
        expect((await put.getTags()).tags).toEqual({ via: "put" });
        await put.syncUploadFromURL(source, { copySourceTags: "COPY" });
        expect((await put.getTags()).tags).toEqual({ from: "source" });
      },
    );

    itWhen(
      target,
      (c) => c.tags,
      NO_TAGS,
      "a copy's tags obey the tag limits, each crossed by one, and nothing is written",
      async () => {
        const c = await target().freshContainer();
        await c.getBlockBlobClient("src").upload("hello", 5);
        const source = c.getBlobClient("src");
        const dst = c.getBlobClient("dst");
        const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "v"]));
        await dst.syncCopyFromURL(source, { tags: ten });
        expect(Object.keys((await dst.getTags()).tags)).toHaveLength(10);
        const eleven = { ...ten, k10: "v" };
        const fresh = c.getBlobClient("fresh");
        expect(await codeOf(fresh.syncCopyFromURL(source, { tags: eleven }))).toBe("TagsTooLarge");
        await fresh.syncCopyFromURL(source, { tags: { ["k".repeat(128)]: "v".repeat(256), e: "" } });
        expect(
          await codeOf(c.getBlobClient("f2").syncCopyFromURL(source, { tags: { ["k".repeat(129)]: "v" } })),
        ).toBe("InvalidTag");
        expect(await codeOf(c.getBlobClient("f3").syncCopyFromURL(source, { tags: { "": "v" } }))).toBe(
          "InvalidTag",
        );
        expect(
          await codeOf(c.getBlobClient("f4").syncCopyFromURL(source, { tags: { k: "v".repeat(257) } })),
        ).toBe("InvalidTag");
        for (const name of ["f2", "f3", "f4"]) expect(await c.getBlobClient(name).exists()).toBe(false);
      },
    );

    itWhen(
      target,
      (c) => c.accessTiers,
      NO_TIERS,
      "a copy sets the tier given; an archived source needs an online tier (BlobArchived otherwise)",
      async () => {
        const c = await target().freshContainer();
        const src = c.getBlockBlobClient("src");
        await src.upload("hello", 5);
        const dst = c.getBlobClient("dst");
        await dst.syncCopyFromURL(src, { tier: "Cool" });
        expect((await dst.getProperties()).accessTier).toBe("Cool");
        expect(await codeOf(dst.syncCopyFromURL(src, { tier: "P10" as never }))).toBe("InvalidBlobTier");
        await src.setAccessTier("Archive");
        const fromArchive = c.getBlobClient("from-archive");
        expect(await codeOf(fromArchive.syncCopyFromURL(src))).toBe("BlobArchived");
        expect(await codeOf(fromArchive.syncCopyFromURL(src, { tier: "Archive" }))).toBe("BlobArchived");
        expect(await fromArchive.exists()).toBe(false);
        if (target().capabilities.copyFromArchive) {
          await fromArchive.syncCopyFromURL(src, { tier: "Hot" });
          expect((await fromArchive.getProperties()).accessTier).toBe("Hot");
          expect((await fromArchive.downloadToBuffer()).toString()).toBe("hello");
          // The source stays archived.
          expect((await src.getProperties()).accessTier).toBe("Archive");
        } else {
          expect(await codeOf(fromArchive.syncCopyFromURL(src, { tier: "Hot" }))).toBe("BlobArchived");
        }
      },
    );

    itWhen(
      target,
      (c) => c.pageBlobs && c.accessTiers,
      "the blob backend has no page blobs or no tiers",
      "a page blob copy takes no tier",
      async () => {
        const c = await target().freshContainer();
        await c.getPageBlobClient("page").create(512);
        const dst = c.getBlobClient("dst");
        expect(await codeOf(dst.syncCopyFromURL(c.getBlobClient("page"), { tier: "Hot" }))).toBe(
          "AccessTierNotSupportedForBlobType",
        );
        expect(await dst.exists()).toBe(false);
      },
    );

    itWhen(
      target,
      () => true,
      "",
      "sourceContentMD5 is checked against the source's bytes and echoed; a wrong one writes nothing",
      async () => {
        const c = await target().freshContainer();
        await c.getBlockBlobClient("src").upload("hello", 5);
        const source = c.getBlobClient("src");
        const copied = await c
          .getBlobClient("dst")
          .syncCopyFromURL(source, { sourceContentMD5: md5("hello") });
        expect(copied.contentMD5).toEqual(md5("hello"));
        expect((await c.getBlobClient("dst").downloadToBuffer()).toString()).toBe("hello");
        const plain = await c.getBlobClient("plain").syncCopyFromURL(source);
        expect(plain.contentMD5).toBeUndefined();
        const wrong = c.getBlobClient("wrong");
        expect(await codeOf(wrong.syncCopyFromURL(source, { sourceContentMD5: md5("hellO") }))).toBe(
          "Md5Mismatch",
        );
        expect(await wrong.exists()).toBe(false);
        expect(await codeOf(wrong.syncCopyFromURL(source, { sourceContentMD5: new Uint8Array(15) }))).toBe(
          "InvalidInput",
        );
        const put = c.getBlockBlobClient("put");
        expect((await put.syncUploadFromURL(source, { sourceContentMD5: md5("hello") })).contentMD5).toEqual(
          md5("hello"),
        );
        expect(
          await codeOf(
            c.getBlockBlobClient("put2").syncUploadFromURL(source, { sourceContentMD5: md5("x") }),
          ),
        ).toBe("Md5Mismatch");
        expect(await c.getBlobClient("put2").exists()).toBe(false);
        if (target().capabilities.blocks) {
          const staged = c.getBlockBlobClient("staged");
          const id = Buffer.from("b1").toString("base64");
          expect(
            await codeOf(staged.stageBlockFromURL(id, source, 0, 5, { sourceContentMD5: md5("nope") })),
          ).toBe("Md5Mismatch");
          await staged.stageBlockFromURL(id, source, 1, 3, { sourceContentMD5: md5("ell") });
          await staged.commitBlockList([id]);
          expect((await staged.downloadToBuffer()).toString()).toBe("ell");
        }
      },
    );

    itWhen(
      target,
      (c) => c.tags && c.leases,
      `${NO_TAGS}; or ${NO_LEASES}`,
      "a leased blob's tags are set with its lease id only; a wrong id reads none",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("leased");
        await blob.upload("x", 1);
        const lease = blob.getBlobLeaseClient();
        await lease.acquireLease(-1);
        expect(await codeOf(blob.setTags({ a: "b" }))).toBe("LeaseIdMissing");
        const other = "3c7e72eb-b430-4526-bc53-d8ecef03798f";
        expect(await codeOf(blob.setTags({ a: "b" }, { conditions: { leaseId: other } }))).toBe(
          "LeaseIdMismatchWithBlobOperation",
        );
        expect((await blob.getTags()).tags).toEqual({});
        await blob.setTags({ a: "b" }, { conditions: { leaseId: lease.leaseId } });
        expect((await blob.getTags({ conditions: { leaseId: lease.leaseId } })).tags).toEqual({ a: "b" });
        // Reading needs no lease id, but a wrong one fails.
        expect((await blob.getTags()).tags).toEqual({ a: "b" });
        expect(await codeOf(blob.getTags({ conditions: { leaseId: other } }))).toBe(
          "LeaseIdMismatchWithBlobOperation",
        );
        await lease.releaseLease();
        // No lease: an id given is refused (there is no lease it could be).
        expect(await codeOf(blob.setTags({}, { conditions: { leaseId: lease.leaseId } }))).toBe(
          "LeaseNotPresentWithBlobOperation",
        );
        await blob.setTags({});
        expect((await blob.getTags()).tags).toEqual({});
      },
    );

    itWhen(
      target,
      (c) => c.leases && c.tagConditions,
      `${NO_LEASES}; or ${NO_TAG_CONDITIONS}`,
      "every lease action honours tagConditions, and a failed one changes no lease",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("b");
        await blob.upload("x", 1, { tags: { tag1: "val1" } });
        const miss = { conditions: { tagConditions: "tag1 <> 'val1'" } };
        const hit = { conditions: { tagConditions: "tag1 = 'val1'" } };
        const lease = blob.getBlobLeaseClient();
        expect(await codeOf(lease.acquireLease(30, miss))).toBe("ConditionNotMet");
        expect((await blob.getProperties()).leaseState).toBe("available");
        await lease.acquireLease(30, hit);
        expect(await codeOf(lease.renewLease(miss))).toBe("ConditionNotMet");
        const next = "3c7e72eb-b430-4526-bc53-d8ecef03798f";
        expect(await codeOf(lease.changeLease(next, miss))).toBe("ConditionNotMet");
        expect(lease.leaseId).not.toBe(next);
        expect(await codeOf(lease.breakLease(0, miss))).toBe("ConditionNotMet");
        expect(await codeOf(lease.releaseLease(miss))).toBe("ConditionNotMet");
        expect((await blob.getProperties()).leaseState).toBe("leased");
        // A malformed expression is refused, not taken as unmet.
        expect(await codeOf(lease.renewLease({ conditions: { tagConditions: "tag1 =" } }))).not.toBe(
          "ConditionNotMet",
        );
        await lease.renewLease(hit);
        await lease.releaseLease(hit);
        expect((await blob.getProperties()).leaseState).toBe("available");
        // A container lease takes no tag conditions.
        expect(await codeOf(c.getBlobLeaseClient().acquireLease(30, hit))).toBe("InvalidInput");
      },
    );
  });
};
