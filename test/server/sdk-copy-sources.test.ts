/**
 * @azure/storage-blob's copies against tablekit serve with two accounts: who may read a copy's
 * source (Copy Blob's "Authorization": the destination's Shared Key in its own account, else the
 * source URL's own SAS, else public access only) and every way around it tried; x-ms-tags and
 * x-ms-copy-source-tag-option, x-ms-access-tier and x-ms-source-content-md5 on copies; the CRC-64
 * that Put Block and Append Block answer without a checksum; tags and leases over HTTP.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  BlobSASPermissions,
  BlobServiceClient,
  type ContainerClient,
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAccounts, type RunningServer, startServer } from "../../src/server/index.js";
import { crc64 } from "../../src/server/protocol/crc64.js";

const dev = parseAccounts(undefined)[0]!;
const A = { name: dev.name, key: dev.keys[0]! };
const B = { name: "secondaccount", key: randomBytes(32).toString("base64") };
const credA = new StorageSharedKeyCredential(A.name, A.key);
const credB = new StorageSharedKeyCredential(B.name, B.key);
const hour = () => new Date(Date.now() + 3600_000);

let server: RunningServer;
let a: ContainerClient;
let b: ContainerClient;
let publicA: ContainerClient;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    services: ["blob"],
    accounts: [
      { name: A.name, keys: [A.key] },
      { name: B.name, keys: [B.key] },
    ],
  });
  const base = `http://127.0.0.1:${server.port}`;
  a = new BlobServiceClient(`${base}/${A.name}`, credA).getContainerClient("private-a");
  b = new BlobServiceClient(`${base}/${B.name}`, credB).getContainerClient("private-b");
  publicA = new BlobServiceClient(`${base}/${A.name}`, credA).getContainerClient("public-a");
  await Promise.all([a.create(), b.create(), publicA.create({ access: "blob" })]);
  await a.getBlockBlobClient("src").upload("hello", 5, { tags: { from: "source" } });
  await a.getBlockBlobClient("other").upload("other", 5);
  await publicA.getBlockBlobClient("open").upload("public", 6);
});
afterAll(async () => {
  await server?.stop();
});

async function failure(
  work: Promise<unknown>,
): Promise<{ status: number; code: string | undefined; message: string }> {
  try {
    await work;
  } catch (err) {
    const e = err as { statusCode: number; code?: string; message: string };
    return { status: e.statusCode, code: e.code, message: e.message };
  }
  throw new Error("expected a failure");
}

function blobSas(
  container: string,
  blob: string | undefined,
  permissions: string,
  cred: StorageSharedKeyCredential,
  expiresOn = hour(),
) {
  return generateBlobSASQueryParameters(
    {
      containerName: container,
      ...(blob === undefined ? {} : { blobName: blob }),
      permissions:
        blob === undefined
          ? ContainerSASPermissions.parse(permissions)
          : BlobSASPermissions.parse(permissions),
      expiresOn,
    },
    cred,
  ).toString();
}

const srcUrl = () => a.getBlobClient("src").url;

describe("who may read a copy's source (Copy Blob's Authorization)", () => {
  it("the destination's Shared Key reads a private source of its own account, by either copy", async () => {
    const dst = a.getBlockBlobClient("dst-key");
    expect((await (await dst.beginCopyFromURL(srcUrl())).pollUntilDone()).copyStatus).toBe("success");
    expect((await dst.syncCopyFromURL(srcUrl())).copyStatus).toBe("success");
    expect((await dst.downloadToBuffer()).toString()).toBe("hello");
  });

  it("a SAS on the destination applies to the destination only: a private source needs its own SAS", async () => {
    const sas = blobSas("private-a", undefined, "cw", credA);
    const dst = new BlobServiceClient(`${a.url.replace("/private-a", "")}?${sas}`)
      .getContainerClient("private-a")
      .getBlockBlobClient("dst-sas");
    expect(await failure(dst.syncCopyFromURL(srcUrl()))).toMatchObject({
      status: 404,
      code: "CannotVerifyCopySource",
    });
    expect(await failure(dst.beginCopyFromURL(srcUrl()))).toMatchObject({
      status: 404,
      code: "CannotVerifyCopySource",
    });
    expect(await dst.exists().catch(() => false)).toBe(false);
    const readable = `${srcUrl()}?${blobSas("private-a", "src", "r", credA)}`;
    expect((await dst.syncCopyFromURL(readable)).copyStatus).toBe("success");
  });

  it("a source SAS without read, for another blob, signed by another account or expired is refused", async () => {
    const dst = a.getBlockBlobClient("dst-refused");
    const noRead = await failure(
      dst.beginCopyFromURL(`${srcUrl()}?${blobSas("private-a", "src", "w", credA)}`),
    );
    expect(noRead).toMatchObject({ status: 403, code: "CannotVerifyCopySource" });
    expect(noRead.message).toMatch(
      /^This request is not authorized to perform this operation using this permission\./,
    );
    // A read SAS for another blob does not open this one (the signature names its blob).
    const otherBlob = blobSas("private-a", "other", "r", credA);
    expect(await failure(dst.syncCopyFromURL(`${srcUrl()}?${otherBlob}`))).toMatchObject({
      status: 403,
      code: "CannotVerifyCopySource",
    });
    // Nor does a read SAS of another container.
    const otherContainer = blobSas("public-a", undefined, "r", credA);
    expect(await failure(dst.syncCopyFromURL(`${srcUrl()}?${otherContainer}`))).toMatchObject({
      status: 403,
      code: "CannotVerifyCopySource",
    });
    // Account B's key signs nothing of account A.
    expect(
      await failure(dst.syncCopyFromURL(`${srcUrl()}?${blobSas("private-a", "src", "r", credB)}`)),
    ).toMatchObject({ status: 403, code: "CannotVerifyCopySource" });
    const expired = blobSas("private-a", "src", "r", credA, new Date(Date.now() - 60_000));
    expect(await failure(dst.syncCopyFromURL(`${srcUrl()}?${expired}`))).toMatchObject({
      status: 403,
      code: "CannotVerifyCopySource",
    });
    // Put Block From URL follows the same rule.
    expect(
      await failure(
        dst.stageBlockFromURL(
          Buffer.from("b").toString("base64"),
          `${srcUrl()}?${blobSas("private-a", "src", "w", credA)}`,
        ),
      ),
    ).toMatchObject({ status: 403, code: "CannotVerifyCopySource" });
    // A bearer token for the source is not served: refused, not read under another rule.
    expect(
      await failure(dst.syncCopyFromURL(srcUrl(), { sourceAuthorization: { scheme: "Bearer", value: "t" } })),
    ).toMatchObject({ status: 501 });
    expect(await dst.exists()).toBe(false);
  });

  it("another account's private source needs a SAS of that account; a public one needs none", async () => {
    const dst = b.getBlockBlobClient("from-a");
    // B's Shared Key authorizes B's destination, never A's source.
    expect(await failure(dst.beginCopyFromURL(srcUrl()))).toMatchObject({
      status: 404,
      code: "CannotVerifyCopySource",
    });
    const readable = `${srcUrl()}?${blobSas("private-a", "src", "r", credA)}`;
    expect((await (await dst.beginCopyFromURL(readable)).pollUntilDone()).copyStatus).toBe("success");
    expect((await dst.downloadToBuffer()).toString()).toBe("hello");
    const open = b.getBlockBlobClient("from-public");
    await open.syncCopyFromURL(publicA.getBlobClient("open").url);
    expect((await open.downloadToBuffer()).toString()).toBe("public");
    // COPY of tags reads a store's blob through the source's credential: A's blob, with t.
    const tagged = b.getBlockBlobClient("tags-from-a");
    const withTags = `${srcUrl()}?${blobSas("private-a", "src", "rt", credA)}`;
    await tagged.syncCopyFromURL(withTags, { copySourceTags: "COPY" });
    expect((await tagged.getTags()).tags).toEqual({ from: "source" });
  });

  it("an archived source in another account is 409 CannotVerifyCopySource; in the same one it needs a tier", async () => {
    const archived = a.getBlockBlobClient("archived");
    await archived.upload("cold", 4);
    await archived.setAccessTier("Archive");
    const readable = `${archived.url}?${blobSas("private-a", "archived", "r", credA)}`;
    expect(await failure(b.getBlockBlobClient("x").beginCopyFromURL(readable))).toMatchObject({
      status: 409,
      code: "CannotVerifyCopySource",
    });
    const dst = a.getBlockBlobClient("rehydrated");
    expect(await failure(dst.beginCopyFromURL(archived.url))).toMatchObject({
      status: 409,
      code: "BlobArchived",
    });
    await dst.beginCopyFromURL(archived.url, { tier: "Cool" });
    expect((await dst.getProperties()).accessTier).toBe("Cool");
    expect((await dst.downloadToBuffer()).toString()).toBe("cold");
    expect(await failure(dst.beginCopyFromURL(srcUrl(), { tier: "P10" }))).toMatchObject({ status: 400 });
  });
});

describe("tags, source MD5 and checksums on copies and blocks", () => {
  it("x-ms-tags on a copy within the limits (10 tags, key 1–128, value 0–256), each crossed by one", async () => {
    const dst = a.getBlockBlobClient("tags-dst");
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "v"]));
    await dst.syncCopyFromURL(srcUrl(), { tags: ten });
    expect(Object.keys((await dst.getTags()).tags)).toHaveLength(10);
    await dst.syncCopyFromURL(srcUrl(), { tags: { ["k".repeat(128)]: "v".repeat(256) } });
    const before = (await dst.getProperties()).etag;
    const tooMuch: Record<string, string>[] = [
      { ...ten, k10: "v" },
      { ["k".repeat(129)]: "v" },
      { k: "v".repeat(257) },
      { "bad!": "v" },
    ];
    for (const tags of tooMuch) {
      expect(await failure(dst.syncCopyFromURL(srcUrl(), { tags }))).toMatchObject({ status: 400 });
      expect(await failure(dst.beginCopyFromURL(srcUrl(), { tags }))).toMatchObject({ status: 400 });
    }
    expect((await dst.getProperties()).etag).toBe(before);
    await dst.syncCopyFromURL(srcUrl(), { copySourceTags: "COPY" });
    expect((await dst.getTags()).tags).toEqual({ from: "source" });
    expect(
      await failure(dst.syncCopyFromURL(srcUrl(), { copySourceTags: "COPY", tags: { a: "b" } })),
    ).toMatchObject({ status: 400, code: "InvalidHeaderValue" });
    await dst.syncCopyFromURL(srcUrl());
    expect((await dst.getTags()).tags).toEqual({});
  });

  it("x-ms-source-content-md5 is checked against the source and echoed as Content-MD5", async () => {
    const md5 = createHash("md5").update("hello").digest();
    const dst = a.getBlockBlobClient("md5-dst");
    const copied = await dst.syncCopyFromURL(srcUrl(), { sourceContentMD5: md5 });
    expect(Buffer.from(copied.contentMD5!).equals(md5)).toBe(true);
    expect((await dst.syncCopyFromURL(srcUrl())).contentMD5).toBeUndefined();
    const wrong = a.getBlockBlobClient("md5-wrong");
    expect(
      await failure(wrong.syncCopyFromURL(srcUrl(), { sourceContentMD5: Buffer.alloc(16) })),
    ).toMatchObject({ status: 400, code: "Md5Mismatch" });
    expect(
      await failure(wrong.syncCopyFromURL(srcUrl(), { sourceContentMD5: Buffer.alloc(15) })),
    ).toMatchObject({ status: 400, code: "InvalidHeaderValue" });
    const id = Buffer.from("b1").toString("base64");
    expect(
      await failure(wrong.stageBlockFromURL(id, srcUrl(), 0, 5, { sourceContentMD5: Buffer.alloc(16) })),
    ).toMatchObject({ status: 400, code: "Md5Mismatch" });
    expect(await wrong.exists()).toBe(false);
    const put = await wrong.syncUploadFromURL(srcUrl(), { sourceContentMD5: md5 });
    expect(Buffer.from(put.contentMD5!).equals(md5)).toBe(true);
  });

  it("Put Block and Append Block without a checksum answer the body's CRC-64; with Content-MD5, the MD5", async () => {
    const body = randomBytes(300_000);
    const block = a.getBlockBlobClient("crc-block");
    const staged = await block.stageBlock(Buffer.from("c1").toString("base64"), body, body.length);
    // This SDK version keeps the header unparsed on Put Block: read it off the response.
    const crcOf = (r: { _response: { headers: { get(name: string): string | undefined } } }) =>
      r._response.headers.get("x-ms-content-crc64");
    expect(crcOf(staged)).toBe(crc64(body).toString("base64"));
    expect(staged.contentMD5).toBeUndefined();
    const md5 = createHash("md5").update(body).digest();
    const withMd5 = await block.stageBlock(Buffer.from("c2").toString("base64"), body, body.length, {
      transactionalContentMD5: md5,
    });
    expect(Buffer.from(withMd5.contentMD5!).equals(md5)).toBe(true);
    expect(crcOf(withMd5)).toBeUndefined();
    const log = a.getAppendBlobClient("crc-append");
    await log.create();
    const appended = await log.appendBlock(body, body.length);
    expect(crcOf(appended)).toBe(crc64(body).toString("base64"));
  });

  it("lease actions under x-ms-if-tags, and Set/Get Blob Tags under a lease", async () => {
    const blob = a.getBlockBlobClient("leased");
    await blob.upload("x", 1, { tags: { tag1: "val1" } });
    const lease = blob.getBlobLeaseClient();
    const miss = { conditions: { tagConditions: "tag1 <> 'val1'" } };
    expect(await failure(lease.acquireLease(30, miss))).toMatchObject({
      status: 412,
      code: "ConditionNotMet",
    });
    await lease.acquireLease(-1);
    for (const action of [
      () => lease.renewLease(miss),
      () => lease.changeLease("3c7e72eb-b430-4526-bc53-d8ecef03798f", miss),
      () => lease.breakLease(0, miss),
      () => lease.releaseLease(miss),
    ]) {
      expect(await failure(action())).toMatchObject({ status: 412, code: "ConditionNotMet" });
    }
    expect(await failure(blob.setTags({ a: "b" }))).toMatchObject({ status: 412, code: "LeaseIdMissing" });
    await blob.setTags({ a: "b" }, { conditions: { leaseId: lease.leaseId } });
    expect(
      await failure(blob.getTags({ conditions: { leaseId: "3c7e72eb-b430-4526-bc53-d8ecef03798f" } })),
    ).toMatchObject({ status: 412, code: "LeaseIdMismatchWithBlobOperation" });
    expect((await blob.getTags({ conditions: { leaseId: lease.leaseId } })).tags).toEqual({ a: "b" });
    await lease.releaseLease();
  });
});
