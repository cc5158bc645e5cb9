/**
 * `--oauth basic`: Microsoft Entra bearer tokens, checked as Azurite checks them (audience, issuer,
 * not-before, expiry; no signature), over HTTPS only. The official SDK with a TokenCredential
 * works; every check is tried from the other side: other audiences (another account, another
 * service, look-alike hosts), other issuers (look-alike hosts, userinfo, ports, no tenant),
 * lifetimes not begun or over, malformed tokens, HTTP instead of HTTPS, a server without
 * `--oauth`, table ACLs (the account key only) — and nothing a refused request asks is done.
 */
import https from "node:https";
import {
  createDefaultHttpClient,
  type HttpClient,
  type PipelineRequest,
  type PipelineResponse,
} from "@azure/core-rest-pipeline";
import { TableClient, TableServiceClient, TableTransaction } from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAccounts, startServer } from "../../src/server/index.js";
import { entraToken, TEST_TENANT } from "../support/entra-token.js";
import { type RawRequest, type RawResponse, rawRequest } from "../support/raw-table-client.js";
import { makeTestCertificate, type TestCertificate } from "../support/test-certificate.js";

const TENANT = TEST_TENANT;
const HOUR = 3_600;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const second = { name: "accountb", key: Buffer.alloc(64, 9).toString("base64") };
const token = entraToken;

let certificate: TestCertificate;
let endpoint: string;
let stopServer: () => Promise<void>;
const dev = parseAccounts(undefined)[0]!;

beforeAll(async () => {
  certificate = makeTestCertificate();
  const server = await startServer({
    port: 0,
    cert: certificate.cert,
    key: certificate.key,
    oauth: "basic",
    accounts: [dev, { name: second.name, keys: [second.key] }],
  });
  endpoint = server.url;
  stopServer = server.stop;
});
afterAll(async () => {
  await stopServer?.();
  certificate?.cleanup();
});

/** A request over HTTPS to the first account (or `account`), trusting the test certificate. */
function send(request: RawRequest): Promise<RawResponse> {
  return rawRequest(endpoint, { ca: certificate.pem, ...request });
}

const withBearer = (bearer: string, request: RawRequest = { path: "Tables" }) =>
  send({ ...request, auth: { bearer } });

function expectRefused(r: RawResponse, message?: RegExp): void {
  expect([r.status, r.code]).toEqual([403, "AuthenticationFailed"]);
  if (message) expect(r.text).toMatch(message);
}

/** The SDK's HTTP client, trusting the test certificate. */
function trustingClient(): HttpClient {
  const agent = new https.Agent({ ca: certificate.pem, keepAlive: true });
  const inner = createDefaultHttpClient();
  return {
    sendRequest(request: PipelineRequest): Promise<PipelineResponse> {
      request.agent = agent;
      return inner.sendRequest(request);
    },
  };
}

const credential = (bearer: string) => ({
  getToken: async () => ({ token: bearer, expiresOnTimestamp: Date.now() + HOUR * 1000 }),
});

