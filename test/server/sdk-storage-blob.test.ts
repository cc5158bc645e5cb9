/**
 * @azure/storage-blob, the official client, against tablekit serve's Blob service: containers with
 * metadata and public access, block blobs (single put and staged blocks), append blobs with their
 * conditions, ranges, conditional headers, listings, SAS, and what is not served refused clearly.
 */
import { Readable } from "node:stream";
import {
  AnonymousCredential,
  BlobSASPermissions,
  BlobServiceClient,
  ContainerClient,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";

let server: RunningServer;
let service: BlobServiceClient;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  service = BlobServiceClient.fromConnectionString(server.connectionString);
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

describe("@azure/storage-blob against tablekit serve", () => {
  it("containers: create with metadata, properties, list with metadata, delete; ContainerAlreadyExists and ContainerNotFound", async () => {
    const container = service.getContainerClient("first");
    await container.create({ metadata: { team: "a" } });
    expect(await failure(container.create())).toEqual({ status: 409, code: "ContainerAlreadyExists" });
    expect((await container.getProperties()).metadata).toEqual({ team: "a" });
    await container.setMetadata({ team: "b" });
    const listed = [];
    for await (const c of service.listContainers({ includeMetadata: true, prefix: "fir" }))
      listed.push([c.name, c.metadata]);
    expect(listed).toEqual([["first", { team: "b" }]]);
    await container.delete();
    expect(await failure(container.getProperties())).toEqual({ status: 404, code: "ContainerNotFound" });
    expect(await failure(service.getContainerClient("Bad_Name").create())).toEqual({
      status: 400,
      code: "InvalidResourceName",
    });
  });

  it("block blobs: upload, download whole and by range, properties, metadata, staged blocks and their lists", async () => {
    const container = service.getContainerClient("blocks");
    await container.create();
    const blob = container.getBlockBlobClient("dir/one.txt");
    await blob.upload("hello world", 11, {
      blobHTTPHeaders: { blobContentType: "text/plain" },
      metadata: { k: "v" },
    });
    expect((await blob.downloadToBuffer()).toString()).toBe("hello world");
    expect((await blob.downloadToBuffer(6, 5)).toString()).toBe("world");
    const properties = await blob.getProperties();
    expect([
      properties.contentType,
      properties.metadata,
      properties.contentLength,
      properties.blobType,
    ]).toEqual(["text/plain", { k: "v" }, 11, "BlockBlob"]);
    expect(await failure(blob.download(11))).toEqual({ status: 416, code: "InvalidRange" });
    await blob.setMetadata({ z: "9" });
    expect((await blob.getProperties()).metadata).toEqual({ z: "9" });
    expect((await blob.downloadToBuffer()).toString()).toBe("hello world");
    const big = container.getBlockBlobClient("dir/sub/big");
    const chunks = [Buffer.alloc(9 * 1024 * 1024, 1), Buffer.alloc(5, 2)];
    await big.uploadStream(Readable.from(chunks), 4 * 1024 * 1024, 3);
    const list = await big.getBlockList("all");
    expect(list.committedBlocks?.map((b) => b.size)).toEqual([
      4 * 1024 * 1024,
      4 * 1024 * 1024,
      1024 * 1024 + 5,
    ]);
    expect(list.uncommittedBlocks).toEqual([]);
    expect((await big.downloadToBuffer()).equals(Buffer.concat(chunks))).toBe(true);
    // Re-commit keeping the first committed block and adding a new one.
    const [first] = list.committedBlocks!;
    const extra = Buffer.from("extra-block").toString("base64");
    await big.stageBlock(extra, "tail", 4);
    expect((await big.getBlockList("uncommitted")).uncommittedBlocks?.map((b) => b.name)).toEqual([extra]);
    await big.commitBlockList([first!.name, extra]);
    const after = await big.downloadToBuffer();
    expect(after.length).toBe(4 * 1024 * 1024 + 4);
    expect(after.subarray(-4).toString()).toBe("tail");
    expect(await failure(big.commitBlockList([Buffer.from("missing").toString("base64")]))).toEqual({
      status: 400,
      code: "InvalidBlockList",
    });
    const names: string[] = [];
    for await (const item of container.listBlobsByHierarchy("/", { prefix: "dir/" }))
      names.push(`${item.kind}:${item.name}`);
    expect(names.sort()).toEqual(["blob:dir/one.txt", "prefix:dir/sub/"]);
    await container.delete();
  });

  it("append blobs: appends with position and size conditions; conditional headers on reads and writes", async () => {
    const container = service.getContainerClient("appends");
    await container.create();
    const log = container.getAppendBlobClient("log.txt");
    await log.create();
    await log.appendBlock("abc", 3);
    const second = await log.appendBlock("def", 3, { conditions: { appendPosition: 3 } });
    expect([second.blobAppendOffset, second.blobCommittedBlockCount]).toEqual(["3", 2]);
    expect((await log.downloadToBuffer()).toString()).toBe("abcdef");
    expect(await failure(log.appendBlock("x", 1, { conditions: { appendPosition: 3 } }))).toEqual({
      status: 412,
      code: "AppendPositionConditionNotMet",
    });
    expect(await failure(log.appendBlock("x", 1, { conditions: { maxSize: 6 } }))).toEqual({
      status: 412,
      code: "MaxBlobSizeConditionNotMet",
    });
    const blob = container.getBlockBlobClient("b");
    const put = await blob.upload("v1", 2);
    expect(await failure(blob.upload("x", 1, { conditions: { ifNoneMatch: "*" } }))).toEqual({
      status: 409,
      code: "BlobAlreadyExists",
    });
    expect(await failure(blob.upload("x", 1, { conditions: { ifMatch: '"0x0"' } }))).toEqual({
      status: 412,
      code: "ConditionNotMet",
    });
    const later = new Date(Date.now() + 60_000);
    expect((await failure(blob.getProperties({ conditions: { ifModifiedSince: later } }))).status).toBe(304);
    expect((await failure(blob.getProperties({ conditions: { ifNoneMatch: put.etag! } }))).status).toBe(304);
    expect(await failure(blob.upload("x", 1, { conditions: { ifUnmodifiedSince: new Date(0) } }))).toEqual({
      status: 412,
      code: "ConditionNotMet",
    });
    await blob.upload("v2", 2, { conditions: { ifUnmodifiedSince: later, ifMatch: put.etag! } });
    expect((await blob.downloadToBuffer()).toString()).toBe("v2");
    await container.delete();
  });

  it("blob SAS grants what it says; public containers are readable anonymously; what is not served is refused", async () => {
    const container = service.getContainerClient("shared");
    await container.create();
    const blob = container.getBlockBlobClient("doc.txt");
    await blob.upload("secret", 6);
    const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
    const sas = (permissions: string) =>
      generateBlobSASQueryParameters(
        {
          containerName: "shared",
          blobName: "doc.txt",
          permissions: BlobSASPermissions.parse(permissions),
          expiresOn: new Date(Date.now() + 3600_000),
        },
        credential,
      ).toString();
    const reader = new BlobServiceClient(
      `${server.endpoints.blob!.url}?${sas("r")}`,
      new AnonymousCredential(),
    )
      .getContainerClient("shared")
      .getBlockBlobClient("doc.txt");
    expect((await reader.downloadToBuffer()).toString()).toBe("secret");
    expect(await failure(reader.upload("x", 1))).toEqual({
      status: 403,
      code: "AuthorizationPermissionMismatch",
    });
    expect(await failure(reader.delete())).toEqual({ status: 403, code: "AuthorizationPermissionMismatch" });
    const anonymous = new ContainerClient(`${server.endpoints.blob!.url}/shared`, new AnonymousCredential());
    expect((await failure(anonymous.getBlockBlobClient("doc.txt").downloadToBuffer())).status).toBe(404);
    await container.setAccessPolicy("blob");
    expect((await anonymous.getBlockBlobClient("doc.txt").downloadToBuffer()).toString()).toBe("secret");
    expect(await failure(anonymous.getBlockBlobClient("doc.txt").upload("x", 1))).toEqual({
      status: 403,
      code: "AuthenticationFailed",
    });
    // Page blobs are served (test/server/sdk-page-blobs.test.ts).
    // Snapshots are served (test/server/sdk-blob-versions.test.ts): one reads as the blob was.
    const { snapshot } = await blob.createSnapshot();
    expect((await blob.withSnapshot(snapshot!).downloadToBuffer()).toString()).toBe("secret");
    // Leases are served (test/server/blob-properties-leases.test.ts).
    const lease = blob.getBlobLeaseClient();
    await lease.acquireLease(15);
    await lease.releaseLease();
    expect(await failure(blob.delete())).toEqual({ status: 409, code: "SnapshotsPresent" });
    await blob.delete({ deleteSnapshots: "include" });
    await container.delete();
  });
});
