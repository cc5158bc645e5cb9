/**
 * Blob properties and leases through tablekit serve with the official @azure/storage-blob client,
 * and what the client cannot show (empty metadata values, the case of metadata names, Get Blob
 * Metadata, If-Match lists) through raw requests signed with a SAS.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  BlobSASPermissions,
  BlobServiceClient,
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
  container = service.getContainerClient("props");
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

const md5 = (bytes: string | Buffer) => createHash("md5").update(bytes).digest();
const expiresOn = () => new Date(Date.now() + 3600_000);

describe("blob properties through serve", () => {
  it("setHTTPHeaders sets every content header and clears those not given; reads return them", async () => {
    const blob = container.getBlockBlobClient("headers");
    await blob.upload("hello", 5, {
      blobHTTPHeaders: { blobContentType: "text/plain", blobCacheControl: "no-cache" },
    });
    const uploaded = await blob.getProperties();
    expect(uploaded.cacheControl).toBe("no-cache");
    expect(Buffer.from(uploaded.contentMD5!).equals(md5("hello"))).toBe(true);
    expect(uploaded.createdOn).toBeInstanceOf(Date);
    await blob.setHTTPHeaders({
      blobCacheControl: "max-age=5",
      blobContentDisposition: "attachment",
      blobContentEncoding: "identity",
      blobContentLanguage: "de",
      blobContentType: "text/x-test",
    });
    const p = await blob.getProperties();
    expect(p).toMatchObject({
      cacheControl: "max-age=5",
      contentDisposition: "attachment",
      contentEncoding: "identity",
      contentLanguage: "de",
      contentType: "text/x-test",
    });
    expect(p.contentMD5).toBeUndefined();
    const download = await blob.download();
    expect(download.cacheControl).toBe("max-age=5");
    expect(download.contentLanguage).toBe("de");
    const listed = [];
    for await (const item of container.listBlobsFlat({ prefix: "headers" })) listed.push(item);
    expect(listed[0]!.properties).toMatchObject({ cacheControl: "max-age=5", contentLanguage: "de" });
    await blob.setHTTPHeaders({ blobCacheControl: "only" });
    const cleared = await blob.getProperties();
    expect(cleared.cacheControl).toBe("only");
    expect(cleared.contentLanguage).toBeUndefined();
  });

  it("keeps x-ms-blob-content-md5 of a block list and answers a range's MD5 up to 4 MiB", async () => {
    const blob = container.getBlockBlobClient("md5");
    const id = Buffer.from("0001").toString("base64");
    await blob.stageBlock(id, "0123456789", 10);
    const declared = md5("declared");
    await blob.commitBlockList([id], { blobHTTPHeaders: { blobContentMD5: declared } });
    expect(Buffer.from((await blob.getProperties()).contentMD5!).equals(declared)).toBe(true);
    const ranged = await blob.download(2, 3, { rangeGetContentMD5: true });
    expect(Buffer.from(ranged.contentMD5!).equals(md5("234"))).toBe(true);
    expect(Buffer.from(ranged.blobContentMD5!).equals(declared)).toBe(true);
    const big = container.getBlockBlobClient("md5-big");
    await big.upload(Buffer.alloc(4 * 1024 * 1024 + 2), 4 * 1024 * 1024 + 2);
    const atLimit = await big.download(0, 4 * 1024 * 1024, { rangeGetContentMD5: true });
    expect(atLimit.contentMD5).toBeDefined();
    expect(await failure(big.download(0, 4 * 1024 * 1024 + 1, { rangeGetContentMD5: true }))).toMatchObject({
      status: 400,
    });
    // An open range ("bytes=7-") is checked by the length it turns out to have.
    const tail = await blob.download(7, undefined, { rangeGetContentMD5: true });
    expect(Buffer.from(tail.contentMD5!).equals(md5("789"))).toBe(true);
    // Without a range at all it is the documented 400 (InvalidHeaderValue).
    expect(await failure(big.download(0, undefined, { rangeGetContentMD5: true }))).toMatchObject({
      status: 400,
      code: "InvalidHeaderValue",
    });
    expect(await failure(big.download(1, undefined, { rangeGetContentMD5: true }))).toMatchObject({
      status: 400,
      code: "OutOfRangeInput",
    });
    expect((await big.download(2, undefined, { rangeGetContentMD5: true })).contentLength).toBe(
      4 * 1024 * 1024,
    );
  });

  it("keeps metadata names' case and empty values; Get Blob Metadata answers them", async () => {
    const blob = container.getBlockBlobClient("meta");
    await blob.upload("x", 1, { metadata: { Author: "Ada", empty: "" } });
    const sas = await blob.generateSasUrl({
      permissions: BlobSASPermissions.parse("r"),
      expiresOn: expiresOn(),
    });
    const response = await fetch(`${sas}&comp=metadata`);
    expect(response.status).toBe(200);
    const raw = await rawHeaderNames(`${sas}&comp=metadata`);
    expect(raw).toContain("x-ms-meta-Author");
    expect(response.headers.get("x-ms-meta-empty")).toBe("");
    expect(response.headers.get("etag")).toBe((await blob.getProperties()).etag);
  });

  it("If-Match with a list holding * matches any blob; If-None-Match || If-Modified-Since on reads", async () => {
    const blob = container.getBlockBlobClient("conditions");
    const { etag, lastModified } = await blob.upload("x", 1);
    const sas = await blob.generateSasUrl({
      permissions: BlobSASPermissions.parse("r"),
      expiresOn: expiresOn(),
    });
    expect((await fetch(sas, { headers: { "if-match": '"0xNOPE", *' } })).status).toBe(200);
    expect((await fetch(sas, { headers: { "if-match": `"0xNOPE", ${etag}` } })).status).toBe(200);
    expect((await fetch(sas, { headers: { "if-match": '"0xNOPE", "0xOTHER"' } })).status).toBe(412);
    const before = new Date(lastModified!.getTime() - 60_000).toUTCString();
    const after = new Date(lastModified!.getTime() + 60_000).toUTCString();
    // The ETag matches (None-Match fails) but the blob changed since `before`: served.
    const either = { "if-none-match": etag!, "if-modified-since": before };
    expect((await fetch(sas, { headers: either })).status).toBe(200);
    expect(
      (await fetch(sas, { headers: { "if-none-match": etag!, "if-modified-since": after } })).status,
    ).toBe(304);
  });

  it("reads a backslash in a blob's name as a slash", async () => {
    const sas = await container.generateSasUrl({
      permissions: ContainerSASPermissions.parse("rcwl"),
      expiresOn: expiresOn(),
    });
    const [base, query] = sas.split("?");
    const put = await fetch(`${base}/dir%5Cfile.txt?${query}`, {
      method: "PUT",
      headers: { "x-ms-blob-type": "BlockBlob" },
      body: "b",
    });
    expect(put.status).toBe(201);
    expect((await container.getBlobClient("dir/file.txt").downloadToBuffer()).toString()).toBe("b");
  });

  it("a container SAS may list blobs but not read the container's properties", async () => {
    const sas = await container.generateSasUrl({
      permissions: ContainerSASPermissions.parse("rl"),
      expiresOn: expiresOn(),
    });
    const [base, query] = sas.split("?");
    expect((await fetch(`${base}?restype=container&comp=list&${query}`)).status).toBe(200);
    expect((await fetch(`${base}?restype=container&${query}`)).status).toBe(403);
  });
});

describe("leases through serve", () => {
  it("a blob lease guards writes with the service's codes, and breaks", async () => {
    const blob = container.getBlockBlobClient("leased");
    await blob.upload("v1", 2);
    const lease = blob.getBlobLeaseClient();
    await lease.acquireLease(15);
    expect(await blob.getProperties()).toMatchObject({
      leaseState: "leased",
      leaseStatus: "locked",
      leaseDuration: "fixed",
    });
    expect(await failure(blob.upload("v2", 2))).toEqual({ status: 412, code: "LeaseIdMissing" });
    expect(await failure(blob.upload("v2", 2, { conditions: { leaseId: randomUUID() } }))).toEqual({
      status: 412,
      code: "LeaseIdMismatchWithBlobOperation",
    });
    expect(await failure(blob.setMetadata({ a: "b" }))).toEqual({ status: 412, code: "LeaseIdMissing" });
    expect(await failure(blob.setHTTPHeaders({}))).toEqual({ status: 412, code: "LeaseIdMissing" });
    expect(await failure(blob.delete())).toEqual({ status: 412, code: "LeaseIdMissing" });
    await blob.upload("v2", 2, { conditions: { leaseId: lease.leaseId } });
    expect(await failure(blob.getBlobLeaseClient().acquireLease(15))).toEqual({
      status: 409,
      code: "LeaseAlreadyPresent",
    });
    const broken = await blob.getBlobLeaseClient().breakLease(0);
    expect(broken.leaseTime).toBe(0);
    expect((await blob.getProperties()).leaseState).toBe("broken");
    expect(await failure(lease.renewLease())).toEqual({
      status: 409,
      code: "LeaseIsBrokenAndCannotBeRenewed",
    });
    await blob.delete();
  });

  it("refuses lease durations and break periods outside the service's limits with 400", async () => {
    const blob = container.getBlockBlobClient("limits");
    await blob.upload("x", 1);
    expect(await failure(blob.getBlobLeaseClient().acquireLease(14))).toMatchObject({ status: 400 });
    expect(await failure(blob.getBlobLeaseClient().acquireLease(61))).toMatchObject({ status: 400 });
    const lease = blob.getBlobLeaseClient();
    await lease.acquireLease(60);
    expect(await failure(lease.breakLease(61))).toMatchObject({ status: 400 });
    await lease.releaseLease();
  });

  it("a leased container is deleted only with its lease id; listings show the lease", async () => {
    const leased = service.getContainerClient("leasedcontainer");
    await leased.create();
    const lease = leased.getBlobLeaseClient();
    await lease.acquireLease(-1);
    expect(await leased.getProperties()).toMatchObject({ leaseState: "leased", leaseDuration: "infinite" });
    for await (const item of service.listContainers({ prefix: "leasedcontainer" })) {
      expect(item.properties).toMatchObject({ leaseState: "leased", leaseStatus: "locked" });
    }
    expect(await failure(leased.delete())).toEqual({ status: 412, code: "LeaseIdMissing" });
    const changed = randomUUID();
    await lease.changeLease(changed);
    await leased.delete({ conditions: { leaseId: changed } });
    expect(await leased.exists()).toBe(false);
  });
});

/** The response's header names as sent (fetch lower-cases them). */
async function rawHeaderNames(url: string): Promise<string[]> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      const names = res.rawHeaders.filter((_, i) => i % 2 === 0);
      res.resume();
      resolve(names);
    })
      .on("error", reject)
      .end();
  });
}
