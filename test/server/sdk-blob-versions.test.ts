/**
 * @azure/storage-blob against tablekit serve: snapshots (create, read, list, delete, SnapshotsPresent,
 * read-only), Copy Blob inside serve, Copy Blob From URL / Put Blob From URL / Put Block From URL
 * from another serve and from Azurite with a SAS, Abort Copy Blob.
 */
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  BlobSASPermissions,
  BlobServiceClient,
  ContainerClient,
  generateAccountSASQueryParameters,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY, type Azurite, startAzurite } from "../support/azurite.js";

let server: RunningServer;
let other: RunningServer;
let azurite: Azurite;
let service: BlobServiceClient;
let container: ContainerClient;

beforeAll(async () => {
  [server, other, azurite] = await Promise.all([
    startServer({ port: 0, services: ["blob"] }),
    startServer({ port: 0, services: ["blob"] }),
    startAzurite(),
  ]);
  service = BlobServiceClient.fromConnectionString(server.connectionString);
  container = service.getContainerClient("versions");
  await container.create();
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.stop(), other?.stop(), azurite?.stop()]);
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

/** A read SAS URL for a blob of a service reached with the development account's key. */
function readSasUrl(blobUrl: string, containerName: string, blobName: string): string {
  const sas = generateBlobSASQueryParameters(
    {
      containerName,
      blobName,
      permissions: BlobSASPermissions.parse("r"),
      expiresOn: new Date(Date.now() + 3600_000),
    },
    new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
  );
  return `${blobUrl}?${sas.toString()}`;
}

describe("snapshots through @azure/storage-blob", () => {
  it("creates, reads, lists and deletes snapshots as the service does", async () => {
    const blob = container.getBlockBlobClient("snap.txt");
    await blob.upload("first", 5, { metadata: { v: "1" } });
    const taken = await blob.createSnapshot({ metadata: { label: "x" } });
    expect(taken.snapshot).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
    await blob.upload("second", 6);
    const snap = blob.withSnapshot(taken.snapshot!);
    expect((await snap.downloadToBuffer()).toString()).toBe("first");
    expect((await snap.getProperties()).metadata).toEqual({ label: "x" });
    const listed = [];
    for await (const item of container.listBlobsFlat({ includeSnapshots: true, prefix: "snap" })) {
      listed.push([item.name, item.snapshot || undefined]);
    }
    expect(listed).toEqual([
      ["snap.txt", taken.snapshot],
      ["snap.txt", undefined],
    ]);
    expect(await failure(blob.delete())).toEqual({ status: 409, code: "SnapshotsPresent" });
    expect(await failure(snap.upload("no", 2))).toMatchObject({
      status: 400,
      code: "InvalidQueryParameterValue",
    });
    expect(await failure(snap.setMetadata({ a: "b" }))).toMatchObject({ status: 400 });
    await snap.delete();
    expect(await snap.exists()).toBe(false);
    const again = await blob.createSnapshot();
    await blob.delete({ deleteSnapshots: "only" });
    expect(await blob.withSnapshot(again.snapshot!).exists()).toBe(false);
    expect(await blob.exists()).toBe(true);
    await blob.createSnapshot();
    await blob.delete({ deleteSnapshots: "include" });
    expect(await blob.exists()).toBe(false);
  });
});

