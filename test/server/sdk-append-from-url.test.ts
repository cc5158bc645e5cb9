/**
 * @azure/storage-blob's AppendBlobClient.appendBlockFromURL against tablekit serve: a source in the
 * same account (read through the store) and one on another serve fetched with a SAS; the source
 * range, source and append conditions, x-ms-source-content-md5, and what is refused (also Put Page
 * From URL, not served).
 */
import { createHash } from "node:crypto";
import {
  BlobSASPermissions,
  BlobServiceClient,
  type ContainerClient,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";

let server: RunningServer;
let other: RunningServer;
let container: ContainerClient;

beforeAll(async () => {
  [server, other] = await Promise.all([
    startServer({ port: 0, services: ["blob"] }),
    startServer({ port: 0, services: ["blob"] }),
  ]);
  container = BlobServiceClient.fromConnectionString(server.connectionString).getContainerClient("apps");
  await container.create();
});
afterAll(async () => {
  await Promise.all([server?.stop(), other?.stop()]);
});

async function failure(work: Promise<unknown>): Promise<{ status: number; code: string | undefined }> {
  try {
    await work;
  } catch (err) {
    const e = err as { statusCode: number; code?: string };
    return { status: e.statusCode, code: e.code };
  }
  throw new Error("expected a failure");
}

describe("@azure/storage-blob's appendBlockFromURL against tablekit serve", () => {
  it("appends ranges of a blob of the same account under source and append conditions", async () => {
    const src = container.getBlockBlobClient("source.txt");
    const uploaded = await src.upload("0123456789abcdef", 16);
    const log = container.getAppendBlobClient("log.txt");
    await log.create();
    const first = await log.appendBlockFromURL(src.url, 10, 6);
    expect([first.blobAppendOffset, first.blobCommittedBlockCount]).toEqual(["0", 1]);
    expect(first.isServerEncrypted).toBe(true);
    const md5 = createHash("md5").update("0123").digest();
    const second = await log.appendBlockFromURL(src.url, 0, 4, {
      sourceConditions: { ifMatch: uploaded.etag! },
      conditions: { appendPosition: 6, maxSize: 10 },
      sourceContentMD5: md5,
    });
    expect(second.blobAppendOffset).toBe("6");
    expect((await log.downloadToBuffer()).toString()).toBe("abcdef0123");

    expect(
      await failure(
        log.appendBlockFromURL(src.url, 0, 4, { sourceConditions: { ifNoneMatch: uploaded.etag! } }),
      ),
    ).toEqual({ status: 412, code: "SourceConditionNotMet" });
    expect(
      await failure(log.appendBlockFromURL(src.url, 0, 4, { conditions: { appendPosition: 0 } })),
    ).toEqual({
      status: 412,
      code: "AppendPositionConditionNotMet",
    });
    expect(await failure(log.appendBlockFromURL(src.url, 0, 4, { conditions: { maxSize: 12 } }))).toEqual({
      status: 412,
      code: "MaxBlobSizeConditionNotMet",
    });
    expect(
      await failure(log.appendBlockFromURL(src.url, 0, 4, { sourceContentMD5: Buffer.alloc(16) })),
    ).toEqual({
      status: 400,
      code: "Md5Mismatch",
    });
    expect(await failure(log.appendBlockFromURL(src.url, 100, 4))).toEqual({
      status: 404,
      code: "CannotVerifyCopySource",
    });
    expect(await failure(log.appendBlockFromURL(`${container.url}/missing`, 0, 4))).toEqual({
      status: 404,
      code: "CannotVerifyCopySource",
    });
    // CRC64 of a source is not checked here: refused rather than ignored.
    expect(
      await failure(log.appendBlockFromURL(src.url, 0, 4, { sourceContentCrc64: new Uint8Array(8) })),
    ).toMatchObject({ status: 501 });
    expect(
      await failure(container.getAppendBlobClient("source.txt").appendBlockFromURL(src.url, 0, 4)),
    ).toEqual({
      status: 409,
      code: "InvalidBlobType",
    });
    expect((await log.downloadToBuffer()).toString()).toBe("abcdef0123");
  });

  it("Copy Blob does not copy the seal; x-ms-seal-blob seals the copy", async () => {
    const log = container.getAppendBlobClient("to-seal.log");
    await log.create();
    await log.appendBlock("x", 1);
    await log.seal();
    const copy = container.getAppendBlobClient("sealed-copy.log");
    await (await copy.beginCopyFromURL(log.url, { sealBlob: true })).pollUntilDone();
    expect(await copy.getProperties()).toMatchObject({ blobType: "AppendBlob", isSealed: true });
    const open = container.getAppendBlobClient("open-copy.log");
    await open.beginCopyFromURL(log.url);
    // Not sealed: serve answers x-ms-blob-sealed: false for an append blob that is not.
    expect(await open.getProperties()).toMatchObject({ blobType: "AppendBlob", isSealed: false });
  });

  it("answers Put Page From URL with 501 rather than writing the empty body", async () => {
    const src = container.getPageBlobClient("page-src");
    await src.create(512);
    await src.uploadPages(Buffer.alloc(512, "p"), 0, 512);
    const dst = container.getPageBlobClient("page-dst");
    await dst.create(512);
    expect(await failure(dst.uploadPagesFromURL(src.url, 0, 0, 512))).toEqual({
      status: 501,
      code: "NotImplemented",
    });
    expect((await dst.getPageRanges()).pageRange).toEqual([]);
  });

  it("fetches a source on another server through a SAS, and cannot read it without one", async () => {
    const far = BlobServiceClient.fromConnectionString(other.connectionString).getContainerClient("far");
    await far.create();
    const blob = far.getBlockBlobClient("far.bin");
    await blob.upload("from another serve", 18);
    const account = other.connectionString.match(/AccountName=([^;]+)/)![1]!;
    const key = other.connectionString.match(/AccountKey=([^;]+)/)![1]!;
    const sas = generateBlobSASQueryParameters(
      {
        containerName: "far",
        blobName: "far.bin",
        permissions: BlobSASPermissions.parse("r"),
        expiresOn: new Date(Date.now() + 3600_000),
      },
      new StorageSharedKeyCredential(account, key),
    );
    const log = container.getAppendBlobClient("far.log");
    await log.create();
    await log.appendBlockFromURL(`${blob.url}?${sas.toString()}`, 5, 7);
    expect((await log.downloadToBuffer()).toString()).toBe("another");
    expect(await failure(log.appendBlockFromURL(blob.url, 0, 4))).toMatchObject({
      status: 404,
      code: "CannotVerifyCopySource",
    });
  });
});
