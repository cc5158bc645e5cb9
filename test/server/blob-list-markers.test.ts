/**
 * List Blobs and List Containers markers through tablekit serve, as Azurite writes and reads them:
 * NextMarker is the last blob's (or container's) name, a name sent as marker resumes after it, and
 * a marker no name can be (a control character) or a checksummed token of another listing is 400.
 */
import { BlobServiceClient, type ContainerClient } from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";

let server: RunningServer;
let service: BlobServiceClient;
let container: ContainerClient;
const NAMES = ["dir/a", "dir/b", "m", "n", "z"];

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  service = BlobServiceClient.fromConnectionString(server.connectionString);
  container = service.getContainerClient("markers");
  await container.create();
  for (const n of NAMES) await container.uploadBlockBlob(n, n, n.length);
});
afterAll(() => server?.stop());

async function statusOf(work: Promise<unknown>): Promise<number> {
  try {
    await work;
  } catch (err) {
    return (err as { statusCode: number }).statusCode;
  }
  throw new Error("expected a failure");
}

const firstPage = async <T>(pages: AsyncIterableIterator<T>): Promise<T> => (await pages.next()).value as T;

describe("List Blobs and List Containers markers through serve", () => {
  it("NextMarker is the last blob's name, and a name sent as marker resumes after it", async () => {
    const page = await firstPage(container.listBlobsFlat().byPage({ maxPageSize: 3 }));
    expect(page.segment.blobItems.map((b) => b.name)).toEqual(NAMES.slice(0, 3));
    expect(page.continuationToken).toBe("m");
    const rest = await firstPage(container.listBlobsFlat().byPage({ continuationToken: "dir/b" }));
    expect(rest.segment.blobItems.map((b) => b.name)).toEqual(NAMES.slice(2));
    expect(rest.continuationToken ?? "").toBe("");
  });

  it("by hierarchy: a name inside a directory resumes after the directory; a directory page's marker is checksummed", async () => {
    const after = await firstPage(container.listBlobsByHierarchy("/").byPage({ continuationToken: "dir/a" }));
    expect(after.segment.blobPrefixes ?? []).toEqual([]);
    expect(after.segment.blobItems.map((b) => b.name)).toEqual(["m", "n", "z"]);
    const first = await firstPage(container.listBlobsByHierarchy("/").byPage({ maxPageSize: 1 }));
    expect(first.segment.blobPrefixes?.map((p) => p.name)).toEqual(["dir/"]);
    expect(first.continuationToken).toMatch(/^tk2\./);
    const next = await firstPage(
      container
        .listBlobsByHierarchy("/")
        .byPage({ maxPageSize: 1, continuationToken: first.continuationToken! }),
    );
    expect(next.segment.blobItems.map((b) => b.name)).toEqual(["m"]);
    expect(next.continuationToken).toBe("m");
    // The directory's token is bound to its listing: a flat listing refuses it.
    expect(
      await statusOf(
        firstPage(container.listBlobsFlat().byPage({ continuationToken: first.continuationToken! })),
      ),
    ).toBe(400);
  });

  it("a marker holding a control character is 400", async () => {
    expect(
      await statusOf(firstPage(container.listBlobsFlat().byPage({ continuationToken: "m\u0001" }))),
    ).toBe(400);
  });

  it("List Containers: NextMarker is the last container's name, and a container name resumes after it", async () => {
    for (const n of ["markers-a", "markers-b", "markers-c"]) await service.getContainerClient(n).create();
    const page = await firstPage(service.listContainers({ prefix: "markers-" }).byPage({ maxPageSize: 2 }));
    expect(page.containerItems.map((c) => c.name)).toEqual(["markers-a", "markers-b"]);
    expect(page.continuationToken).toBe("markers-b");
    const after = await firstPage(service.listContainers().byPage({ continuationToken: "markers-a" }));
    expect(after.containerItems.map((c) => c.name)).toEqual(["markers-b", "markers-c"]);
    expect(await statusOf(firstPage(service.listContainers().byPage({ continuationToken: "Markers" })))).toBe(
      400,
    );
  });
});
