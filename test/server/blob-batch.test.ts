/**
 * Blob Batch against tablekit serve: the official client's BlobBatchClient (service and container
 * scope, SharedKey per sub-request, an account SAS and a container SAS), per-part results and
 * errors in order, and raw batches that cross every limit (count, body size, line size, hostile
 * framing) refused whole with nothing run.
 */
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AnonymousCredential,
  BlobServiceClient,
  ContainerClient,
  ContainerSASPermissions,
  type StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { startAzurite } from "../support/azurite.js";
import { storageRequest } from "../support/raw-storage-client.js";

let server: RunningServer;
let service: BlobServiceClient;
let credential: StorageSharedKeyCredential;
let endpoint: string;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  service = BlobServiceClient.fromConnectionString(server.connectionString);
  credential = service.credential as StorageSharedKeyCredential;
  endpoint = server.endpoints.blob!.url;
});
afterAll(() => server?.stop());

async function containerWith(name: string, blobs: number): Promise<ContainerClient> {
  const container = service.getContainerClient(name);
  await container.create();
  for (let i = 0; i < blobs; i++) await container.getBlockBlobClient(`b${i}`).upload("x", 1);
  return container;
}

async function names(container: ContainerClient): Promise<string[]> {
  const out: string[] = [];
  for await (const blob of container.listBlobsFlat()) out.push(blob.name);
  return out;
}

