/**
 * User delegation under `--oauth basic`: Get User Delegation Key with a bearer token (and only
 * with one), and the user delegation SAS the official client signs with it, verified against the
 * key the server derives from the account key; expired or not-yet-valid keys, missing key fields,
 * stored policies and tampered signatures refused with AuthenticationFailed and its detail.
 */
import {
  AnonymousCredential,
  BlobSASPermissions,
  BlobServiceClient,
  ContainerClient,
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
  type UserDelegationKey,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { entraToken, TEST_TENANT } from "../support/entra-token.js";
import { makeTestCertificate, type TestCertificate } from "../support/test-certificate.js";

let certificate: TestCertificate;
let server: RunningServer;
let url: string;
let tls: never;
const OID = "00000000-0000-0000-0000-0000000000aa";

beforeAll(async () => {
  certificate = makeTestCertificate();
  server = await startServer({
    port: 0,
    services: ["blob"],
    cert: certificate.cert,
    key: certificate.key,
    oauth: "basic",
  });
  url = server.endpoints.blob!.url.replace(/\/$/, "");
  tls = { tlsOptions: { ca: certificate.pem }, retryOptions: { maxTries: 1 } } as never;
  const owner = bearerClient().getContainerClient("delegated");
  await owner.create();
  await owner.getBlockBlobClient("a.txt").upload("hello", 5);
});
afterAll(async () => {
  await server?.stop();
  certificate?.cleanup();
});

function bearerClient(claims: Record<string, unknown> = { oid: OID }): BlobServiceClient {
  const credential = {
    getToken: async () => ({ token: entraToken(claims), expiresOnTimestamp: Date.now() + 60_000 }),
  };
  return new BlobServiceClient(url, credential, tls);
}

function keyClient(): BlobServiceClient {
  return new BlobServiceClient(url, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY), tls);
}

const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

async function failure(work: Promise<unknown>): Promise<{ status?: number; code?: string; detail?: string }> {
  const err = (await work.then(
    () => undefined,
    (e: unknown) => e,
  )) as { statusCode?: number; code?: string; details?: { authenticationErrorDetail?: string } } | undefined;
  if (err === undefined) throw new Error("expected a failure");
  return { status: err.statusCode, code: err.code, detail: err.details?.authenticationErrorDetail };
}

function containerSas(key: UserDelegationKey, permissions = "rl", extra: object = {}): ContainerClient {
  const sas = generateBlobSASQueryParameters(
    {
      containerName: "delegated",
      permissions: ContainerSASPermissions.parse(permissions),
      expiresOn: hours(1),
      ...extra,
    },
    key,
    AZURITE_ACCOUNT,
  ).toString();
  return new ContainerClient(`${url}/delegated?${sas}`, new AnonymousCredential(), tls);
}

describe("Get User Delegation Key", () => {
  it("answers a key for the token's user: oid, tenant, start, expiry, service b, version, value", async () => {
    const start = hours(-1);
    const key = await bearerClient().getUserDelegationKey(start, hours(24));
    expect(key.signedObjectId).toBe(OID);
    expect(key.signedTenantId).toBe(TEST_TENANT);
    expect(key.signedService).toBe("b");
    expect(key.signedStartsOn.toISOString().slice(0, 19)).toBe(start.toISOString().slice(0, 19));
    expect(Buffer.from(key.value, "base64")).toHaveLength(32);
    // Derived, not random: the same fields give the same key.
    const again = await bearerClient().getUserDelegationKey(start, key.signedExpiresOn);
    expect(again.value).toBe(key.value);
  });

  it("the account key and a SAS may not ask for one (403, only Bearer)", async () => {
    const byKey = await failure(keyClient().getUserDelegationKey(hours(-1), hours(1)));
    expect(byKey).toEqual({
      status: 403,
      code: "AuthenticationFailed",
      detail: "Only authentication scheme Bearer is supported",
    });
  });

  it("a token without an object id (oid) gets no key: 403 with the reason", async () => {
    const refused = await failure(bearerClient({ oid: undefined }).getUserDelegationKey(hours(-1), hours(1)));
    expect([refused.status, refused.code]).toEqual([403, "AuthenticationFailed"]);
    expect(refused.detail).toMatch(/no object id/);
  });

  it("an expiry more than seven days away, or before the start, is refused; seven days is accepted", async () => {
    const client = bearerClient();
    expect((await failure(client.getUserDelegationKey(new Date(), hours(7 * 24 + 1)))).status).toBe(400);
    expect((await failure(client.getUserDelegationKey(hours(2), hours(1)))).status).toBe(400);
    expect((await client.getUserDelegationKey(new Date(), hours(7 * 24 - 0.01))).signedService).toBe("b");
  });
});

