/**
 * @azure/storage-blob against tablekit serve: what a snapshot keeps (page blob pages and their
 * ranges, the seal, tags, the committed block list), Get Page Ranges' diff (prevsnapshot), a
 * snapshot read through a service SAS with header overrides, and List Blobs' include=uncommittedblobs.
 */
import { createHash } from "node:crypto";
import {
  AnonymousCredential,
  BlobSASPermissions,
  BlobServiceClient,
  type ContainerClient,
  generateBlobSASQueryParameters,
  newPipeline,
  PageBlobClient,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { DEVELOPMENT_ACCOUNT } from "../../src/store/index.js";

let server: RunningServer;
let container: ContainerClient;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  container = BlobServiceClient.fromConnectionString(server.connectionString).getContainerClient("snaps");
  await container.create();
});
afterAll(() => server?.stop());

async function failure(work: Promise<unknown>): Promise<{ status: number; code: string | undefined }> {
  try {
    await work;
  } catch (err) {
    const e = err as { statusCode: number; code?: string };
    return { status: e.statusCode, code: e.code };
  }
  throw new Error("expected a failure");
}

const page = (c: string, pages = 1) => Buffer.alloc(512 * pages, c);

describe("blob snapshots over tablekit serve", () => {
  it("keeps a page blob's pages; Get Page Ranges of the snapshot and the diff since it", async () => {
    const disk = container.getPageBlobClient("disk.vhd");
    await disk.create(1024 * 1024 * 2);
    await disk.uploadPages(page("a"), 0, 512);
    await disk.uploadPages(page("b"), 1024 * 1024, 512);
    const { snapshot } = await disk.createSnapshot();
    await disk.uploadPages(page("a"), 0, 512);
    await disk.clearPages(1024 * 1024, 512);
    const old = disk.withSnapshot(snapshot!);
    expect((await old.downloadToBuffer(1024 * 1024, 512)).equals(page("b"))).toBe(true);
    const ranges = await old.getPageRanges();
    expect(ranges.pageRange).toEqual([
      { offset: 0, count: 511 },
      { offset: 1024 * 1024, count: 511 },
    ]);
    const diff = await disk.getPageRangesDiff(0, 1024 * 1024 * 2, snapshot!);
    expect(diff.pageRange).toEqual([{ offset: 0, count: 511 }]);
    // The SDK reports { offset, count } with count = end - start.
    expect(diff.clearRange).toEqual([{ offset: 1024 * 1024, count: 511 }]);
    expect(await failure(disk.getPageRangesDiff(0, 512, "2001-01-01T00:00:00.0000000Z"))).toEqual({
      status: 409,
      code: "PreviousSnapshotNotFound",
    });
  });

  it("keeps the seal, the tags and the committed block list; a snapshot's own tags can be set", async () => {
    const log = container.getAppendBlobClient("sealed.log");
    await log.create();
    await log.appendBlock("one", 3);
    await log.seal();
    const sealedAt = (await log.createSnapshot()).snapshot!;
    expect((await log.withSnapshot(sealedAt).getProperties()).isSealed).toBe(true);

    // Copy Blob does not copy the seal; x-ms-seal-blob seals the copy.
    const plain = container.getAppendBlobClient("copy.log");
    await (await plain.beginCopyFromURL(log.url)).pollUntilDone();
    expect((await plain.getProperties()).isSealed).toBe(false);
    const sealedCopy = container.getAppendBlobClient("sealed-copy.log");
    await (await sealedCopy.beginCopyFromURL(log.url, { sealBlob: true })).pollUntilDone();
    expect((await sealedCopy.getProperties()).isSealed).toBe(true);

    const blob = container.getBlockBlobClient("tagged");
    const id = Buffer.from("block-1").toString("base64");
    await blob.stageBlock(id, "hello", 5);
    await blob.commitBlockList([id], { tags: { stage: "draft" } });
    const taken = (await blob.createSnapshot()).snapshot!;
    await blob.setTags({ stage: "final" });
    const old = blob.withSnapshot(taken);
    expect((await old.getTags()).tags).toEqual({ stage: "draft" });
    await old.setTags({ stage: "x" });
    expect((await old.getTags()).tags).toEqual({ stage: "x" });
    expect((await blob.getTags()).tags).toEqual({ stage: "final" });
    const list = await old.getBlockList("all");
    expect(list.committedBlocks).toEqual([{ name: id, size: 5 }]);
    // Range downloads of a snapshot answer their MD5 when asked.
    const ranged = await old.download(1, 3, { rangeGetContentMD5: true });
    const md5 = createHash("md5").update("ell").digest();
    expect(Buffer.from(ranged.contentMD5!).equals(md5)).toBe(true);
  });

  it("reads a page blob snapshot through a service SAS that overrides response headers", async () => {
    const disk = container.getPageBlobClient("sas.vhd");
    await disk.create(1024, { blobHTTPHeaders: { blobContentType: "original" } });
    const { snapshot } = await disk.createSnapshot();
    const sas = generateBlobSASQueryParameters(
      {
        containerName: container.containerName,
        blobName: "sas.vhd",
        snapshotTime: snapshot!,
        permissions: BlobSASPermissions.parse("r"),
        expiresOn: new Date(Date.now() + 3_600_000),
        contentType: "overridden",
        cacheControl: "no-store",
      },
      new StorageSharedKeyCredential(DEVELOPMENT_ACCOUNT.name, DEVELOPMENT_ACCOUNT.key),
    );
    const client = new PageBlobClient(
      `${disk.withSnapshot(snapshot!).url}&${sas}`,
      newPipeline(new AnonymousCredential()),
    );
    const props = await client.getProperties();
    expect([props.contentType, props.cacheControl, props.contentLength]).toEqual([
      "overridden",
      "no-store",
      1024,
    ]);
    const download = await client.downloadToBuffer();
    expect(download.equals(Buffer.alloc(1024))).toBe(true);
    // The token names that snapshot only: not the blob, not another snapshot of it.
    const other = (await disk.createSnapshot()).snapshot!;
    const anonymous = newPipeline(new AnonymousCredential());
    const onBlob = new PageBlobClient(`${disk.url}?${sas}`, anonymous);
    expect(await failure(onBlob.getProperties())).toMatchObject({ status: 403 });
    const onOther = new PageBlobClient(`${disk.withSnapshot(other).url}&${sas}`, anonymous);
    expect(await failure(onOther.getProperties())).toMatchObject({ status: 403 });
  });

  it("Incremental Copy Blob: a page blob snapshot into a blob read through its snapshots", async () => {
    const disk = container.getPageBlobClient("inc-source.vhd");
    await disk.create(1024);
    await disk.uploadPages(page("z"), 512, 512);
    const { snapshot } = await disk.createSnapshot();
    const backup = container.getPageBlobClient("inc-backup.vhd");
    const copied = await backup.startCopyIncremental(disk.withSnapshot(snapshot!).url);
    expect(copied.copyStatus).toBe("success");
    const props = await backup.getProperties();
    expect(props.isIncrementalCopy).toBe(true);
    const kept = props.destinationSnapshot!;
    expect(await failure(backup.download())).toMatchObject({ status: 409 });
    expect((await backup.withSnapshot(kept).downloadToBuffer(512, 512)).equals(page("z"))).toBe(true);
    const listed = [];
    for await (const b of container.listBlobsFlat({ prefix: "inc-backup", includeSnapshots: true }))
      listed.push(b);
    expect(listed.map((b) => b.snapshot ?? "")).toEqual([kept, ""]);
    expect(listed[1]!.properties.incrementalCopy).toBe(true);
    expect(listed[1]!.properties.destinationSnapshot).toBe(kept);
    // The source must be a snapshot; a later copy of an earlier snapshot is refused.
    expect(await failure(backup.startCopyIncremental(disk.url))).toEqual({
      status: 409,
      code: "IncrementalCopySourceMustBeSnapshot",
    });
  });

  it("lists staged-only blobs with include=uncommittedblobs", async () => {
    const fresh = container.getBlockBlobClient("dir/staged-only");
    await fresh.stageBlock(Buffer.from("b1").toString("base64"), "x", 1);
    const plain = [];
    for await (const b of container.listBlobsByHierarchy("/")) plain.push(b.name);
    expect(plain).not.toContain("dir/");
    const all = [];
    for await (const b of container.listBlobsByHierarchy("/", { includeUncommitedBlobs: true }))
      all.push(b.name);
    expect(all).toContain("dir/");
    const flat = [];
    for await (const b of container.listBlobsFlat({ prefix: "dir/", includeUncommitedBlobs: true })) {
      flat.push([b.name, b.properties.contentLength]);
    }
    expect(flat).toEqual([["dir/staged-only", 0]]);
  });
});