/** A raw batch of `parts` (each a sub-request's text), signed with the key, at the service or a container. */
function rawBatch(parts: readonly string[], path = "?comp=batch", boundary = "batch_b1") {
  const body = `${parts.map((p, i) => `--${boundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: ${i}\r\n\r\n${p}\r\n`).join("")}--${boundary}--\r\n`;
  return storageRequest(endpoint, {
    method: "POST",
    path,
    body,
    headers: { "content-type": `multipart/mixed; boundary=${boundary}` },
  });
}

describe("Blob Batch with @azure/storage-blob", () => {
  it("deletes blobs at the service scope, each part 202 with its own request id, in order", async () => {
    const container = await containerWith("batchdel", 3);
    const urls = [0, 1, 2].map((i) => container.getBlobClient(`b${i}`).url);
    const result = await service.getBlobBatchClient().deleteBlobs(urls, credential);
    expect(result.subResponsesSucceededCount).toBe(3);
    expect(result.subResponses.map((r) => [r.status, r._request.url])).toEqual(urls.map((u) => [202, u]));
    const ids = result.subResponses.map((r) => r.headers.get("x-ms-request-id"));
    expect(new Set(ids).size).toBe(3);
    expect(await names(container)).toEqual([]);
  });

  it("answers each sub-request on its own: a missing blob is 404 BlobNotFound between two deletes that succeed", async () => {
    const container = await containerWith("batchmixed", 2);
    const urls = ["b0", "nope", "b1"].map((n) => container.getBlobClient(n).url);
    const result = await container.getBlobBatchClient().deleteBlobs(urls, credential);
    expect(result.subResponses.map((r) => [r.status, r.errorCode])).toEqual([
      [202, undefined],
      [404, "BlobNotFound"],
      [202, undefined],
    ]);
    expect(result.subResponses[1]!.bodyAsText).toContain("<Code>BlobNotFound</Code>");
    expect(await names(container)).toEqual([]);
  });

  it("a sub-request's own conditions apply (If-Match that fails is 412 in its part)", async () => {
    const container = await containerWith("batchcond", 1);
    const blob = container.getBlobClient("b0");
    const batch = container.getBlobBatchClient().createBatch();
    await batch.deleteBlob(blob, { conditions: { ifMatch: '"0x0"' } });
    const result = await container.getBlobBatchClient().submitBatch(batch);
    expect(result.subResponses[0]!.status).toBe(412);
    expect(await names(container)).toEqual(["b0"]);
  });

  it("an account SAS (d, o) and a container SAS (d) authorize each sub-request; one without d is refused per part", async () => {
    const container = await containerWith("batchsas", 4);
    const expiresOn = new Date(Date.now() + 3_600_000);
    const accountSas = service.generateAccountSasUrl(
      expiresOn,
      AccountSASPermissions.parse("d"),
      AccountSASResourceTypes.parse("o").toString(),
    );
    const sasService = new BlobServiceClient(accountSas, new AnonymousCredential());
    const viaAccount = ["b0", "b1"].map(
      (n) => sasService.getContainerClient("batchsas").getBlobClient(n).url,
    );
    const first = await sasService.getBlobBatchClient().deleteBlobs(viaAccount, new AnonymousCredential());
    expect(first.subResponses.map((r) => r.status)).toEqual([202, 202]);

    const readOnly = new ContainerClient(
      await container.generateSasUrl({ permissions: ContainerSASPermissions.parse("r"), expiresOn }),
    );
    const refused = await readOnly
      .getBlobBatchClient()
      .deleteBlobs([readOnly.getBlobClient("b2").url], new AnonymousCredential());
    expect([refused.subResponses[0]!.status, refused.subResponses[0]!.errorCode]).toEqual([
      403,
      "AuthorizationPermissionMismatch",
    ]);
    const deleter = new ContainerClient(
      await container.generateSasUrl({ permissions: ContainerSASPermissions.parse("d"), expiresOn }),
    );
    const urls = ["b2", "b3"].map((n) => deleter.getBlobClient(n).url);
    const second = await deleter.getBlobBatchClient().deleteBlobs(urls, new AnonymousCredential());
    expect(second.subResponses.map((r) => r.status)).toEqual([202, 202]);
    expect(await names(container)).toEqual([]);
  });

  it("a container's batch refuses a sub-request for another container whole: nothing is deleted", async () => {
    const scoped = await containerWith("batchscope", 1);
    const other = await containerWith("batchother", 1);
    const urls = [scoped.getBlobClient("b0").url, other.getBlobClient("b0").url];
    const result = await scoped.getBlobBatchClient().deleteBlobs(urls, credential);
    expect(result.subResponsesFailedCount).toBe(1);
    expect(await names(scoped)).toEqual(["b0"]);
    expect(await names(other)).toEqual(["b0"]);
  });

  it("Set Blob Tier sub-requests answer what a single Set Blob Tier answers", async () => {
    const container = await containerWith("batchtier", 1);
    const single = await container
      .getBlobClient("b0")
      .setAccessTier("Cool")
      .then(
        () => ({ status: 200, code: undefined as string | undefined }),
        (err: { statusCode: number; code?: string }) => ({ status: err.statusCode, code: err.code }),
      );
    const result = await container
      .getBlobBatchClient()
      .setBlobsAccessTier([container.getBlobClient("b0").url], credential, "Cool");
    expect([result.subResponses[0]!.status, result.subResponses[0]!.errorCode]).toEqual([
      single.status,
      single.code,
    ]);
  });
});

describe("Blob Batch: raw bodies and limits", () => {
  const del = (blob: string) =>
    `DELETE /devstoreaccount1/rawbatch/${blob} HTTP/1.1\r\nx-ms-date: ${new Date().toUTCString()}\r\nx-ms-client-request-id: c-${blob}`;

  beforeAll(async () => {
    await containerWith("rawbatch", 2);
  });

  it("an unsigned sub-request of a key-signed batch is refused in its part, and echoes its client request id", async () => {
    const res = await rawBatch([del("b0")]);
    expect(res.status).toBe(202);
    expect(res.headers["content-type"]).toMatch(/^multipart\/mixed; boundary=batchresponse_/);
    expect(res.text).toContain("HTTP/1.1 403 Forbidden");
    expect(res.text).toContain("x-ms-client-request-id: c-b0");
    expect(res.text).toContain("Content-ID: 0");
  });

  it("a sub-request without credentials takes the batch's SAS, which each part is then authorized by", async () => {
    const container = await containerWith("inherit", 2);
    const sasOf = (permissions: string) =>
      service
        .generateAccountSasUrl(
          new Date(Date.now() + 3_600_000),
          AccountSASPermissions.parse(permissions),
          AccountSASResourceTypes.parse("sco").toString(),
        )
        .split("?")[1]!;
    const body = (blob: string) =>
      `--b\r\nContent-Type: application/http\r\nContent-ID: 0\r\n\r\nDELETE /devstoreaccount1/inherit/${blob} HTTP/1.1\r\n\r\n--b--\r\n`;
    const send = (blob: string, permissions: string) =>
      storageRequest(endpoint, {
        method: "POST",
        path: "?comp=batch",
        auth: { sas: sasOf(permissions) },
        body: body(blob),
        headers: { "content-type": "multipart/mixed; boundary=b" },
      });
    expect((await send("b0", "r")).text).toContain("x-ms-error-code: AuthorizationPermissionMismatch");
    expect((await send("b0", "d")).text).toContain("HTTP/1.1 202 Accepted");
    expect(await names(container)).toEqual(["b1"]);
  });

  it("a container's batch takes sub-requests named without the account (Python's SDK), only in that container", async () => {
    const container = await containerWith("relative", 3);
    const sas = service
      .generateAccountSasUrl(
        new Date(Date.now() + 3_600_000),
        AccountSASPermissions.parse("d"),
        AccountSASResourceTypes.parse("sco").toString(),
      )
      .split("?")[1]!;
    const send = (path: string, target: string) =>
      storageRequest(endpoint, {
        method: "POST",
        path,
        auth: { sas },
        body: `--b\r\nContent-Type: application/http\r\nContent-ID: 0\r\n\r\nDELETE ${target} HTTP/1.1\r\n\r\n--b--\r\n`,
        headers: { "content-type": "multipart/mixed; boundary=b" },
      });
    const scoped = "relative?restype=container&comp=batch";
    expect((await send(scoped, "/relative/b0")).text).toContain("HTTP/1.1 202 Accepted");
    // Not a way around the batch's scope: another container, or the account's batch, is still refused.
    expect((await send(scoped, "/rawbatch/b0")).text).toContain("x-ms-error-code: InvalidInput");
    expect((await send("?comp=batch", "/relative/b1")).text).toContain("x-ms-error-code: InvalidInput");
    expect(await names(container)).toEqual(["b1", "b2"]);
  });

  it("257 sub-requests are ExceedsMaxBatchRequestCount; 256 are run", async () => {
    const over = await rawBatch(Array.from({ length: 257 }, () => del("b0")));
    expect(over.status).toBe(202);
    expect(over.text).toContain("x-ms-error-code: ExceedsMaxBatchRequestCount");
    expect(over.text).not.toContain("Content-ID");
    const at = await rawBatch(Array.from({ length: 256 }, () => del("b0")));
    expect(at.text.match(/Content-ID: /g)?.length).toBe(256);
  });

  it("mixed kinds, other operations, another account, a body, no parts: InvalidInput or AllBatchSubRequestsShouldBeSameApi, nothing run", async () => {
    const tier = `PUT /devstoreaccount1/rawbatch/b0?comp=tier HTTP/1.1\r\nx-ms-access-tier: Cool`;
    expect((await rawBatch([del("b0"), tier])).text).toContain(
      "x-ms-error-code: AllBatchSubRequestsShouldBeSameApi",
    );
    expect((await rawBatch(["GET /devstoreaccount1/rawbatch/b0 HTTP/1.1"])).text).toContain(
      "x-ms-error-code: InvalidInput",
    );
    for (const other of ["otheraccount", "devstoreaccount1-secondary"]) {
      expect((await rawBatch([`DELETE /${other}/rawbatch/b0 HTTP/1.1`])).text).toContain(
        "x-ms-error-code: InvalidInput",
      );
    }
    expect((await rawBatch([`${del("b0")}\r\n\r\nbody`])).text).toContain("x-ms-error-code: InvalidInput");
    expect((await rawBatch([])).text).toContain("x-ms-error-code: InvalidInput");
    expect((await rawBatch([del("b0")], "rawbatch?restype=container&comp=batch", "a=b")).status).toBe(202);
  });

  it("Content-Type: missing is 400 MissingRequiredHeader; no boundary InvalidHeaderValue; two InvalidInput", async () => {
    const send = (contentType?: string) =>
      storageRequest(endpoint, {
        method: "POST",
        path: "?comp=batch",
        body: "--x\r\n",
        headers: contentType === undefined ? {} : { "content-type": contentType },
      });
    const missing = await storageRequest(endpoint, { method: "POST", path: "?comp=batch" });
    expect([missing.status, missing.code]).toEqual([400, "MissingRequiredHeader"]);
    expect((await send("multipart/mixed")).text).toContain("x-ms-error-code: InvalidHeaderValue");
    expect((await send("multipart/mixed; boundary=a; BOUNDARY=b")).text).toContain(
      "x-ms-error-code: InvalidInput",
    );
  });

  it("hostile sizes are refused promptly: a body over 4 MiB (413), a 3 MiB line, 200k empty parts, unclosed framing", async () => {
    const big = await storageRequest(endpoint, {
      method: "POST",
      path: "?comp=batch",
      body: "a".repeat(4 * 1024 * 1024 + 1),
      headers: { "content-type": "multipart/mixed; boundary=x" },
    });
    expect([big.status, big.code]).toEqual([413, "RequestBodyTooLarge"]);
    const line = await rawBatch([
      `DELETE /devstoreaccount1/rawbatch/${"a".repeat(3 * 1024 * 1024)} HTTP/1.1`,
    ]);
    expect(line.text).toContain("x-ms-error-code: InvalidInput");
    const many = await storageRequest(endpoint, {
      method: "POST",
      path: "?comp=batch",
      body: `${"--x\r\n\r\n".repeat(200_000)}--x--`,
      headers: { "content-type": "multipart/mixed; boundary=x" },
    });
    expect(many.text).toContain("x-ms-error-code: InvalidInput");
    const unclosed = await storageRequest(endpoint, {
      method: "POST",
      path: "?comp=batch",
      body: `--x\r\n${"Content-Type: application/http\r\n".repeat(100_000)}`,
      headers: { "content-type": "multipart/mixed; boundary=x" },
    });
    expect(unclosed.text).toContain("x-ms-error-code: InvalidInput");
    const headers = await rawBatch([
      `${del("b1")}\r\n${Array.from({ length: 100 }, (_, i) => `x-ms-a${i}: 1`).join("\r\n")}`,
    ]);
    expect(headers.text).toContain("x-ms-error-code: InvalidInput");
  });

  it("an anonymous batch is refused", async () => {
    const res = await storageRequest(endpoint, {
      method: "POST",
      path: "rawbatch?restype=container&comp=batch",
      auth: "none",
      body: "--x--",
      headers: { "content-type": "multipart/mixed; boundary=x" },
    });
    expect([res.status, res.code]).toEqual([403, "AuthenticationFailed"]);
  });
});

describe("Blob Batch: the same SDK batches on Azurite and on serve", { timeout: 120_000 }, () => {
  /** Deletes (three present, one missing, one with a failing If-Match) at the service and container scope: statuses and codes per part. */
  async function scenario(connectionString: string): Promise<unknown[]> {
    const client = BlobServiceClient.fromConnectionString(connectionString);
    const key = client.credential as StorageSharedKeyCredential;
    const container = client.getContainerClient("compared");
    await container.createIfNotExists();
    for (const n of ["a", "b", "c", "d"]) await container.getBlockBlobClient(n).upload("x", 1);
    const outcome = (r: { subResponses: { status: number; errorCode?: string }[] }) =>
      r.subResponses.map((s) => [s.status, s.errorCode ?? null]);
    const first = await client.getBlobBatchClient().deleteBlobs(
      ["a", "missing"].map((n) => container.getBlobClient(n).url),
      key,
    );
    const batch = container.getBlobBatchClient().createBatch();
    await batch.deleteBlob(container.getBlobClient("b"), { conditions: { ifMatch: '"0x8D0000000000000"' } });
    await batch.deleteBlob(container.getBlobClient("c"));
    const second = await container.getBlobBatchClient().submitBatch(batch);
    const names: string[] = [];
    for await (const blob of container.listBlobsFlat()) names.push(blob.name);
    return [outcome(first), outcome(second), names];
  }

  it("answers every part as Azurite does", async () => {
    const azurite = await startAzurite();
    let expected: unknown[];
    try {
      expected = await scenario(azurite.connectionString);
    } finally {
      await azurite.stop();
    }
    expect(await scenario(server.connectionString)).toEqual(expected);
    expect(expected).toEqual([
      [
        [202, null],
        [404, "BlobNotFound"],
      ],
      [
        [412, "ConditionNotMet"],
        [202, null],
      ],
      ["b", "d"],
    ]);
  });
});
