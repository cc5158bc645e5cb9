/**
 * Put Block and Put Block List on a server with a location: staged blocks live in the store (rows
 * in its database, bytes beside it), the committed blob is the staged block files linked in (no
 * copy), reads and kept blocks stay right, deleting frees the files, and bytes a dead writer left
 * behind are swept by the store when it next opens, whatever process wrote them.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BlobServiceClient } from "@azure/storage-blob";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { ORPHAN_GRACE_MS } from "../../src/store/backends/embedded/embedded-containers.js";
import { patternBytes } from "../conformance/blobs/factory.js";

const location = mkdtempSync(join(tmpdir(), "tablekit-block-files-"));
afterAll(() => rmSync(location, { recursive: true, force: true }));

/** Files under `location` whose path contains `part` (the blob content or the staged blocks). */
function filesUnder(part: string): number {
  return readdirSync(location, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && join(e.parentPath, e.name).includes(part),
  ).length;
}

const id = (n: number) => Buffer.from(`block-${String(n).padStart(4, "0")}`).toString("base64");

describe("block blobs committed from staged block files (serve --location)", () => {
  it("commits, re-commits keeping blocks, reads ranges across blocks, and frees the files on delete", async () => {
    const server = await startServer({ port: 0, services: ["blob"], location });
    try {
      const blob = BlobServiceClient.fromConnectionString(server.connectionString)
        .getContainerClient("files")
        .getBlockBlobClient("b");
      await BlobServiceClient.fromConnectionString(server.connectionString).createContainer("files");
      const blocks = [patternBytes(200_000, 1), patternBytes(70_000, 2), patternBytes(300_000, 3)];
      for (const [i, bytes] of blocks.entries()) await blob.stageBlock(id(i), bytes, bytes.length);
      // The store's own files beside its database; the server writes none of its own.
      expect(filesUnder(".blobs")).toBe(3);
      expect(existsSync(join(location, "tablekit-blocks"))).toBe(false);
      await blob.commitBlockList([id(0), id(1), id(2)]);
      expect(filesUnder(".blobs")).toBe(3);
      expect((await blob.getBlockList("uncommitted")).uncommittedBlocks).toEqual([]);
      const whole = Buffer.concat(blocks);
      expect((await blob.downloadToBuffer()).equals(whole)).toBe(true);
      expect((await blob.downloadToBuffer(199_990, 80_020)).equals(whole.subarray(199_990, 280_010))).toBe(
        true,
      );
      const content = filesUnder(".blobs");
      const extra = patternBytes(10, 4);
      await blob.stageBlock(id(9), extra, extra.length);
      await blob.commitBlockList([id(2), id(9), id(0)]);
      expect(filesUnder(".blobs")).toBe(content);
      const after = Buffer.concat([blocks[2]!, extra, blocks[0]!]);
      expect((await blob.downloadToBuffer()).equals(after)).toBe(true);
      expect((await blob.getBlockList("committed")).committedBlocks?.map((b) => b.size)).toEqual([
        300_000, 10, 200_000,
      ]);
      // Set Blob Metadata keeps the bytes by linking them anew: no copy, the same number of files.
      await blob.setMetadata({ k: "v" });
      expect(filesUnder(".blobs")).toBe(content);
      expect((await blob.downloadToBuffer()).equals(after)).toBe(true);
      expect((await blob.getProperties()).metadata).toEqual({ k: "v" });
      expect((await blob.getBlockList("committed")).committedBlocks?.length).toBe(3);
      await blob.delete();
      expect(filesUnder(".blobs")).toBe(content - 3);
    } finally {
      await server.stop();
    }
  });

  it("a second server on the same location, started and stopped, leaves the first one's staged blocks", async () => {
    const first = await startServer({ port: 0, services: ["blob"], location });
    try {
      const service = BlobServiceClient.fromConnectionString(first.connectionString);
      await service.createContainer("shared");
      const blob = service.getContainerClient("shared").getBlockBlobClient("b");
      const bytes = patternBytes(50_000, 5);
      await blob.stageBlock(id(0), bytes, bytes.length);
      const second = await startServer({ port: 0, services: ["blob"], location });
      await second.stop();
      await blob.commitBlockList([id(0)]);
      expect((await blob.downloadToBuffer()).equals(bytes)).toBe(true);
    } finally {
      await first.stop();
    }
  });

  it("sweeps the bytes a dead writer left beside the database once untouched for the grace period, keeping fresh ones", async () => {
    // What a writer killed mid-block leaves (this process's PID or another's: no PID is consulted).
    const blobs = join(location, "tablekit-tables.db.blobs", "ab");
    mkdirSync(blobs, { recursive: true });
    const old = join(blobs, `ab${"0".repeat(30)}`);
    const fresh = join(blobs, `ab${"1".repeat(30)}`);
    writeFileSync(old, "x");
    writeFileSync(fresh, "y");
    const past = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000);
    utimesSync(old, past, past);
    const server = await startServer({ port: 0, services: ["blob"], location });
    try {
      // The blob port opens (and sweeps) on its first use.
      await BlobServiceClient.fromConnectionString(server.connectionString)
        .getContainerClient("files")
        .exists();
      expect(existsSync(old)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
