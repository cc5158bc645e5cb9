/**
 * What running Azurite's blob tests against tablekit serve found wrong (scripts/azurite-services-suite.ts):
 * transactional Content-MD5 checked on Put Blob, Put Block and Append Block (nothing written on a
 * mismatch), CRC64 refused rather than accepted unchecked, List Blobs ETags without quotes, a 416
 * naming the blob's length, Set Container Metadata's If-Modified-Since, the system containers, and
 * include=uncommittedblobs (and include values in any case) listing staged-only blobs.
 */
import { createHash } from "node:crypto";
import {
  BlobSASPermissions,
  BlobServiceClient,
  type BlockBlobUploadOptions,
  type ContainerClient,
  ContainerSASPermissions,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";

let server: RunningServer;
let service: BlobServiceClient;
let container: ContainerClient;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  service = BlobServiceClient.fromConnectionString(server.connectionString);
  container = service.getContainerClient("gaps");
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

const md5 = (text: string) => createHash("md5").update(text).digest();
/** Put Blob's Content-MD5: the SDK forwards the option to the generated operation, though its type leaves it out. */
const withMd5 = (digest: Uint8Array) => ({ transactionalContentMD5: digest }) as BlockBlobUploadOptions;

describe("blob service gaps found by Azurite's blob tests", () => {
  it("Put Blob: a wrong Content-MD5 is Md5Mismatch and writes nothing; a malformed one is InvalidMd5; a right one stores", async () => {
    const blob = container.getBlockBlobClient("md5/put");
    await blob.upload("old", 3);
    expect(await failure(blob.upload("new body", 8, withMd5(md5("something else"))))).toEqual({
      status: 400,
      code: "Md5Mismatch",
    });
    expect((await blob.downloadToBuffer()).toString()).toBe("old");
    expect(await failure(blob.upload("new body", 8, withMd5(Buffer.from("short"))))).toEqual({
      status: 400,
      code: "InvalidMd5",
    });
    const fresh = container.getBlockBlobClient("md5/never");
    expect(await failure(fresh.upload("body", 4, withMd5(md5("nope"))))).toEqual({
      status: 400,
      code: "Md5Mismatch",
    });
    expect(await fresh.exists()).toBe(false);
    await blob.upload("new body", 8, withMd5(md5("new body")));
    expect((await blob.downloadToBuffer()).toString()).toBe("new body");
  });

  it("x-ms-blob-content-md5 checks a block blob's body (128 bits or InvalidMd5) but is kept as given on an empty append or page blob", async () => {
    const odd = new Uint8Array([1, 2, 3, 4, 5]);
    const blobHTTPHeaders = { blobContentMD5: odd, blobContentType: "text/odd" };
    const block = container.getBlockBlobClient("md5/odd-block");
    expect(await failure(block.upload("body", 4, { blobHTTPHeaders }))).toEqual({
      status: 400,
      code: "InvalidMd5",
    });
    expect(await block.exists()).toBe(false);
    const append = container.getAppendBlobClient("md5/odd-append");
    await append.create({ blobHTTPHeaders });
    expect([...((await append.getProperties()).contentMD5 ?? [])]).toEqual([...odd]);
    const page = container.getPageBlobClient("md5/odd-page");
    await page.create(512, { blobHTTPHeaders });
    const props = await page.getProperties();
    expect([...(props.contentMD5 ?? [])]).toEqual([...odd]);
    expect(props.contentType).toBe("text/odd");
  });

  it("Put Block and Append Block check Content-MD5; nothing is staged or appended on a mismatch; a wrong CRC64 is refused too", async () => {
    const blob = container.getBlockBlobClient("md5/staged");
    const id = Buffer.from("block-1").toString("base64");
    expect(await failure(blob.stageBlock(id, "abc", 3, { transactionalContentMD5: md5("abd") }))).toEqual({
      status: 400,
      code: "Md5Mismatch",
    });
    expect(
      (await blob.getBlockList("all").catch(() => ({ uncommittedBlocks: [] }))).uncommittedBlocks ?? [],
    ).toEqual([]);
    await blob.stageBlock(id, "abc", 3, { transactionalContentMD5: md5("abc") });
    expect((await blob.getBlockList("uncommitted")).uncommittedBlocks?.map((b) => b.size)).toEqual([3]);
    expect(
      await failure(blob.stageBlock(id, "abc", 3, { transactionalContentCrc64: new Uint8Array(8) })),
    ).toEqual({ status: 400, code: "Crc64Mismatch" });

    const append = container.getAppendBlobClient("md5/append");
    await append.create();
    expect(await failure(append.appendBlock("xyz", 3, { transactionalContentMD5: md5("xy") }))).toEqual({
      status: 400,
      code: "Md5Mismatch",
    });
    expect((await append.getProperties()).contentLength).toBe(0);
    await append.appendBlock("xyz", 3, { transactionalContentMD5: md5("xyz") });
    expect((await append.downloadToBuffer()).toString()).toBe("xyz");
  });

  it("List Blobs writes ETags without quotes, as the service does (Get Blob's ETag header keeps them)", async () => {
    const blob = container.getBlockBlobClient("etag/one");
    const put = await blob.upload("x", 1);
    const listed = [];
    for await (const b of container.listBlobsFlat({ prefix: "etag/" })) listed.push(b.properties.etag);
    expect(put.etag).toMatch(/^"0x[0-9A-F]+"$/);
    expect(listed).toEqual([put.etag!.slice(1, -1)]);
  });

  it("a range past an empty blob's end is 416 InvalidRange with Content-Range bytes */0", async () => {
    const blob = container.getBlockBlobClient("range/empty");
    await blob.upload("", 0);
    try {
      await blob.download(0, 3);
      throw new Error("expected 416");
    } catch (err) {
      const e = err as {
        statusCode: number;
        code: string;
        response: { headers: { get(n: string): string } };
      };
      expect([e.statusCode, e.code]).toEqual([416, "InvalidRange"]);
      expect(e.response.headers.get("content-range")).toBe("bytes */0");
    }
  });

  it("Set Container Metadata with an If-Modified-Since after the container's change is 412 and changes nothing", async () => {
    const c = service.getContainerClient("since");
    await c.create({ metadata: { a: "1" } });
    expect(
      await failure(c.setMetadata({ a: "2" }, { conditions: { ifModifiedSince: new Date("2118-01-01") } })),
    ).toEqual({ status: 412, code: "ConditionNotMet" });
    expect((await c.getProperties()).metadata).toEqual({ a: "1" });
    await c.setMetadata({ a: "3" }, { conditions: { ifModifiedSince: new Date("2000-01-01") } });
    expect((await c.getProperties()).metadata).toEqual({ a: "3" });
  });

  it("the system containers: reads find nothing (404), creating one is not served (501)", async () => {
    expect(await failure(service.getContainerClient("$logs").getProperties())).toEqual({
      status: 404,
      code: "ContainerNotFound",
    });
    expect(await failure(service.getContainerClient("$web").create())).toEqual({
      status: 501,
      code: "NotImplemented",
    });
    expect(await failure(service.getContainerClient("$notsystem").create())).toEqual({
      status: 400,
      code: "InvalidResourceName",
    });
  });

  it("listing with include=uncommittedblobs lists staged-only blobs; include values are read in any case", async () => {
    await container.getBlockBlobClient("staged/only").stageBlock(Buffer.from("b").toString("base64"), "b", 1);
    const sas = await container.generateSasUrl({
      permissions: ContainerSASPermissions.parse("l"),
      expiresOn: new Date(Date.now() + 3_600_000),
    });
    const list = (include: string) =>
      fetch(
        `${container.url}?restype=container&comp=list&prefix=staged/&include=${include}&${sas.split("?")[1]}`,
      );
    const listed = async (include: string) => {
      const response = await list(include);
      expect(response.status).toBe(200);
      return [...(await response.text()).matchAll(/<Name>([^<]*)<\/Name>/g)].map((m) => m[1]);
    };
    expect(await listed("UncommittedBlobs")).toEqual(["staged/only"]);
    expect(await listed("metadata")).toEqual([]);
    expect(await listed("Snapshots,uncommittedblobs")).toEqual(["staged/only"]);
    expect((await list("nothing")).status).toBe(400);
  });

  it("an If-Match that is no ETag at all is 412 ConditionNotMet on Append Block (not InvalidInput), nothing appended", async () => {
    const append = container.getAppendBlobClient("cond/append");
    const created = await append.create();
    expect(
      await failure(append.appendBlock("a", 1, { conditions: { ifMatch: `${created.etag}2` } })),
    ).toEqual({ status: 412, code: "ConditionNotMet" });
    expect((await append.getProperties()).contentLength).toBe(0);
  });

  it("Append Block with an empty body is 400 InvalidHeaderValue", async () => {
    const append = container.getAppendBlobClient("empty/append");
    await append.create();
    expect(await failure(append.appendBlock("", 0))).toEqual({ status: 400, code: "InvalidHeaderValue" });
  });

  it("a container name of the wrong length is 400 OutOfRangeInput; a bad character stays InvalidResourceName", async () => {
    for (const name of ["ab", "a".repeat(64)]) {
      expect(await failure(service.getContainerClient(name).create())).toEqual({
        status: 400,
        code: "OutOfRangeInput",
      });
    }
    expect(await failure(service.getContainerClient("abc--d").create())).toEqual({
      status: 400,
      code: "InvalidResourceName",
    });
  });

  it("uncommitted block ids of one blob have one length: another is 400 InvalidBlobOrBlock; after a commit any length starts again", async () => {
    const blob = container.getBlockBlobClient("ids/one");
    const id = (text: string) => Buffer.from(text).toString("base64");
    await blob.stageBlock(id("1"), "a", 1);
    expect(await failure(blob.stageBlock(id("123"), "b", 1))).toEqual({
      status: 400,
      code: "InvalidBlobOrBlock",
    });
    expect((await blob.getBlockList("uncommitted")).uncommittedBlocks?.map((b) => b.name)).toEqual([id("1")]);
    await blob.commitBlockList([id("1")]);
    await blob.stageBlock(id("123"), "b", 1);
    expect((await blob.getBlockList("uncommitted")).uncommittedBlocks?.map((b) => b.name)).toEqual([
      id("123"),
    ]);
  });
  it("Put Block List answers the Content-MD5 of the block list it was sent; a wrong one is Md5Mismatch and commits nothing", async () => {
    const blob = container.getBlockBlobClient("md5/list");
    const id = Buffer.from("block-1").toString("base64");
    await blob.stageBlock(id, "one", 3);
    const sas = await container.generateSasUrl({
      permissions: ContainerSASPermissions.parse("rw"),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    const xml = `<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>${id}</Latest></BlockList>`;
    const put = (headers: Record<string, string>) =>
      fetch(`${blob.url}?comp=blocklist&${sas.split("?")[1]}`, {
        method: "PUT",
        headers: { "x-ms-version": "2021-12-02", ...headers },
        body: xml,
      });
    const wrong = await put({ "content-md5": md5("other").toString("base64") });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get("x-ms-error-code")).toBe("Md5Mismatch");
    expect(await blob.exists()).toBe(false);
    const ok = await put({});
    expect(ok.status).toBe(201);
    expect(ok.headers.get("content-md5")).toBe(md5(xml).toString("base64"));
    expect((await blob.downloadToBuffer()).toString()).toBe("one");
  });
  it("Get Blob Properties (HEAD) ignores Range and x-ms-range: 200 with the whole blob's Content-Length", async () => {
    const blob = container.getBlockBlobClient("head/ranged");
    await blob.upload("0123456789", 10);
    const sas = await blob.generateSasUrl({
      permissions: BlobSASPermissions.parse("r"),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    const ranges: Record<string, string>[] = [{ "x-ms-range": "bytes=2-5" }, { range: "bytes=2-" }];
    for (const range of ranges) {
      const head = await fetch(sas, { method: "HEAD", headers: { "x-ms-version": "2021-12-02", ...range } });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe("10");
      expect(head.headers.get("content-range")).toBeNull();
    }
    const get = await fetch(sas, { headers: { "x-ms-version": "2021-12-02", "x-ms-range": "bytes=2-5" } });
    expect(get.status).toBe(206);
    expect(await get.text()).toBe("2345");
  });
  it("Get Blob and Get Blob Properties with If-None-Match: * are 400 UnsatisfiableCondition, the blob there or not", async () => {
    const blob = container.getBlockBlobClient("none-match/star");
    await blob.upload("x", 1);
    for (const name of ["none-match/star", "none-match/absent"]) {
      const client = container.getBlobClient(name);
      const none = { conditions: { ifNoneMatch: "*" } };
      expect(await failure(client.download(0, undefined, none))).toEqual({
        status: 400,
        code: "UnsatisfiableCondition",
      });
      expect((await failure(client.getProperties(none))).status).toBe(400);
    }
  });
  it("Get Account Information names the SKU of an account with a read-only secondary: Standard_RAGRS", async () => {
    const info = await service.getAccountInfo();
    expect(info.skuName).toBe("Standard_RAGRS");
    expect(info.accountKind).toBe("StorageV2");
  });
});
