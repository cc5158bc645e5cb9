/**
 * The wire protocol of tablekit serve, byte by byte where clients depend on it: metadata levels,
 * $select, Prefer, ETags, the standard headers, table ACLs and stored access policies, service
 * properties and CORS, the secondary location and production-style host names.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTableSas } from "../../src/index.js";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { type StorageRequest, storageRequest, xmlValue } from "../support/raw-storage-client.js";
import { rawRequest, signedHeaders } from "../support/raw-table-client.js";

let endpoint: string;
let port: number;
let stop: () => Promise<void>;
const account = { name: AZURITE_ACCOUNT, key: AZURITE_KEY };

beforeAll(async () => {
  const server = await startServer({ port: 0 });
  endpoint = server.url;
  port = server.port;
  stop = server.stop;
  await rawRequest(endpoint, { method: "POST", path: "Tables", body: JSON.stringify({ TableName: "Wire" }) });
  const body = JSON.stringify({
    PartitionKey: "p",
    RowKey: "r",
    s: "x",
    i: 5,
    d: 5.0,
    "d@odata.type": "Edm.Double",
    big: "9007199254740993",
    "big@odata.type": "Edm.Int64",
    nan: "NaN",
    "nan@odata.type": "Edm.Double",
    when: "2024-01-02T03:04:05.1234567Z",
    "when@odata.type": "Edm.DateTime",
  });
  await rawRequest(endpoint, {
    method: "POST",
    path: "Wire",
    body,
    headers: { prefer: "return-no-content" },
  });
});
afterAll(() => stop?.());

describe("tablekit serve: the wire format", () => {
  it("minimal metadata annotates what JSON cannot say; doubles keep their fraction", async () => {
    const r = await rawRequest(endpoint, { path: "Wire(PartitionKey='p',RowKey='r')" });
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe(
      "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
    );
    expect(r.text).toContain('"d":5.0');
    expect(r.text).toContain('"i":5,');
    expect(r.text).toContain('"big@odata.type":"Edm.Int64","big":"9007199254740993"');
    expect(r.text).toContain('"nan@odata.type":"Edm.Double","nan":"NaN"');
    expect(r.text).toContain('"when@odata.type":"Edm.DateTime","when":"2024-01-02T03:04:05.1234567Z"');
    const body = r.json() as Record<string, string>;
    expect(body["odata.metadata"]).toBe(`${endpoint}/$metadata#Wire/@Element`);
    expect(body["odata.etag"]).toBe(r.headers.etag);
    // Timestamp's type is known: annotated only under full metadata, as in the service's samples.
    expect(body).not.toHaveProperty("Timestamp@odata.type");
    expect(body.Timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
  });

  it("no metadata and full metadata, by Accept or $format ($format wins)", async () => {
    const none = await rawRequest(endpoint, {
      path: "Wire()?$format=application/json;odata=nometadata",
      headers: { accept: "application/json;odata=fullmetadata" },
    });
    const entity = (none.json() as { value: Record<string, unknown>[] }).value[0]!;
    expect(Object.keys(entity).some((k) => k.includes("odata"))).toBe(false);
    expect(none.json()).not.toHaveProperty("odata.metadata");
    const full = await rawRequest(endpoint, {
      path: "Wire()",
      headers: { accept: "application/json;odata=fullmetadata" },
    });
    const e = (full.json() as { value: Record<string, unknown>[] }).value[0]!;
    expect(e["odata.type"]).toBe(`${AZURITE_ACCOUNT}.Wire`);
    expect(e["odata.id"]).toBe(`${endpoint}/Wire(PartitionKey='p',RowKey='r')`);
    expect(e["odata.editLink"]).toBe("Wire(PartitionKey='p',RowKey='r')");
    expect(e["Timestamp@odata.type"]).toBe("Edm.DateTime");
    const plain = await rawRequest(endpoint, { path: "Wire()", headers: { accept: "application/json" } });
    expect(plain.headers["content-type"]).toContain("odata=minimalmetadata");
  });

  it("$select returns the selected properties, a missing one as null", async () => {
    const r = await rawRequest(endpoint, { path: "Wire()?$select=s,missing" });
    const e = (r.json() as { value: Record<string, unknown>[] }).value[0]!;
    expect(e.s).toBe("x");
    expect(e.missing).toBeNull();
    expect(e).not.toHaveProperty("i");
  });

  it("Prefer: return-content answers 201 with the entity; return-no-content 204 with Preference-Applied", async () => {
    const body = JSON.stringify({ PartitionKey: "p", RowKey: "new1", n: 1 });
    const content = await rawRequest(endpoint, { method: "POST", path: "Wire", body });
    expect(content.status).toBe(201);
    expect((content.json() as Record<string, unknown>).n).toBe(1);
    expect(content.headers.etag).toMatch(/^W\/"datetime'/);
    const none = await rawRequest(endpoint, {
      method: "POST",
      path: "Wire",
      body: JSON.stringify({ PartitionKey: "p", RowKey: "new2" }),
      headers: { prefer: "return-no-content" },
    });
    expect([none.status, none.headers["preference-applied"], none.text]).toEqual([
      204,
      "return-no-content",
      "",
    ]);
    expect(none.headers.location).toBe(`${endpoint}/Wire(PartitionKey='p',RowKey='new2')`);
  });

  it("echoes x-ms-version and x-ms-client-request-id; sends a request id and Date; errors as one-line JSON", async () => {
    const r = await rawRequest(endpoint, {
      path: "Wire(PartitionKey='p',RowKey='absent')",
      headers: { "x-ms-version": "2020-12-06", "x-ms-client-request-id": "abc" },
    });
    expect(r.status).toBe(404);
    expect(r.headers["x-ms-version"]).toBe("2020-12-06");
    expect(r.headers["x-ms-client-request-id"]).toBe("abc");
    expect(r.headers["x-ms-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(String(r.headers.date)))).toBe(false);
    expect(r.text).not.toContain("\n");
    const error = r.json() as { "odata.error": { code: string; message: { lang: string; value: string } } };
    expect(error["odata.error"].code).toBe("ResourceNotFound");
    expect(error["odata.error"].message.value).toMatch(/RequestId:.*\nTime:/);
    const bad = await rawRequest(endpoint, { path: "Wire()", headers: { "x-ms-version": "latest" } });
    expect([bad.status, bad.code]).toEqual([400, "InvalidHeaderValue"]);
  });

  it("table ACLs: set and get stored access policies; a token naming one gets its rights", async () => {
    const acl =
      '<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>readers</Id><AccessPolicy>' +
      `<Start>2020-01-01T00:00:00Z</Start><Expiry>2099-01-01T00:00:00Z</Expiry><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`;
    const set = await rawRequest(endpoint, {
      method: "PUT",
      path: "Wire?comp=acl",
      body: acl,
      headers: { "content-type": "application/xml" },
    });
    expect(set.status).toBe(204);
    const got = await rawRequest(endpoint, { path: "Wire?comp=acl" });
    expect(got.text).toContain("<Id>readers</Id>");
    expect(got.text).toContain("<Permission>r</Permission>");
    const sas = generateTableSas({ account, tableName: "Wire", identifier: "readers" });
    expect(
      (await rawRequest(endpoint, { path: "Wire(PartitionKey='p',RowKey='r')", auth: { sas } })).status,
    ).toBe(200);
    const write = await rawRequest(endpoint, { method: "POST", path: "Wire", body: "{}", auth: { sas } });
    expect([write.status, write.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    const unknown = generateTableSas({ account, tableName: "Wire", identifier: "nobody" });
    expect((await rawRequest(endpoint, { path: "Wire()", auth: { sas: unknown } })).code).toBe(
      "AuthorizationFailure",
    );
    const missing = await rawRequest(endpoint, { path: "Nowhere?comp=acl" });
    expect([missing.status, missing.code]).toEqual([404, "TableNotFound"]);
    const byToken = await rawRequest(endpoint, { path: "Wire?comp=acl", auth: { sas } });
    expect(byToken.status).toBe(403);
    expect(byToken.headers["content-type"]).toBe("application/xml");
  });

  it("service properties round-trip; CORS preflight and responses follow the rules set", async () => {
    const preflightBefore = await rawRequest(endpoint, {
      method: "OPTIONS",
      path: "Wire()",
      auth: "none",
      headers: { origin: "http://app.example", "access-control-request-method": "GET" },
    });
    expect([preflightBefore.status, preflightBefore.code]).toEqual([403, "CorsPreflightFailure"]);
    const properties =
      '<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors><CorsRule><AllowedOrigins>http://app.example</AllowedOrigins>' +
      "<AllowedMethods>GET,PUT</AllowedMethods><MaxAgeInSeconds>60</MaxAgeInSeconds><ExposedHeaders>x-ms-*</ExposedHeaders><AllowedHeaders>x-ms-*,content-type</AllowedHeaders></CorsRule></Cors></StorageServiceProperties>";
    const set = await rawRequest(endpoint, {
      method: "PUT",
      path: "?restype=service&comp=properties",
      body: properties,
    });
    expect(set.status).toBe(202);
    const got = await rawRequest(endpoint, { path: "?restype=service&comp=properties" });
    expect(got.text).toContain("<AllowedOrigins>http://app.example</AllowedOrigins>");
    expect(got.text).toContain("<Logging>");
    const preflight = await rawRequest(endpoint, {
      method: "OPTIONS",
      path: "Wire()",
      auth: "none",
      headers: {
        origin: "http://app.example",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "x-ms-date,content-type",
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers["access-control-allow-origin"]).toBe("http://app.example");
    expect(preflight.headers["access-control-max-age"]).toBe("60");
    const other = await rawRequest(endpoint, {
      method: "OPTIONS",
      path: "Wire()",
      auth: "none",
      headers: { origin: "http://evil.example", "access-control-request-method": "GET" },
    });
    expect(other.status).toBe(403);
    const actual = await rawRequest(endpoint, { path: "Wire()", headers: { origin: "http://app.example" } });
    expect(actual.headers["access-control-allow-origin"]).toBe("http://app.example");
    // Stats are the secondary location's only (read-access geo-redundant replication).
    const primaryStats = await rawRequest(endpoint, { path: "?restype=service&comp=stats" });
    expect([primaryStats.status, primaryStats.code]).toEqual([400, "InvalidQueryParameterValue"]);
    const stats = await rawRequest(endpoint, {
      path: "?restype=service&comp=stats",
      account: `${AZURITE_ACCOUNT}-secondary`,
      signingAccount: AZURITE_ACCOUNT,
    });
    expect(stats.status).toBe(200);
    expect(stats.text).toContain("<Status>live</Status>");
  });

  it("the -secondary account reads but does not write; production-style host names name the account", async () => {
    const secondary = endpoint.replace(AZURITE_ACCOUNT, `${AZURITE_ACCOUNT}-secondary`);
    const read = await rawRequest(secondary.replace(`/${AZURITE_ACCOUNT}-secondary`, `/${AZURITE_ACCOUNT}`), {
      path: "Wire(PartitionKey='p',RowKey='r')",
    });
    expect(read.status).toBe(200);
    const viaSecondary = await new Promise<number>((resolve, reject) => {
      const path = `/${AZURITE_ACCOUNT}-secondary/Wire(PartitionKey='p',RowKey='r')`;
      const headers = signedHeaders(`Wire(PartitionKey='p',RowKey='r')`);
      request({ host: "127.0.0.1", port, path, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(viaSecondary).toBe(200);
    const production = await new Promise<number>((resolve, reject) => {
      const headers = signedHeaders("Wire()", AZURITE_ACCOUNT, AZURITE_KEY, "production");
      request(
        {
          host: "127.0.0.1",
          port,
          path: "/Wire()",
          headers: { ...headers, host: `${AZURITE_ACCOUNT}.table.localhost:${port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on("error", reject)
        .end();
    });
    expect(production).toBe(200);
  });
});

describe("tablekit serve: the -secondary location of the Queue service", () => {
  let queueEndpoint: string;
  let stopQueues: () => Promise<void>;
  beforeAll(async () => {
    const server = await startServer({ port: 0, services: ["queue"] });
    queueEndpoint = server.endpoints.queue!.url;
    stopQueues = server.stop;
  });
  afterAll(() => stopQueues?.());

  it("refuses Get Messages (a GET that dequeues) and every other write; Peek Messages is served", async () => {
    const call = (request: StorageRequest) => storageRequest(queueEndpoint, request);
    const secondary = { account: `${AZURITE_ACCOUNT}-secondary`, signer: AZURITE_ACCOUNT };
    expect((await call({ method: "PUT", path: "second" })).status).toBe(201);
    const body = "<QueueMessage><MessageText>kept</MessageText></QueueMessage>";
    expect((await call({ method: "POST", path: "second/messages", body })).status).toBe(201);
    // Every spelling of a dequeue: no peekonly, peekonly=false, other letter cases of the path's query.
    for (const path of [
      "second/messages",
      "second/messages?numofmessages=32&visibilitytimeout=3600",
      "second/messages?peekonly=false",
      "second/messages?peekonly=no",
      "second/messages/",
    ]) {
      const r = await call({ path, ...secondary });
      expect([path, r.status, r.code]).toEqual([path, 403, "AuthorizationFailure"]);
    }
    for (const write of [
      { method: "POST", path: "second/messages", body },
      { method: "DELETE", path: "second/messages" },
      { method: "PUT", path: "second?comp=metadata", headers: { "x-ms-meta-a": "b" } },
    ]) {
      expect((await call({ ...write, ...secondary })).status, write.path).toBe(403);
    }
    // Reads are served, and the message is still there, never dequeued.
    for (const peek of ["second/messages?peekonly=true", "second/messages?peekonly=TRUE"]) {
      const r = await call({ path: peek, ...secondary });
      expect(r.status).toBe(200);
      expect(xmlValue(r.text, "MessageText")).toBe("kept");
      expect(xmlValue(r.text, "DequeueCount")).toBe("0");
    }
    expect(
      (await call({ path: "second?comp=metadata", ...secondary })).headers["x-ms-approximate-messages-count"],
    ).toBe("1");
  });
});
