import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { openStore } from "../../../src/index.js";
import { collect } from "../../conformance/blobs/factory.js";
import { expectCode } from "../../conformance/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-soft-delete-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

/** Files of blob content beside the database (the content store's directory tree). */
function contentFiles(db: string): string[] {
  return readdirSync(`${db}.blobs`, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe("embedded soft delete: kept rows, the clock, a restart", () => {
  it("keeps a deleted blob for the retention days across a restart, then sweeps it with its bytes", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-03-01T00:00:00Z") });
    const db = join(dir, "expiry.db");
    const url = `file:${db}`;
    let store = await openStore(url);
    await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days: 2 } });
    const c = await store.createContainer("kept");
    const big = Buffer.alloc(300_000, 7); // past the inline size: its bytes live in a file
    await c.uploadBlockBlob("big", big, big.length);
    await c.getBlobClient("big").delete();
    // A day later the retention left is one day, and a new process still has it.
    vi.setSystemTime(Date.parse("2026-03-02T00:00:00Z"));
    await store.close();
    store = await openStore(url);
    const again = store.container("kept");
    const [item] = await collect(again.listBlobsFlat({ includeDeleted: true }));
    expect(item).toMatchObject({ name: "big", deleted: true, properties: { remainingRetentionDays: 1 } });
    expect(item!.properties.deletedOn).toEqual(new Date("2026-03-01T00:00:00Z"));
    expect(contentFiles(db).length).toBeGreaterThan(0);

    // Turning soft delete off changes nothing for what it already kept.
    await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: false } });
    expect(await collect(again.listBlobsFlat({ includeDeleted: true }))).toHaveLength(1);

    // Past the retention: gone from listings at once, and a write sweeps its row and file.
    vi.setSystemTime(Date.parse("2026-03-03T00:00:01Z"));
    expect(await collect(again.listBlobsFlat({ includeDeleted: true }))).toEqual([]);
    await expectCode(again.getBlobClient("big").undelete(), "BlobNotFound");
    await again.uploadBlockBlob("other", "x", 1);
    await store.close();
    const raw = new Database(db, { readonly: true });
    expect(raw.prepare("SELECT count(*) FROM tk_deleted_blobs").pluck().get()).toBe(0);
    raw.close();
    expect(contentFiles(db)).toEqual([]);
  });

  it("a retention changed later applies to later deletes only", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-04-01T00:00:00Z") });
    const store = await openStore("memory:");
    try {
      await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days: 1 } });
      const c = await store.createContainer("policy");
      await c.uploadBlockBlob("short", "a", 1);
      await c.getBlobClient("short").delete();
      await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days: 365 } });
      await c.uploadBlockBlob("long", "b", 1);
      await c.getBlobClient("long").delete();
      vi.setSystemTime(Date.parse("2026-04-02T00:00:00Z") + 1);
      const left = await collect(c.listBlobsFlat({ includeDeleted: true }));
      expect(left.map((b) => [b.name, b.properties.remainingRetentionDays])).toEqual([["long", 364]]);
    } finally {
      await store.close();
    }
  });

  it("a deleted page blob keeps its pages out of the new blob of its name and gets them back", async () => {
    const store = await openStore("memory:");
    try {
      await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days: 1 } });
      const c = await store.createContainer("pages");
      const page = c.getPageBlobClient("disk");
      await page.create(1024);
      await page.uploadPages(Buffer.alloc(512, 9), 512, 512);
      await page.delete();
      // A block blob of the name: the page blob's data stays kept, not merged into it.
      await c.uploadBlockBlob("disk", "other", 5);
      expect((await c.getBlobClient("disk").downloadToBuffer()).toString()).toBe("other");
      await c.getBlobClient("disk").delete();
      await c.getBlobClient("disk").undelete();
      expect((await c.getBlobClient("disk").downloadToBuffer()).toString()).toBe("other");
    } finally {
      await store.close();
    }
  });

  it("undeletes a page blob with its pages", async () => {
    const store = await openStore("memory:");
    try {
      await store.setServiceProperties("blob", { deleteRetentionPolicy: { enabled: true, days: 1 } });
      const c = await store.createContainer("pages2");
      const page = c.getPageBlobClient("disk");
      await page.create(1024);
      await page.uploadPages(Buffer.alloc(512, 9), 512, 512);
      await page.delete();
      await expectCode(page.getPageRanges(), "BlobNotFound");
      await page.undelete();
      const bytes = await page.downloadToBuffer();
      expect(bytes.subarray(0, 512).every((b) => b === 0)).toBe(true);
      expect(bytes.subarray(512).every((b) => b === 9)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
