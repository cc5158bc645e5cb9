/**
 * Soft delete through `tablekit serve` with the official @azure/storage-blob client: the delete
 * retention policy of the service properties, deletes and overwrites kept, `include=deleted`
 * listings (their XML as the service writes it), Undelete Blob and who may call it.
 */
import {
  BlobSASPermissions,
  BlobServiceClient,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { storageRequest } from "../support/raw-storage-client.js";

const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
let endpoint: string;
let service: BlobServiceClient;
let stop: () => Promise<void>;
let serial = 0;

beforeAll(async () => {
  const server = await startServer({ port: 0, services: ["blob"] });
  endpoint = server.endpoints.blob!.url;
  service = new BlobServiceClient(endpoint, credential);
  stop = server.stop;
  await service.setProperties({ deleteRetentionPolicy: { enabled: true, days: 5 } });
});
afterAll(() => stop?.());

async function freshContainer() {
  const container = service.getContainerClient(`soft${++serial}`);
  await container.create();
  return container;
}

async function statusOf(promise: Promise<unknown>): Promise<number | string> {
  try {
    await promise;
    return "ok";
  } catch (err) {
    return (err as { statusCode?: number }).statusCode ?? String(err);
  }
}

describe("soft delete through serve", () => {
  it("refuses retention days 0 and 366 and keeps 1 and 365, as the service checks them", async () => {
    for (const days of [0, 366]) {
      const refused = await service
        .setProperties({ deleteRetentionPolicy: { enabled: true, days } })
        .catch((e: { statusCode?: number; code?: string }) => e);
      expect(refused).toMatchObject({ statusCode: 400, code: "InvalidXmlNodeValue" });
      expect((await service.getProperties()).deleteRetentionPolicy).toEqual({ enabled: true, days: 5 });
    }
    for (const days of [1, 365]) {
      await service.setProperties({ deleteRetentionPolicy: { enabled: true, days } });
      expect((await service.getProperties()).deleteRetentionPolicy).toEqual({ enabled: true, days });
    }
    await service.setProperties({ deleteRetentionPolicy: { enabled: true, days: 5 } });
  });

  it("hides a deleted blob, lists it with includeDeleted and undeletes it with its snapshot", async () => {
    const container = await freshContainer();
    const blob = container.getBlockBlobClient("report.txt");
    await blob.upload("v1", 2, { metadata: { kind: "report" } });
    const { snapshot } = await blob.createSnapshot();
    await blob.delete({ deleteSnapshots: "include" });

    expect(await statusOf(blob.download())).toBe(404);
    expect(await blob.exists()).toBe(false);
    expect(await statusOf(blob.setMetadata({ x: "y" }))).toBe(404);
    const plain = [];
    for await (const item of container.listBlobsFlat({ includeSnapshots: true })) plain.push(item);
    expect(plain).toEqual([]);

    const listed = [];
    for await (const item of container.listBlobsFlat({ includeDeleted: true, includeSnapshots: true })) {
      listed.push(item);
    }
    expect(listed.map((b) => [b.snapshot ?? "", b.deleted])).toEqual([
      [snapshot, true],
      ["", true],
    ]);
    expect(listed[1]!.properties.deletedOn).toBeInstanceOf(Date);
    expect(listed[1]!.properties.remainingRetentionDays).toBe(5);

    await blob.undelete();
    expect((await blob.downloadToBuffer()).toString()).toBe("v1");
    expect((await blob.getProperties()).metadata).toEqual({ kind: "report" });
    expect((await blob.withSnapshot(snapshot!).downloadToBuffer()).toString()).toBe("v1");
  });

  it("answers x-ms-delete-type-permanent: false for a blob or snapshot it kept, true once the policy is off", async () => {
    const container = await freshContainer();
    const blob = container.getBlockBlobClient("kept");
    await blob.upload("x", 1);
    const snapshot = (await blob.createSnapshot()).snapshot!;
    const path = `${container.containerName}/kept`;
    const one = await storageRequest(endpoint, {
      method: "DELETE",
      path: `${path}?snapshot=${encodeURIComponent(snapshot)}`,
    });
    expect([one.status, one.headers["x-ms-delete-type-permanent"]]).toEqual([202, "false"]);
    const kept = await storageRequest(endpoint, { method: "DELETE", path });
    expect([kept.status, kept.headers["x-ms-delete-type-permanent"]]).toEqual([202, "false"]);
    await service.setProperties({ deleteRetentionPolicy: { enabled: false } });
    try {
      await blob.upload("y", 1);
      const gone = await storageRequest(endpoint, { method: "DELETE", path });
      expect([gone.status, gone.headers["x-ms-delete-type-permanent"]]).toEqual([202, "true"]);
    } finally {
      await service.setProperties({ deleteRetentionPolicy: { enabled: true, days: 5 } });
    }
  });

  it("writes Deleted after the name and DeletedTime, RemainingRetentionDays among the properties", async () => {
    const container = await freshContainer();
    await container.getBlockBlobClient("gone").upload("x", 1);
    await container.getBlockBlobClient("gone").delete();
    const listing = await storageRequest(endpoint, {
      path: `${container.containerName}?restype=container&comp=list&include=deleted`,
    });
    expect(listing.status).toBe(200);
    expect(listing.text).toMatch(
      /<Blob><Name>gone<\/Name><Deleted>true<\/Deleted><Properties>.*<ServerEncrypted>true<\/ServerEncrypted>.*<DeletedTime>[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT<\/DeletedTime><RemainingRetentionDays>5<\/RemainingRetentionDays>.*<\/Properties><\/Blob>/,
    );
    const plain = await storageRequest(endpoint, {
      path: `${container.containerName}?restype=container&comp=list`,
    });
    expect(plain.text).not.toContain("<Blob>");
    const undeleted = await storageRequest(endpoint, {
      method: "PUT",
      path: `${container.containerName}/gone?comp=undelete`,
    });
    expect(undeleted.status).toBe(200);
    expect(undeleted.headers["x-ms-request-id"]).toBeDefined();
  });

  it("undelete needs the write permission: a SAS with delete alone is refused and restores nothing", async () => {
    const container = await freshContainer();
    const blob = container.getBlockBlobClient("guarded");
    await blob.upload("kept", 4);
    await blob.delete();
    const sas = (permissions: string) =>
      generateBlobSASQueryParameters(
        {
          containerName: container.containerName,
          blobName: "guarded",
          permissions: BlobSASPermissions.parse(permissions),
          expiresOn: new Date(Date.now() + 3_600_000),
        },
        credential,
      ).toString();
    for (const permissions of ["d", "r", "racd"]) {
      const refused = await storageRequest(endpoint, {
        method: "PUT",
        path: `${container.containerName}/guarded?comp=undelete`,
        auth: { sas: sas(permissions) },
      });
      expect(refused.status, permissions).toBe(403);
      expect(await blob.exists()).toBe(false);
    }
    const allowed = await storageRequest(endpoint, {
      method: "PUT",
      path: `${container.containerName}/guarded?comp=undelete`,
      auth: { sas: sas("w") },
    });
    expect(allowed.status).toBe(200);
    expect((await blob.downloadToBuffer()).toString()).toBe("kept");
  });

  it("an overwrite keeps the old bytes as a soft-deleted snapshot that undelete makes readable", async () => {
    const container = await freshContainer();
    const blob = container.getBlockBlobClient("doc");
    await blob.upload("first", 5);
    await blob.upload("second", 6);
    const listed = [];
    for await (const item of container.listBlobsFlat({ includeDeleted: true, includeSnapshots: true })) {
      listed.push(item);
    }
    expect(listed.map((b) => [b.snapshot !== undefined, b.deleted === true])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(await statusOf(blob.withSnapshot(listed[0]!.snapshot!).download())).toBe(404);
    await blob.undelete();
    expect((await blob.withSnapshot(listed[0]!.snapshot!).downloadToBuffer()).toString()).toBe("first");
    expect((await blob.downloadToBuffer()).toString()).toBe("second");
  });

  it("undelete of a name that never held a blob is 404 BlobNotFound", async () => {
    const container = await freshContainer();
    const refused = await container
      .getBlobClient("nothing")
      .undelete()
      .catch((e: { statusCode?: number; code?: string }) => e);
    expect(refused).toMatchObject({ statusCode: 404, code: "BlobNotFound" });
  });
});