describe("tablekit serve --oauth basic", () => {
  it("an Entra token works through @azure/data-tables' TokenCredential: tables, entities, a batch, queries", async () => {
    const options = { httpClient: trustingClient(), retryOptions: { maxRetries: 0 } };
    const service = new TableServiceClient(endpoint, credential(token()), options);
    await service.createTable("Oauthed");
    const table = new TableClient(endpoint, "Oauthed", credential(token()), options);
    await table.createEntity({ partitionKey: "p", rowKey: "1", n: 1 });
    const batch = new TableTransaction();
    batch.createEntity({ partitionKey: "p", rowKey: "2", n: 2 });
    batch.upsertEntity({ partitionKey: "p", rowKey: "1", n: 3 });
    await table.submitTransaction(batch.actions);
    const rows = [];
    for await (const e of table.listEntities()) rows.push([e.rowKey, e.n]);
    expect(rows).toEqual([
      ["1", 3],
      ["2", 2],
    ]);
    const names = [];
    for await (const t of service.listTables()) names.push(t.name);
    expect(names).toContain("Oauthed");
    await service.deleteTable("Oauthed");
  });

  it("accepts the audiences the service does: the storage resource, its id, this account's table endpoint", async () => {
    const audiences = [
      "https://storage.azure.com",
      "https://storage.azure.com/",
      "e406a681-f3d4-42a8-90b6-c2b029497af1",
      ...["core.windows.net", "core.chinacloudapi.cn", "core.usgovcloudapi.net", "core.cloudapi.de"].flatMap(
        (suffix) => [`https://devstoreaccount1.table.${suffix}`, `https://devstoreaccount1.table.${suffix}/`],
      ),
    ];
    for (const aud of audiences) {
      expect([aud, (await withBearer(token({ aud }))).status]).toEqual([aud, 200]);
    }
    const listed = await withBearer(token({ aud: ["https://other.example", "https://storage.azure.com"] }));
    expect(listed.status).toBe(200);
  });

  it("refuses audiences of another account, another service, look-alike hosts, or none", async () => {
    const audiences: unknown[] = [
      "https://accountb.table.core.windows.net",
      "https://devstoreaccount1.blob.core.windows.net",
      "https://devstoreaccount1.queue.core.windows.net",
      "https://devstoreaccount1.table.core.windows.net.attacker.example",
      "https://attacker.example/devstoreaccount1.table.core.windows.net",
      "https://storage.azure.com.attacker.example",
      "https://storage.azure.com//",
      "http://storage.azure.com",
      "https://STORAGE.azure.com",
      "e406a681-f3d4-42a8-90b6-c2b029497af1/",
      "https://management.azure.com",
      "",
      42,
      ["https://accountb.table.core.windows.net"],
      undefined,
    ];
    for (const aud of audiences) {
      expectRefused(await withBearer(token({ aud })), /audience/);
    }
  });

  it("accepts the Entra token services' issuers, and refuses any other", async () => {
    for (const host of [
      "sts.windows.net",
      "sts.microsoftonline.de",
      "sts.chinacloudapi.cn",
      "sts.windows-ppe.net",
    ]) {
      for (const iss of [
        `https://${host}/${TENANT}/`,
        `https://${host}/${TENANT}`,
        `https://${host}//${TENANT}/`,
      ]) {
        expect([iss, (await withBearer(token({ iss }))).status]).toEqual([iss, 200]);
      }
    }
    const issuers: unknown[] = [
      `https://invalidissuer/${TENANT}/`,
      `https://sts.windows.net.attacker.example/${TENANT}/`,
      `https://attacker.example/sts.windows.net/${TENANT}/`,
      `https://sts.windows.net@attacker.example/${TENANT}/`,
      `https://user@sts.windows.net/${TENANT}/`,
      `https://sts.windows.net:8443/${TENANT}/`,
      `http://sts.windows.net/${TENANT}/`,
      "https://sts.windows.net/",
      `https://sts.windows.net/${TENANT}/extra/`,
      `https://sts.windows.net/${TENANT}/?x=1`,
      "sts.windows.net",
      "",
      7,
      undefined,
    ];
    for (const iss of issuers) {
      expectRefused(await withBearer(token({ iss })), /issuer/);
    }
  });

  it("checks the lifetime: not before nbf, not after exp; a token without nbf, exp or iat is refused", async () => {
    const now = nowSeconds();
    expectRefused(await withBearer(token({ nbf: now + 120 })), /Lifetime/);
    expectRefused(await withBearer(token({ nbf: now + HOUR * 24 * 365 * 100 })), /Lifetime/);
    expectRefused(await withBearer(token({ exp: now - 2 })), /expired/);
    expectRefused(await withBearer(token({ nbf: now - 2 * HOUR, exp: now - HOUR })), /expired/);
    for (const missing of ["nbf", "exp", "iat"]) {
      expectRefused(await withBearer(token({ [missing]: undefined })), new RegExp(`'${missing}'`));
      expectRefused(await withBearer(token({ [missing]: String(now) })), new RegExp(`'${missing}'`));
    }
    expect((await withBearer(token({ nbf: now - 1, exp: now + 60 }))).status).toBe(200);
  });

  it("refuses tokens that are not JSON Web Tokens", async () => {
    const good = token();
    const [header, payload] = good.split(".") as [string, string];
    const malformed = [
      "invalid",
      `${header}.${payload}`,
      `${header}.${payload}.sig.extra`,
      `${header}.${payload}!.sig`,
      `${header}.${Buffer.from("not json").toString("base64url")}.sig`,
      `${header}.${Buffer.from("[1,2]").toString("base64url")}.sig`,
      `${Buffer.from("null").toString("base64url")}.${payload}.sig`,
    ];
    for (const bad of malformed) expectRefused(await withBearer(bad), /Bearer/);
    for (const authorization of ["Bearer", "Bearer ", `Bearer ${good} ${good}`, `Basic ${good}`]) {
      expectRefused(await send({ path: "Tables", auth: "none", headers: { authorization } }));
    }
    // The scheme's name is case-insensitive (RFC 9110).
    const lower = await send({ path: "Tables", auth: "none", headers: { authorization: `bearer ${good}` } });
    expect(lower.status).toBe(200);
  });

  it("a refused request does nothing", async () => {
    expect((await send({ method: "POST", path: "Tables", body: '{"TableName":"Kept"}' })).status).toBe(201);
    const refused: string[] = [
      token({ aud: "https://accountb.table.core.windows.net" }),
      token({ exp: nowSeconds() - 10 }),
      token({ iss: `https://attacker.example/${TENANT}/` }),
    ];
    for (const bad of refused) {
      const insert = await withBearer(bad, {
        method: "POST",
        path: "Kept",
        body: '{"PartitionKey":"p","RowKey":"x"}',
      });
      expectRefused(insert);
      expectRefused(await withBearer(bad, { method: "DELETE", path: "Tables('Kept')" }));
      expectRefused(
        await withBearer(bad, { method: "POST", path: "Tables", body: '{"TableName":"Intruder"}' }),
      );
    }
    const rows = await send({ path: "Kept()" });
    expect((rows.json() as { value: unknown[] }).value).toEqual([]);
    const names = (await send({ path: "Tables" })).json() as { value: { TableName: string }[] };
    expect(names.value.map((t) => t.TableName)).not.toContain("Intruder");
    expect(names.value.map((t) => t.TableName)).toContain("Kept");
  });

  it("a token for another account's endpoint works there, and only there; each account keeps its own tables", async () => {
    const forB = token({ aud: "https://accountb.table.core.windows.net" });
    const atB = (request: RawRequest) => withBearer(forB, { ...request, account: second.name });
    expect((await atB({ method: "POST", path: "Tables", body: '{"TableName":"OnlyB"}' })).status).toBe(201);
    expect((await atB({ path: "Tables" })).json()).toMatchObject({ value: [{ TableName: "OnlyB" }] });
    expectRefused(await withBearer(forB), /audience/);
    const anyAccount = token();
    const devTables = (await withBearer(anyAccount)).json() as { value: { TableName: string }[] };
    expect(devTables.value.map((t) => t.TableName)).not.toContain("OnlyB");
    expectRefused(await withBearer(anyAccount, { path: "Tables", account: "nosuchaccount" }));
  });

  it("table ACLs need the account key: a bearer token gets AuthorizationFailure for get and set", async () => {
    expect((await send({ method: "POST", path: "Tables", body: '{"TableName":"Acled"}' })).status).toBe(201);
    const acl =
      '<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>p1</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>';
    const set = await withBearer(token(), { method: "PUT", path: "Acled?comp=acl", body: acl });
    expect([set.status, set.code]).toEqual([403, "AuthorizationFailure"]);
    const get = await withBearer(token(), { path: "Acled?comp=acl" });
    expect([get.status, get.code]).toEqual([403, "AuthorizationFailure"]);
    expect((await send({ path: "Acled?comp=acl" })).text).not.toContain("<Id>p1</Id>");
    expect((await send({ method: "PUT", path: "Acled?comp=acl", body: acl })).status).toBe(204);
  });
});

