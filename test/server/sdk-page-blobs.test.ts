/**
 * @azure/storage-blob's PageBlobClient and AppendBlobClient.seal, the official client, against
 * tablekit serve: page blobs created, written, cleared, listed, resized and renumbered, their
 * conditions and limits; sealed append blobs; CRC64 checksums on writes and ranged reads.
 */
import { BlobServiceClient, type ContainerClient } from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { crc64 } from "../../src/server/protocol/crc64.js";

let server: RunningServer;
let container: ContainerClient;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  container = BlobServiceClient.fromConnectionString(server.connectionString).getContainerClient("pages");
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

describe("@azure/storage-blob's PageBlobClient against tablekit serve", () => {
  it("creates, writes, clears and lists pages; unwritten pages read as zeros", async () => {
    const disk = container.getPageBlobClient("disk.vhd");
    await disk.create(4 * 512, { blobSequenceNumber: 3, metadata: { kind: "disk" } });
    const props = await disk.getProperties();
    expect([props.blobType, props.contentLength, props.blobSequenceNumber]).toEqual(["PageBlob", 2048, 3]);
    const written = await disk.uploadPages(page("a", 2), 0, 1024);
    expect(written.blobSequenceNumber).toBe(3);
    expect(Buffer.from(written.xMsContentCrc64!)).toEqual(crc64(page("a", 2)));
    await disk.clearPages(512, 512);
    const ranges = await disk.getPageRanges(0, 2048);
    // The SDK reports { offset, count } with count = end - start.
    expect(ranges.pageRange).toEqual([{ offset: 0, count: 511 }]);
    expect(ranges.blobContentLength).toBe(2048);
    const body = await disk.downloadToBuffer();
    expect(body.equals(Buffer.concat([page("a"), Buffer.alloc(1536)]))).toBe(true);
    const listed = [];
    for await (const b of container.listBlobsFlat({ prefix: "disk" })) listed.push(b.properties);
    expect(listed[0]).toMatchObject({ blobType: "PageBlob", blobSequenceNumber: 3, contentLength: 2048 });
  });

  it("Put Blob of a page blob keeps the x-ms-blob-* content headers and x-ms-tags, and honours x-ms-if-tags", async () => {
    const disk = container.getPageBlobClient("headers.vhd");
    await disk.create(512, {
      blobHTTPHeaders: {
        blobContentType: "application/x-vhd",
        blobCacheControl: "no-cache",
        blobContentDisposition: "attachment",
        blobContentLanguage: "en",
        blobContentEncoding: "identity",
      },
      tags: { tier: "gold" },
    });
    const p = await disk.getProperties();
    expect(p).toMatchObject({
      contentType: "application/x-vhd",
      cacheControl: "no-cache",
      contentDisposition: "attachment",
      contentLanguage: "en",
      contentEncoding: "identity",
      tagCount: 1,
    });
    expect(p.contentMD5).toBeUndefined();
    expect(await failure(disk.create(512, { conditions: { tagConditions: `"tier" = 'silver'` } }))).toEqual({
      status: 412,
      code: "ConditionNotMet",
    });
  });

  it("resizes and runs the sequence-number actions", async () => {
    const disk = container.getPageBlobClient("resized");
    await disk.create(1024);
    await disk.uploadPages(page("b", 2), 0, 1024);
    await disk.resize(512);
    expect((await disk.getProperties()).contentLength).toBe(512);
    expect((await disk.getPageRanges()).pageRange).toEqual([{ offset: 0, count: 511 }]);
    expect((await disk.updateSequenceNumber("update", 10)).blobSequenceNumber).toBe(10);
    expect((await disk.updateSequenceNumber("max", 4)).blobSequenceNumber).toBe(10);
    expect((await disk.updateSequenceNumber("increment")).blobSequenceNumber).toBe(11);
    expect(await failure(disk.resize(700))).toEqual({ status: 400, code: "InvalidHeaderValue" });
  });

  it("refuses writes under a failed sequence-number condition, misaligned or past the end, or over 4 MiB", async () => {
    const disk = container.getPageBlobClient("guarded");
    await disk.create(8 * 1024 * 1024, { blobSequenceNumber: 5 });
    for (const conditions of [
      { ifSequenceNumberLessThanOrEqualTo: 4 },
      { ifSequenceNumberLessThan: 5 },
      { ifSequenceNumberEqualTo: 6 },
    ]) {
      expect(await failure(disk.uploadPages(page("x"), 0, 512, { conditions }))).toEqual({
        status: 412,
        code: "SequenceNumberConditionNotMet",
      });
    }
    expect((await disk.getPageRanges()).pageRange).toEqual([]);
    expect(await failure(disk.uploadPages(Buffer.alloc(500), 0, 500))).toMatchObject({ status: 416 });
    expect(await failure(disk.uploadPages(page("x"), 8 * 1024 * 1024, 512))).toEqual({
      status: 416,
      code: "InvalidPageRange",
    });
    const max = 4 * 1024 * 1024;
    await disk.uploadPages(Buffer.alloc(max, 1), 0, max);
    expect(await failure(disk.uploadPages(Buffer.alloc(max + 512, 1), 0, max + 512))).toMatchObject({
      status: 413,
    });
    expect(await failure(disk.getPageRanges(8 * 1024 * 1024, 512))).toMatchObject({ status: 416 });
    expect(await failure(container.getPageBlobClient("odd").create(1000))).toEqual({
      status: 400,
      code: "InvalidHeaderValue",
    });
  });

  it("checks x-ms-content-crc64 on Put Page, Put Block and Append Block, and answers it on ranged reads", async () => {
    const disk = container.getPageBlobClient("crc");
    await disk.create(1024);
    const bytes = page("c");
    await disk.uploadPages(bytes, 0, 512, { transactionalContentCrc64: new Uint8Array(crc64(bytes)) });
    const wrong = new Uint8Array(crc64(page("d")));
    expect(await failure(disk.uploadPages(bytes, 512, 512, { transactionalContentCrc64: wrong }))).toEqual({
      status: 400,
      code: "Crc64Mismatch",
    });
    expect((await disk.getPageRanges()).pageRange).toEqual([{ offset: 0, count: 511 }]);
    const block = container.getBlockBlobClient("crc-block");
    const id = Buffer.from("b1").toString("base64");
    expect(await failure(block.stageBlock(id, "hello", 5, { transactionalContentCrc64: wrong }))).toEqual({
      status: 400,
      code: "Crc64Mismatch",
    });
    await block.stageBlock(id, "hello", 5, {
      transactionalContentCrc64: new Uint8Array(crc64(Buffer.from("hello"))),
    });
    await block.commitBlockList([id]);
    const log = container.getAppendBlobClient("crc-log");
    await log.create();
    expect(await failure(log.appendBlock("abc", 3, { transactionalContentCrc64: wrong }))).toEqual({
      status: 400,
      code: "Crc64Mismatch",
    });
    const appended = await log.appendBlock("abc", 3, {
      transactionalContentCrc64: new Uint8Array(crc64(Buffer.from("abc"))),
    });
    expect(Buffer.from(appended.xMsContentCrc64!)).toEqual(crc64(Buffer.from("abc")));
    const read = await container.getBlobClient("crc-block").download(1, 3, { rangeGetContentCrc64: true });
    expect(Buffer.from(read.contentCrc64!)).toEqual(crc64(Buffer.from("ell")));
    const tooBig = container.getBlockBlobClient("big");
    await tooBig.uploadData(Buffer.alloc(4 * 1024 * 1024 + 1));
    expect(
      await failure(tooBig.download(0, 4 * 1024 * 1024 + 1, { rangeGetContentCrc64: true })),
    ).toMatchObject({
      status: 400,
    });
    await tooBig.download(0, 4 * 1024 * 1024, { rangeGetContentCrc64: true });
  });
});

