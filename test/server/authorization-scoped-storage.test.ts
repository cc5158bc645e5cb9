/**
 * Queue and Blob requests run on the account's store scoped to the request's token, and the core
 * decides (as for tables). These tests try to get around that one rule: a condition answered
 * before the authorization (a 412 that tells a token without the right that a blob exists), a
 * create-only token overwriting, a queue token without `p` taking a message, a container token
 * reaching another container. Each refused request must also change nothing.
 */
import {
  BlobSASPermissions,
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { generateQueueSASQueryParameters, QueueSASPermissions } from "@azure/storage-queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { type StorageRequest, storageRequest, xmlValue } from "../support/raw-storage-client.js";

const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
const hourFromNow = () => new Date(Date.now() + 3_600_000);
let blobEndpoint: string;
let queueEndpoint: string;
let stop: () => Promise<void>;

const blob = (request: StorageRequest) => storageRequest(blobEndpoint, request);
const queue = (request: StorageRequest) => storageRequest(queueEndpoint, request);

const containerSas = (containerName: string, permissions: string) => ({
  sas: generateBlobSASQueryParameters(
    { containerName, permissions: ContainerSASPermissions.parse(permissions), expiresOn: hourFromNow() },
    credential,
  ).toString(),
});
const blobSas = (containerName: string, blobName: string, permissions: string) => ({
  sas: generateBlobSASQueryParameters(
    { containerName, blobName, permissions: BlobSASPermissions.parse(permissions), expiresOn: hourFromNow() },
    credential,
  ).toString(),
});
const queueSas = (queueName: string, permissions: string) => ({
  sas: generateQueueSASQueryParameters(
    { queueName, permissions: QueueSASPermissions.parse(permissions), expiresOn: hourFromNow() },
    credential,
  ).toString(),
});

async function put(path: string, body: string, extra: Partial<StorageRequest> = {}) {
  return blob({ method: "PUT", path, headers: { "x-ms-blob-type": "BlockBlob" }, body, ...extra });
}

async function content(path: string): Promise<{ text: string; etag: string | undefined }> {
  const got = await blob({ path });
  expect(got.status).toBe(200);
  return { text: got.text, etag: got.headers.etag as string | undefined };
}

beforeAll(async () => {
  const server = await startServer({ port: 0, services: ["blob", "queue"] });
  blobEndpoint = server.endpoints.blob!.url;
  queueEndpoint = server.endpoints.queue!.url;
  stop = server.stop;
  for (const name of ["scoped-a", "scoped-b"]) {
    expect((await blob({ method: "PUT", path: `${name}?restype=container` })).status).toBe(201);
  }
  expect((await put("scoped-a/kept", "the owner's")).status).toBe(201);
  expect((await put("scoped-a/other", "the owner's other")).status).toBe(201);
  expect((await put("scoped-b/kept", "in b")).status).toBe(201);
  expect((await queue({ method: "PUT", path: "scoped-q" })).status).toBe(201);
});
afterAll(() => stop?.());

describe("conditions are answered after the token's authorization, by the core", () => {
  it("a write-only blob SAS with If-Match on a blob it cannot write is 403, never 412", async () => {
    const stale = { "if-match": '"0x1"' };
    // A blob SAS names one blob: another blob, existing, with a stale If-Match.
    const other = await put("scoped-a/other", "overwritten", {
      headers: { "x-ms-blob-type": "BlockBlob", ...stale },
      auth: blobSas("scoped-a", "kept", "w"),
    });
    expect(other.status).toBe(403);
    // The right blob, an operation `w` does not grant (delete), a stale If-Match: 403, not 412.
    const del = await blob({
      method: "DELETE",
      path: "scoped-a/kept",
      headers: stale,
      auth: blobSas("scoped-a", "kept", "w"),
    });
    expect([del.status, del.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    // The same for a read with If-None-Match (a 304 would tell the blob is there).
    const read = await blob({
      path: "scoped-a/kept",
      headers: { "if-none-match": "*" },
      auth: blobSas("scoped-a", "kept", "w"),
    });
    expect(read.status).toBe(403);
    expect((await content("scoped-a/other")).text).toBe("the owner's other");
    expect((await content("scoped-a/kept")).text).toBe("the owner's");
  });

  it("a write-only token's conditional write needs no read right: the core evaluates it", async () => {
    expect((await put("scoped-a/conditional", "v1")).status).toBe(201);
    const w = blobSas("scoped-a", "conditional", "w");
    const past = new Date(Date.now() - 86_400_000).toUTCString();
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    // If-Unmodified-Since in the past: the blob changed after it, 412 (the token may write it).
    const refused = await put("scoped-a/conditional", "v2", {
      headers: { "x-ms-blob-type": "BlockBlob", "if-unmodified-since": past },
      auth: w,
    });
    expect([refused.status, refused.code]).toEqual([412, "ConditionNotMet"]);
    expect((await content("scoped-a/conditional")).text).toBe("v1");
    const done = await put("scoped-a/conditional", "v3", {
      headers: { "x-ms-blob-type": "BlockBlob", "if-unmodified-since": future },
      auth: w,
    });
    expect(done.status).toBe(201);
    // Set Blob Metadata with `w` alone (the port reads the blob itself).
    const metadata = await blob({
      method: "PUT",
      path: "scoped-a/conditional?comp=metadata",
      headers: { "x-ms-meta-color": "blue", "if-unmodified-since": future },
      auth: w,
    });
    expect(metadata.status).toBe(200);
    const after = await blob({ method: "HEAD", path: "scoped-a/conditional" });
    expect(after.headers["x-ms-meta-color"]).toBe("blue");
    expect((await content("scoped-a/conditional")).text).toBe("v3");
  });
});

describe("a create-only token (c without w) never overwrites", () => {
  const c = () => containerSas("scoped-a", "c");

  it("Put Blob, with or without conditions, over an existing blob: 403 and nothing changed", async () => {
    const before = await content("scoped-a/kept");
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    const variants: Record<string, string>[] = [
      {},
      { "if-none-match": '"0x1"' },
      { "if-unmodified-since": future },
      { "if-match": "*" },
      { "if-match": before.etag! },
    ];
    for (const headers of variants) {
      const again = await put("scoped-a/kept", "overwritten", {
        headers: { "x-ms-blob-type": "BlockBlob", ...headers },
        auth: c(),
      });
      expect([again.status, again.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    }
    const append = await blob({
      method: "PUT",
      path: "scoped-a/kept",
      headers: { "x-ms-blob-type": "AppendBlob" },
      auth: c(),
    });
    expect([append.status, append.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    expect(await content("scoped-a/kept")).toEqual(before);
  });

  it("Put Block and Put Block List over an existing blob: 403 and nothing changed", async () => {
    const before = await content("scoped-a/kept");
    const id = Buffer.from("block-1").toString("base64");
    const staged = await blob({
      method: "PUT",
      path: `scoped-a/kept?comp=block&blockid=${encodeURIComponent(id)}`,
      body: "x",
      auth: c(),
    });
    expect([staged.status, staged.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    const commit = await blob({
      method: "PUT",
      path: "scoped-a/kept?comp=blocklist",
      body: `<?xml version="1.0" encoding="utf-8"?><BlockList></BlockList>`,
      auth: c(),
    });
    expect([commit.status, commit.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    const metadata = await blob({
      method: "PUT",
      path: "scoped-a/kept?comp=metadata",
      headers: { "x-ms-meta-a": "b" },
      auth: c(),
    });
    expect([metadata.status, metadata.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    expect(await content("scoped-a/kept")).toEqual(before);
  });
});

describe("a queue SAS without p takes no message", () => {
  it("cannot receive, delete, or update a message another consumer holds", async () => {
    const sent = await queue({
      method: "POST",
      path: "scoped-q/messages",
      body: "<QueueMessage><MessageText>held</MessageText></QueueMessage>",
    });
    expect(sent.status).toBe(201);
    const held = await queue({ path: "scoped-q/messages?visibilitytimeout=60" });
    const id = xmlValue(held.text, "MessageId")!;
    const receipt = xmlValue(held.text, "PopReceipt")!;
    for (const permissions of ["rau", "ra", "r"]) {
      const token = queueSas("scoped-q", permissions);
      const receive = await queue({ path: "scoped-q/messages", auth: token });
      expect([receive.status, receive.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
      const del = await queue({
        method: "DELETE",
        path: `scoped-q/messages/${id}?popreceipt=${encodeURIComponent(receipt)}`,
        auth: token,
      });
      expect([del.status, del.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    }
    // Without `u` (and without `p`), not even the right receipt updates it.
    const update = await queue({
      method: "PUT",
      path: `scoped-q/messages/${id}?popreceipt=${encodeURIComponent(receipt)}&visibilitytimeout=0`,
      body: "<QueueMessage><MessageText>rewritten</MessageText></QueueMessage>",
      auth: queueSas("scoped-q", "ra"),
    });
    expect([update.status, update.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    // The owner's receipt still holds the message: nothing above touched it.
    const done = await queue({
      method: "DELETE",
      path: `scoped-q/messages/${id}?popreceipt=${encodeURIComponent(receipt)}`,
    });
    expect(done.status).toBe(204);
  });

  it("a token for one queue reaches no other", async () => {
    expect((await queue({ method: "PUT", path: "scoped-q2" })).status).toBe(201);
    const sent = await queue({
      method: "POST",
      path: "scoped-q2/messages",
      body: "<QueueMessage><MessageText>x</MessageText></QueueMessage>",
      auth: queueSas("scoped-q", "raup"),
    });
    expect(sent.status).toBe(403);
    const peek = await queue({ path: "scoped-q2/messages?peekonly=true" });
    expect(xmlValue(peek.text, "MessageText")).toBeUndefined();
  });
});

describe("a container SAS reaches its container only", () => {
  it("every operation on another container is 403 and changes nothing", async () => {
    const token = containerSas("scoped-a", "racwdl");
    const before = await content("scoped-b/kept");
    const attempts: StorageRequest[] = [
      { path: "scoped-b/kept" },
      { path: "scoped-b?restype=container&comp=list" },
      { method: "PUT", path: "scoped-b/kept", headers: { "x-ms-blob-type": "BlockBlob" }, body: "x" },
      { method: "PUT", path: "scoped-b/new", headers: { "x-ms-blob-type": "BlockBlob" }, body: "x" },
      { method: "DELETE", path: "scoped-b/kept" },
      { method: "PUT", path: "scoped-b/kept?comp=metadata", headers: { "x-ms-meta-a": "b" } },
    ];
    for (const attempt of attempts) {
      const got = await blob({ ...attempt, auth: token });
      expect(got.status, `${attempt.method ?? "GET"} ${attempt.path}`).toBe(403);
    }
    expect(await content("scoped-b/kept")).toEqual(before);
    expect((await blob({ method: "HEAD", path: "scoped-b/new" })).status).toBe(404);
  });
});