describe("copies through @azure/storage-blob", () => {
  it("Copy Blob inside serve: done at once, x-ms-copy-* in properties; Abort Copy Blob has nothing to abort", async () => {
    const source = container.getBlockBlobClient("copy-src");
    await source.upload("copied bytes", 12, { metadata: { from: "src" } });
    const poller = await container.getBlobClient("copy-dst").beginCopyFromURL(source.url);
    const result = await poller.pollUntilDone();
    expect(result.copyStatus).toBe("success");
    const dst = container.getBlobClient("copy-dst");
    expect((await dst.downloadToBuffer()).toString()).toBe("copied bytes");
    const props = await dst.getProperties();
    expect(props).toMatchObject({
      copyStatus: "success",
      copySource: source.url,
      copyProgress: "12/12",
      metadata: { from: "src" },
    });
    expect(props.copyId).toBe(result.copyId);
    expect(props.copyCompletedOn).toBeInstanceOf(Date);
    // List Blobs with include=copy carries the record; without it, none.
    const listed = [];
    for await (const b of container.listBlobsFlat({ prefix: "copy-dst", includeCopy: true })) listed.push(b);
    expect(listed[0]?.properties).toMatchObject({
      copyId: result.copyId,
      copyStatus: "success",
      copyProgress: "12/12",
    });
    expect(listed[0]?.properties.copyCompletedOn).toBeInstanceOf(Date);
    for await (const b of container.listBlobsFlat({ prefix: "copy-dst" }))
      expect(b.properties.copyId).toBeUndefined();
    expect(await failure(dst.abortCopyFromURL(result.copyId!))).toEqual({
      status: 409,
      code: "NoPendingCopyOperation",
    });
    expect(await failure(dst.syncCopyFromURL(`${container.url}/missing`))).toMatchObject({ status: 404 });
    // A source URL with a SAS that may not read it: the source's 403, as CannotVerifyCopySource.
    const writeOnly = await source.generateSasUrl({
      permissions: BlobSASPermissions.parse("w"),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    for (const copy of [dst.syncCopyFromURL(writeOnly), dst.beginCopyFromURL(writeOnly)]) {
      expect(await failure(copy)).toEqual({ status: 403, code: "CannotVerifyCopySource" });
    }
  });

  it("copies with a SAS that may create but not write: to a new blob only (403 over an existing one)", async () => {
    const sas = generateAccountSASQueryParameters(
      {
        permissions: AccountSASPermissions.parse("rlc"),
        resourceTypes: AccountSASResourceTypes.parse("co").toString(),
        services: AccountSASServices.parse("b").toString(),
        expiresOn: new Date(Date.now() + 3600_000),
      },
      new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
    ).toString();
    const withSas = new ContainerClient(`${container.url}?${sas}`);
    await container.getBlockBlobClient("create-only-src").upload("source", 6);
    await container.getBlockBlobClient("create-only-taken").upload("taken", 5);
    const sourceUrl = withSas.getBlobClient("create-only-src").url;
    await withSas.getBlobClient("create-only-new").syncCopyFromURL(sourceUrl);
    await withSas.getBlobClient("create-only-new-async").beginCopyFromURL(sourceUrl);
    expect((await container.getBlobClient("create-only-new").downloadToBuffer()).toString()).toBe("source");
    expect((await container.getBlobClient("create-only-new-async").downloadToBuffer()).toString()).toBe(
      "source",
    );
    for (const copy of [
      withSas.getBlobClient("create-only-taken").syncCopyFromURL(sourceUrl),
      withSas.getBlobClient("create-only-taken").beginCopyFromURL(sourceUrl),
    ]) {
      expect((await failure(copy)).status).toBe(403);
    }
    // Over an existing blob the token's refusal comes first, whatever the source (here one it cannot read).
    const unreadable = container.getBlobClient("create-only-src").url;
    expect(
      (await failure(withSas.getBlobClient("create-only-taken").syncCopyFromURL(unreadable))).status,
    ).toBe(403);
    expect((await container.getBlobClient("create-only-taken").downloadToBuffer()).toString()).toBe("taken");
  });

  it("copies from another serve and from Azurite with a SAS: Copy Blob From URL, Put Blob From URL, Put Block From URL", async () => {
    const elsewhere = BlobServiceClient.fromConnectionString(other.connectionString).getContainerClient(
      "far",
    );
    await elsewhere.create();
    const far = elsewhere.getBlockBlobClient("far.bin");
    await far.upload("from another serve", 18);
    const az = BlobServiceClient.fromConnectionString(azurite.connectionString).getContainerClient("azc");
    await az.create();
    const azBlob = az.getBlockBlobClient("az.bin");
    await azBlob.upload("0123456789", 10, { blobHTTPHeaders: { blobContentType: "text/x-az" } });

    const fromServe = container.getBlobClient("from-serve");
    const sync = await fromServe.syncCopyFromURL(readSasUrl(far.url, "far", "far.bin"));
    expect(sync.copyStatus).toBe("success");
    expect((await fromServe.downloadToBuffer()).toString()).toBe("from another serve");
    // Without a SAS the other server refuses the read: the copy cannot verify its source.
    expect(await failure(container.getBlobClient("nope").syncCopyFromURL(far.url))).toMatchObject({
      status: 404,
      code: "CannotVerifyCopySource",
    });

    const fromAzurite = container.getBlockBlobClient("from-azurite");
    await fromAzurite.syncUploadFromURL(readSasUrl(azBlob.url, "azc", "az.bin"));
    expect((await fromAzurite.downloadToBuffer()).toString()).toBe("0123456789");
    expect((await fromAzurite.getProperties()).contentType).toBe("text/x-az");

    const staged = container.getBlockBlobClient("staged-from-url");
    const azSas = readSasUrl(azBlob.url, "azc", "az.bin");
    await staged.stageBlockFromURL("QUFB", azSas, 5, 5);
    await staged.stageBlockFromURL("QkJC", azSas, 0, 5);
    await staged.commitBlockList(["QUFB", "QkJC"]);
    expect((await staged.downloadToBuffer()).toString()).toBe("5678901234");
  });
});