describe("@azure/storage-blob's AppendBlobClient.seal against tablekit serve", () => {
  it("seals: appends answer 409 BlobIsSealed, properties and listings say sealed", async () => {
    const log = container.getAppendBlobClient("sealed.log");
    await log.create();
    await log.appendBlock("one", 3);
    // An append blob says it is not sealed (x-ms-blob-sealed: false), on properties and downloads.
    expect((await log.getProperties()).isSealed).toBe(false);
    expect((await log.download()).isSealed).toBe(false);
    await container.getBlockBlobClient("plain").upload("x", 1);
    expect((await container.getBlobClient("plain").getProperties()).isSealed).toBeUndefined();
    expect(await failure(log.seal({ conditions: { appendPosition: 2 } }))).toEqual({
      status: 412,
      code: "AppendPositionConditionNotMet",
    });
    await log.seal({ conditions: { appendPosition: 3 } });
    expect((await log.getProperties()).isSealed).toBe(true);
    expect(await failure(log.appendBlock("two", 3))).toEqual({ status: 409, code: "BlobIsSealed" });
    // The service's wording leads the message (clients match on it).
    const refused = await log.appendBlock("two", 3).catch((err: { details?: { message?: string } }) => err);
    expect((refused as { details?: { message?: string } }).details?.message).toMatch(
      /^The specified blob is sealed, and its contents can't be modified unless the blob is re-created after a delete\./,
    );
    const listed = [];
    for await (const b of container.listBlobsFlat({ prefix: "sealed" })) listed.push(b.properties.isSealed);
    expect(listed).toEqual([true]);
  });
});