describe("user delegation SAS", () => {
  it("a container SAS signed with the key lists and reads; a blob SAS reads its blob; both only what they grant", async () => {
    const key = await bearerClient().getUserDelegationKey(hours(-1), hours(24));
    const container = containerSas(key);
    const names: string[] = [];
    for await (const blob of container.listBlobsFlat()) names.push(blob.name);
    expect(names).toEqual(["a.txt"]);
    expect((await container.getBlobClient("a.txt").downloadToBuffer()).toString()).toBe("hello");
    expect((await failure(container.getBlockBlobClient("b.txt").upload("x", 1))).code).toBe(
      "AuthorizationPermissionMismatch",
    );
    const blobSas = generateBlobSASQueryParameters(
      {
        containerName: "delegated",
        blobName: "a.txt",
        permissions: BlobSASPermissions.parse("r"),
        expiresOn: hours(1),
      },
      key,
      AZURITE_ACCOUNT,
    ).toString();
    const blob = new ContainerClient(
      `${url}/delegated?${blobSas}`,
      new AnonymousCredential(),
      tls,
    ).getBlobClient("a.txt");
    expect((await blob.downloadToBuffer()).toString()).toBe("hello");
  });

  it("works at the service versions whose strings to sign differ (2018-11-09, 2020-02-10, 2020-12-06, 2025-07-05)", async () => {
    const key = await bearerClient().getUserDelegationKey(hours(-1), hours(24));
    for (const version of ["2018-11-09", "2020-02-10", "2020-12-06", "2025-07-05"]) {
      const names: string[] = [];
      for await (const b of containerSas(
        key,
        "l",
        version < "2020-02-10" ? { version } : { version, correlationId: "c1" },
      ).listBlobsFlat())
        names.push(b.name);
      expect([version, names]).toEqual([version, ["a.txt"]]);
    }
  });

  it("an expired key, a key not yet valid, a tampered signature, a changed key field, a stored policy: 403 with a detail", async () => {
    const client = bearerClient();
    const expired = await client.getUserDelegationKey(hours(-3), hours(-1));
    const later = await client.getUserDelegationKey(hours(1), hours(3));
    const good = await client.getUserDelegationKey(hours(-1), hours(3));
    const list = (c: ContainerClient) => c.listBlobsFlat().byPage().next();
    for (const key of [expired, later]) {
      const refused = await failure(list(containerSas(key)));
      expect([refused.status, refused.code]).toEqual([403, "AuthenticationFailed"]);
      expect(refused.detail).toMatch(/user delegation key is not valid now/);
    }
    const sas = new URLSearchParams(containerSas(good).url.split("?")[1]);
    const variants: [string, (p: URLSearchParams) => void][] = [
      ["tampered sig", (p) => p.set("sig", `${p.get("sig")!.slice(0, -4)}AAA=`)],
      ["another oid", (p) => p.set("skoid", "00000000-0000-0000-0000-0000000000bb")],
      ["a longer key", (p) => p.set("ske", hours(48).toISOString().slice(0, 19) + "Z")],
      ["more permissions", (p) => p.set("sp", "rwl")],
      ["no oid", (p) => p.delete("skoid")],
      ["a stored policy", (p) => p.set("si", "policy")],
      ["another service", (p) => p.set("sks", "q")],
    ];
    for (const [name, change] of variants) {
      const p = new URLSearchParams(sas);
      change(p);
      const refused = await failure(
        list(new ContainerClient(`${url}/delegated?${p}`, new AnonymousCredential(), tls)),
      );
      expect([name, refused.status, refused.code]).toEqual([name, 403, "AuthenticationFailed"]);
      expect(refused.detail).toBeTruthy();
    }
  });

  it("a key from another account's server does not verify here (the key derives from the account key)", async () => {
    const key = await bearerClient().getUserDelegationKey(hours(-1), hours(2));
    const forged = { ...key, value: Buffer.alloc(32, 7).toString("base64") };
    const refused = await failure(containerSas(forged).listBlobsFlat().byPage().next());
    expect([refused.status, refused.code, refused.detail]).toEqual([
      403,
      "AuthenticationFailed",
      "Signature did not match.",
    ]);
  });
});

describe("Blob Batch with a bearer token and a user delegation SAS", () => {
  it("a bearer batch deletes (the SDK puts the token on each sub-request); a user delegation SAS batch too", async () => {
    const client = bearerClient();
    const container = client.getContainerClient("delegated");
    for (const n of ["x1", "x2", "x3"]) await container.getBlockBlobClient(n).upload("x", 1);
    const credential = {
      getToken: async () => ({ token: entraToken({ oid: OID }), expiresOnTimestamp: Date.now() + 60_000 }),
    };
    const byToken = await client
      .getBlobBatchClient()
      .deleteBlobs([container.getBlobClient("x1").url], credential);
    expect(byToken.subResponses.map((r) => r.status)).toEqual([202]);
    const key = await client.getUserDelegationKey(hours(-1), hours(2));
    const sasContainer = containerSas(key, "d");
    const viaSas = await sasContainer
      .getBlobBatchClient()
      .deleteBlobs(
        [sasContainer.getBlobClient("x2").url, sasContainer.getBlobClient("x3").url],
        new AnonymousCredential(),
      );
    expect(viaSas.subResponses.map((r) => r.status)).toEqual([202, 202]);
    const listOnly = containerSas(key, "l");
    const refused = await listOnly
      .getBlobBatchClient()
      .deleteBlobs([listOnly.getBlobClient("a.txt").url], new AnonymousCredential());
    expect(refused.subResponses.map((r) => [r.status, r.errorCode])).toEqual([
      [403, "AuthorizationPermissionMismatch"],
    ]);
  });
});
