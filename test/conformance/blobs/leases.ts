import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf } from "./factory.js";

const NO_LEASES = "the backend keeps no leases (leases: false, e.g. S3)";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const leasesSuite: BlobSuite = (target) => {
  describe("leases", () => {
    itWhen(
      target,
      (c) => c.leases,
      NO_LEASES,
      "a leased blob is written and deleted only with its lease id",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("locked");
        await blob.upload("v1", 2);
        const lease = blob.getBlobLeaseClient();
        const acquired = await lease.acquireLease(15);
        expect(acquired.leaseId).toBe(lease.leaseId);
        expect(await blob.getProperties()).toMatchObject({
          leaseState: "leased",
          leaseStatus: "locked",
          leaseDuration: "fixed",
        });
        expect(await codeOf(blob.upload("v2", 2))).toBe("LeaseIdMissing");
        expect(await codeOf(blob.upload("v2", 2, { conditions: { leaseId: randomUUID() } }))).toBe(
          "LeaseIdMismatchWithBlobOperation",
        );
        expect(await codeOf(blob.delete())).toBe("LeaseIdMissing");
        expect(await codeOf(blob.setMetadata({ a: "b" }))).toBe(
          target().capabilities.setProperties ? "LeaseIdMissing" : "NotSupported",
        );
        expect((await blob.downloadToBuffer()).toString()).toBe("v1");
        // Reads need no lease id; one that names another lease is refused.
        expect(await codeOf(blob.getProperties({ conditions: { leaseId: randomUUID() } }))).toBe(
          "LeaseIdMismatchWithBlobOperation",
        );
        await blob.upload("v2", 2, { conditions: { leaseId: lease.leaseId } });
        // The lease outlives the write.
        expect((await blob.getProperties()).leaseState).toBe("leased");
        await lease.releaseLease();
        expect((await blob.getProperties()).leaseState).toBe("available");
        expect(await codeOf(blob.upload("v3", 2, { conditions: { leaseId: lease.leaseId } }))).toBe(
          "LeaseNotPresentWithBlobOperation",
        );
        await blob.delete();
      },
    );

    itWhen(
      target,
      (c) => c.leases && c.appendBlobs,
      "the backend keeps no leases or no append blobs",
      "appends to a leased append blob need its lease id",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("log");
        await log.create();
        const lease = log.getBlobLeaseClient();
        await lease.acquireLease(20);
        expect(await codeOf(log.appendBlock("a", 1))).toBe("LeaseIdMissing");
        await log.appendBlock("a", 1, { conditions: { leaseId: lease.leaseId } });
        expect((await log.downloadToBuffer()).toString()).toBe("a");
        await lease.releaseLease();
      },
    );

    itWhen(
      target,
      (c) => c.leases,
      NO_LEASES,
      "acquire, renew, change, release and their refusals",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("b");
        await blob.upload("x", 1);
        const mine = blob.getBlobLeaseClient();
        const theirs = blob.getBlobLeaseClient();
        const noLease = target().capabilities.divergences.some((d) => d.id === "lease-codes-without-lease")
          ? "LeaseIdMismatchWithLeaseOperation"
          : "LeaseNotPresentWithLeaseOperation";
        expect(await codeOf(mine.renewLease())).toBe(noLease);
        expect(await codeOf(mine.releaseLease())).toBe(noLease);
        expect(await codeOf(mine.breakLease(0))).toBe("LeaseNotPresentWithLeaseOperation");
        await mine.acquireLease(-1);
        expect((await blob.getProperties()).leaseDuration).toBe("infinite");
        expect(await codeOf(theirs.acquireLease(-1))).toBe("LeaseAlreadyPresent");
        expect(await codeOf(theirs.renewLease())).toBe("LeaseIdMismatchWithLeaseOperation");
        expect(await codeOf(theirs.releaseLease())).toBe("LeaseIdMismatchWithLeaseOperation");
        // Acquiring again with the same id is allowed (and may change the duration).
        await mine.acquireLease(30);
        expect((await blob.getProperties()).leaseDuration).toBe("fixed");
        await mine.renewLease();
        const next = randomUUID();
        const changed = await mine.changeLease(next);
        expect(changed.leaseId).toBe(next);
        expect(mine.leaseId).toBe(next);
        await blob.upload("y", 1, { conditions: { leaseId: next } });
        await mine.releaseLease();
        await theirs.acquireLease(15);
        await theirs.releaseLease();
      },
    );

    itWhen(
      target,
      (c) => c.leases,
      NO_LEASES,
      "a break: breaking for its period, then broken and acquirable",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("b");
        await blob.upload("x", 1);
        const lease = blob.getBlobLeaseClient();
        await lease.acquireLease(-1);
        const broken = await blob.getBlobLeaseClient().breakLease(2);
        expect(broken.leaseTime).toBeGreaterThanOrEqual(1);
        expect(broken.leaseTime).toBeLessThanOrEqual(2);
        expect(await blob.getProperties()).toMatchObject({ leaseState: "breaking", leaseStatus: "locked" });
        expect(await codeOf(blob.getBlobLeaseClient().acquireLease(15))).toBe("LeaseAlreadyPresent");
        expect(await codeOf(lease.acquireLease(15))).toBe("LeaseIsBreakingAndCannotBeAcquired");
        expect(await codeOf(lease.renewLease())).toBe("LeaseIsBrokenAndCannotBeRenewed");
        expect(await codeOf(lease.changeLease(randomUUID()))).toBe("LeaseIsBreakingAndCannotBeChanged");
        // While breaking, writes still need the lease id.
        expect(await codeOf(blob.upload("y", 1))).toBe("LeaseIdMissing");
        await sleep(2300);
        expect(await blob.getProperties()).toMatchObject({ leaseState: "broken", leaseStatus: "unlocked" });
        expect(await codeOf(lease.renewLease())).toBe("LeaseIsBrokenAndCannotBeRenewed");
        await blob.upload("y", 1);
        const again = blob.getBlobLeaseClient();
        await again.acquireLease(15);
        await again.breakLease(0);
        expect((await blob.getProperties()).leaseState).toBe("broken");
      },
    );

    itWhen(
      target,
      (c) => c.leases,
      NO_LEASES,
      "refuses durations outside 15–60 s and break periods outside 0–60 s",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("b");
        await blob.upload("x", 1);
        const lease = blob.getBlobLeaseClient();
        for (const bad of [14, 61, 0, -2, 15.5]) {
          expect(await codeOf(lease.acquireLease(bad)), String(bad)).toBe("InvalidInput");
        }
        await lease.acquireLease(15);
        await lease.acquireLease(60);
        expect(await codeOf(lease.breakLease(61))).toBe("InvalidInput");
        expect(await codeOf(lease.breakLease(-1))).toBe("InvalidInput");
        expect((await blob.getProperties()).leaseState).toBe("leased");
        await lease.breakLease(60);
        expect((await blob.getProperties()).leaseState).toBe("breaking");
        await lease.releaseLease();
        expect(await codeOf(c.getBlobClient("missing").getBlobLeaseClient().acquireLease(15))).toBe(
          "BlobNotFound",
        );
      },
    );

    itWhen(
      target,
      (c) => c.leases,
      NO_LEASES,
      "a leased container is deleted only with its lease id",
      async () => {
        const name = target().freshContainerName();
        const c = await target().store.createContainer(name);
        const lease = c.getBlobLeaseClient();
        await lease.acquireLease(-1);
        expect(await c.getProperties()).toMatchObject({ leaseState: "leased", leaseStatus: "locked" });
        expect(await codeOf(c.getBlobLeaseClient().acquireLease(15))).toBe("LeaseAlreadyPresent");
        expect(await codeOf(c.delete())).toBe("LeaseIdMissing");
        expect(await codeOf(c.delete({ conditions: { leaseId: randomUUID() } }))).toBe(
          "LeaseIdMismatchWithContainerOperation",
        );
        // Blobs in a leased container are written as usual.
        await c.uploadBlockBlob("free", "x", 1);
        const listed = [];
        for await (const item of target().store.listContainers({ prefix: name })) listed.push(item);
        expect(listed[0]?.properties).toMatchObject({ leaseState: "leased", leaseDuration: "infinite" });
        await c.delete({ conditions: { leaseId: lease.leaseId } });
        expect(await c.exists()).toBe(false);
      },
    );

    it("answers NotSupported for every lease call where the backend keeps none", async () => {
      if (target().capabilities.leases) return;
      const c = await target().freshContainer();
      await c.uploadBlockBlob("b", "x", 1);
      expect(await codeOf(c.getBlobClient("b").getBlobLeaseClient().acquireLease(15))).toBe("NotSupported");
      expect(await codeOf(c.getBlobLeaseClient().acquireLease(-1))).toBe("NotSupported");
      expect(await codeOf(c.uploadBlockBlob("b", "x", 1, { conditions: { leaseId: randomUUID() } }))).toBe(
        "NotSupported",
      );
    });
  });
};
