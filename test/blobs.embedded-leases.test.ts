/**
 * What only the embedded engine's own file can show: leases stored as times survive a restart and
 * expire by the clock (no timer), and a database made before the property and lease columns
 * existed keeps working (the columns are added when it opens).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { openStore } from "../src/index.js";
import { codeOf } from "./conformance/blobs/factory.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-leases-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

let n = 0;
const freshFile = () => `file:${join(dir, `leases-${++n}.db`)}`;

describe("embedded leases", () => {
  it("a lease survives closing and reopening the store", async () => {
    const url = freshFile();
    const first = await openStore(url);
    const blob = (await first.createContainer("jobs")).getBlockBlobClient("claim");
    await blob.upload("x", 1);
    const lease = blob.getBlobLeaseClient();
    await lease.acquireLease(-1);
    const container = first.container("jobs").getBlobLeaseClient();
    await container.acquireLease(60);
    await first.close();

    const again = await openStore(url);
    const reopened = again.container("jobs").getBlockBlobClient("claim");
    expect(await reopened.getProperties()).toMatchObject({ leaseState: "leased", leaseDuration: "infinite" });
    expect(await codeOf(reopened.upload("y", 1))).toBe("LeaseIdMissing");
    expect(await codeOf(again.container("jobs").delete())).toBe("LeaseIdMissing");
    await reopened.getBlobLeaseClient(lease.leaseId).releaseLease();
    await reopened.upload("y", 1);
    await again.container("jobs").delete({ conditions: { leaseId: container.leaseId } });
    await again.close();
  });

  it("a fixed lease expires by the clock; renewing it then works only if nothing wrote since", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-01-01T00:00:00Z") });
    const store = await openStore("memory:");
    const c = await store.createContainer("clock");
    const blob = c.getBlockBlobClient("b");
    await blob.upload("x", 1);
    const lease = blob.getBlobLeaseClient();
    await lease.acquireLease(15);
    vi.setSystemTime(Date.parse("2026-01-01T00:00:14.900Z"));
    expect((await blob.getProperties()).leaseState).toBe("leased");
    expect(await codeOf(blob.upload("y", 1))).toBe("LeaseIdMissing");
    vi.setSystemTime(Date.parse("2026-01-01T00:00:15Z"));
    expect(await blob.getProperties()).toMatchObject({ leaseState: "expired", leaseStatus: "unlocked" });
    // Expired and untouched: renewable.
    await lease.renewLease();
    expect((await blob.getProperties()).leaseState).toBe("leased");
    vi.setSystemTime(Date.parse("2026-01-01T00:00:31Z"));
    await blob.upload("written after expiry", 20);
    expect(await codeOf(lease.renewLease())).toBe("LeaseIdMismatchWithLeaseOperation");
    // A break of a fixed lease without a period ends at its expiry at the latest.
    const other = blob.getBlobLeaseClient();
    await other.acquireLease(20);
    vi.setSystemTime(Date.parse("2026-01-01T00:00:41Z"));
    const broken = await other.breakLease();
    expect(broken.leaseTime).toBe(10);
    vi.setSystemTime(Date.parse("2026-01-01T00:00:51Z"));
    expect((await blob.getProperties()).leaseState).toBe("broken");
    await store.close();
  });
});

describe("a database from before the property and lease columns", () => {
  it("opens, reads its blobs, and takes leases and headers afterwards", async () => {
    const url = freshFile();
    const path = url.slice("file:".length);
    const store = await openStore(url);
    await (await store.createContainer("old")).uploadBlockBlob("kept", "bytes", 5);
    await store.close();
    const db = new Database(path);
    db.exec("ALTER TABLE tk_blobs DROP COLUMN props");
    db.exec("ALTER TABLE tk_blobs DROP COLUMN lease");
    db.exec("ALTER TABLE tk_containers DROP COLUMN lease");
    db.close();

    const reopened = await openStore(url);
    const blob = reopened.container("old").getBlockBlobClient("kept");
    const p = await blob.getProperties();
    expect(p).toMatchObject({ contentLength: 5, leaseState: "available" });
    expect(p.createdOn?.getTime()).toBe(p.lastModified.getTime());
    expect((await blob.downloadToBuffer()).toString()).toBe("bytes");
    await blob.setHTTPHeaders({ blobCacheControl: "no-cache" });
    const lease = blob.getBlobLeaseClient();
    await lease.acquireLease(15);
    expect(await blob.getProperties()).toMatchObject({ cacheControl: "no-cache", leaseState: "leased" });
    await lease.releaseLease();
    await reopened.close();
  });
});

describe("a database from before snapshots kept seals, tags, block lists and page write ids", () => {
  it("opens, reads its snapshots and page blobs, and snapshots and diffs them afterwards", async () => {
    const url = freshFile();
    const path = url.slice("file:".length);
    const store = await openStore(url);
    const container = await store.createContainer("old");
    await container.uploadBlockBlob("doc", "bytes", 5);
    const taken = (await container.getBlobClient("doc").createSnapshot()).snapshot;
    const disk = container.getPageBlobClient("disk");
    await disk.create(1024);
    await disk.uploadPages(Buffer.alloc(512, 7), 0, 512);
    await store.close();
    const db = new Database(path);
    for (const column of ["props", "sealed", "tags", "block_list"]) {
      db.exec(`ALTER TABLE tk_snapshots DROP COLUMN ${column}`);
    }
    db.exec("ALTER TABLE tk_pages DROP COLUMN stamp");
    db.close();

    const reopened = await openStore(url);
    const old = reopened.container("old");
    expect((await old.getBlobClient("doc").withSnapshot(taken).downloadToBuffer()).toString()).toBe("bytes");
    expect(
      (await old.getBlockBlobClient("doc").withSnapshot(taken).getBlockList("all")).committedBlocks,
    ).toEqual([]);
    const reopenedDisk = old.getPageBlobClient("disk");
    const before = (await reopenedDisk.createSnapshot()).snapshot;
    await reopenedDisk.uploadPages(Buffer.alloc(512, 8), 512, 512);
    // A range written before the write ids existed counts as written since (it cannot be told apart).
    const diff = await reopenedDisk.getPageRangesDiff(0, undefined, before);
    expect(diff.pageRange).toEqual([{ start: 0, end: 1023 }]);
    expect(
      (await reopenedDisk.withSnapshot(before).downloadToBuffer(0, 512)).equals(Buffer.alloc(512, 7)),
    ).toBe(true);
    await reopened.close();
  });
});