describe("bearer tokens where OAuth is not on", () => {
  it("over HTTP, --oauth basic refuses every bearer token and writes nothing", async () => {
    const server = await startServer({ port: 0, oauth: "basic" });
    try {
      const r = await rawRequest(server.url, { path: "Tables", auth: { bearer: token() } });
      expectRefused(r, /not allowed with HTTP/);
      const create = await rawRequest(server.url, {
        method: "POST",
        path: "Tables",
        body: '{"TableName":"Plain"}',
        auth: { bearer: token() },
      });
      expectRefused(create);
      // An unsecured token (alg none, no signature): refused over HTTP all the same.
      const unsecured = entraToken({}, "", { alg: "none", typ: "JWT" });
      expectRefused(
        await rawRequest(server.url, { path: "Tables", auth: { bearer: unsecured } }),
        /not allowed with HTTP/,
      );
      const drop = await rawRequest(server.url, {
        method: "DELETE",
        path: "Tables('Plain')",
        auth: { bearer: unsecured },
      });
      expectRefused(drop);
      expect(
        ((await rawRequest(server.url, { path: "Tables" })).json() as { value: unknown[] }).value,
      ).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it("without --oauth, a valid token is refused over HTTPS too; the account key still works", async () => {
    const server = await startServer({ port: 0, cert: certificate.cert, key: certificate.key });
    try {
      const r = await rawRequest(server.url, {
        path: "Tables",
        auth: { bearer: token() },
        ca: certificate.pem,
      });
      expectRefused(r, /--oauth basic/);
      expect((await rawRequest(server.url, { path: "Tables", ca: certificate.pem })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("an OAuth level other than basic is refused when the server starts", async () => {
    await expect(startServer({ port: 0, oauth: "full" as "basic" })).rejects.toMatchObject({
      code: "InvalidInput",
    });
  });
});

describe("tablekit serve over HTTPS", () => {
  it("serves with a PFX certificate and its password, and refuses to start with a wrong one", async () => {
    const server = await startServer({ port: 0, cert: certificate.pfx, pwd: certificate.password });
    try {
      expect(server.connectionString).toMatch(/^DefaultEndpointsProtocol=https;.*TableEndpoint=https:/);
      expect(
        (await rawRequest(server.url, { path: "Tables", ca: certificate.pem, auth: "key" })).status,
      ).toBe(200);
    } finally {
      await server.stop();
    }
    await expect(startServer({ port: 0, cert: certificate.pfx, pwd: "wrong" })).rejects.toThrow();
  });
});
