import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlobPart, openStore, type Store } from "../../../src/index.js";
import { ORPHAN_GRACE_MS } from "../../../src/store/backends/embedded/embedded-containers.js";
import { patternBytes, readAll } from "../../conformance/blobs/factory.js";

/**
 * The embedded file store commits a block list by linking the block files (no copy): each row owns
 * its links, so replacing, deleting or dropping a blob frees exactly its files, and a read that
 * started before keeps the bytes it opened.
 */
describe("embedded file store: blobs committed from block files", () => {
  const dir = mkdtempSync(join(tmpdir(), "tablekit-composed-"));
  const db = join(dir, "blobs.db");
  let store: Store;
  beforeAll(async () => {
    store = await openStore(`file:${db}`);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const contentFiles = () =>
    existsSync(`${db}.blobs`)
      ? readdirSync(`${db}.blobs`, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
      : 0;
  let made = 0;
  const file = (bytes: Buffer): BlobPart => {
    const path = join(dir, `block-${made++}`);
    writeFileSync(path, bytes);
    return { kind: "file", path, size: bytes.length };
  };

  it("links each part once; a recommit, an overwrite and a delete free exactly the replaced files", async () => {
    const c = await store.createContainer("links");
    const blob = c.getBlockBlobClient("b");
    const before = contentFiles();
    const a = patternBytes(100_000, 1);
    const b = patternBytes(100_000, 2);
    const first = await blob.commitParts([file(a), file(b), file(patternBytes(10, 3))]);
    expect(contentFiles()).toBe(before + 3);
    // Keep the second block twice and the first once: three links of its own, the old three gone.
    await blob.commitParts(
      [
        { kind: "current", offset: 100_000, size: 100_000 },
        { kind: "current", offset: 0, size: 100_000 },
        { kind: "current", offset: 100_000, size: 100_000 },
      ],
      { basedOn: first.etag },
    );
    expect(contentFiles()).toBe(before + 3);
    expect((await blob.downloadToBuffer()).equals(Buffer.concat([b, a, b]))).toBe(true);
    await blob.upload(patternBytes(200_000, 4), 200_000);
    expect(contentFiles()).toBe(before + 1);
    await blob.commitParts([file(a), file(b)]);
    expect(contentFiles()).toBe(before + 2);
    await blob.delete();
    expect(contentFiles()).toBe(before);
    await c.getBlockBlobClient("x").commitParts([file(a), file(b)]);
    await store.deleteContainer("links");
    expect(contentFiles()).toBe(before);
  });

  it("keeping the whole of a blob that lives in its row keeps it there: no file", async () => {
    const c = await store.createContainer("inline");
    const blob = c.getBlockBlobClient("small");
    const { etag } = await blob.upload("0123456789", 10);
    const before = contentFiles();
    await blob.commitParts(
      [
        { kind: "current", offset: 5, size: 5 },
        { kind: "current", offset: 0, size: 5 },
      ],
      { basedOn: etag, metadata: { k: "v" } },
    );
    expect(contentFiles()).toBe(before);
    expect((await blob.downloadToBuffer()).toString()).toBe("5678901234");
    await store.deleteContainer("inline");
  });

  it("a read opened before the blob is replaced and deleted returns the bytes it opened", async () => {
    const c = await store.createContainer("reads");
    const blob = c.getBlockBlobClient("r");
    const parts = Array.from({ length: 4 }, (_, i) => patternBytes(300_000, 10 + i));
    await blob.commitParts(parts.map(file));
    const reading = await blob.download(150_000, 900_000);
    await blob.commitParts([file(patternBytes(5, 20))]);
    await blob.delete();
    const got = await readAll(reading.readableStreamBody);
    expect(got.equals(Buffer.concat(parts).subarray(150_000, 1_050_000))).toBe(true);
    await store.deleteContainer("reads");
  });

  it("a read of more extents than it opens at once ends with ServerBusy once the rest are gone, never other bytes", async () => {
    const c = await store.createContainer("many");
    const blob = c.getBlockBlobClient("m");
    const parts = Array.from({ length: 300 }, (_, i) => patternBytes(10, 100 + i));
    await blob.commitParts(parts.map(file));
    const whole = await blob.download();
    await blob.upload("replaced", 8);
    const got: Buffer[] = [];
    const failure = await (async () => {
      for await (const chunk of whole.readableStreamBody) got.push(chunk as Buffer);
    })().then(
      () => "read to the end",
      (err: { code?: string }) => err.code,
    );
    expect(failure).toBe("ServerBusy");
    // What did arrive is the start of the version the read opened.
    const arrived = Buffer.concat(got);
    expect(arrived.length).toBe(2560);
    expect(arrived.equals(Buffer.concat(parts).subarray(0, arrived.length))).toBe(true);
    await store.deleteContainer("many");
  });

  it("a store's first blob call sweeps files no row names and nobody touched for the grace period", async () => {
    const c = await store.createContainer("sweep");
    const blob = c.getBlockBlobClient("kept");
    await blob.commitParts([file(patternBytes(100_000, 30)), file(patternBytes(70_000, 31))]);
    const files = () =>
      readdirSync(`${db}.blobs`, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    const long = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000);
    // The blob's own files, untouched for long, stay; an old orphan goes; a fresh one (a writer's) stays.
    for (const path of files()) utimesSync(path, long, long);
    const oldOrphan = join(`${db}.blobs`, "ab", "ab".padEnd(32, "0"));
    const freshOrphan = join(`${db}.blobs`, "ab", "ab".padEnd(32, "1"));
    mkdirSync(join(`${db}.blobs`, "ab"), { recursive: true });
    writeFileSync(oldOrphan, "left by a crash");
    utimesSync(oldOrphan, long, long);
    writeFileSync(freshOrphan, "being written");
    const again = await openStore(`file:${db}`);
    try {
      await again.container("sweep").exists();
      expect(existsSync(oldOrphan)).toBe(false);
      expect(existsSync(freshOrphan)).toBe(true);
      const read = await again.container("sweep").getBlobClient("kept").downloadToBuffer();
      expect(read.equals(Buffer.concat([patternBytes(100_000, 30), patternBytes(70_000, 31)]))).toBe(true);
    } finally {
      await again.close();
    }
    rmSync(freshOrphan);
    await store.deleteContainer("sweep");
  });
});
