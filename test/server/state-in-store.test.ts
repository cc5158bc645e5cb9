/**
 * Where `tablekit serve` keeps what the services keep beside tables, queues and blobs: in the store.
 * Finding 2 of issue 32: a CORS rule with a newline, set with an account SAS, made every later
 * request 500 and survived a restart; the store now refuses it as the service does (400
 * InvalidXmlNodeValue). Finding 5: ACL and service-properties bodies are read with the XML parser
 * and capped (64 KiB): a large body is 413, a hostile one 400, and other requests are answered.
 * And a restart on a file store finds metadata, ACLs, public access and CORS rules, from the
 * database: no JSON file in the location.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateQueueSASQueryParameters, StorageSharedKeyCredential } from "@azure/storage-queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { generateAccountSas } from "../../src/store/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { storageRequest } from "../support/raw-storage-client.js";
import { rawRequest } from "../support/raw-table-client.js";

type Service = "table" | "queue" | "blob";
const SERVICES: readonly Service[] = ["table", "queue", "blob"];

interface Answer {
  status: number;
  code: string | undefined;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

type Server = Awaited<ReturnType<typeof startServer>>;

function request(
  server: Server,
  service: Service,
  req: {
    method?: string;
    path: string;
    body?: string;
    headers?: Record<string, string>;
    auth?: "none" | { sas: string };
  },
): Promise<Answer> {
  const endpoint = server.endpoints[service]!.url;
  return service === "table" ? rawRequest(endpoint, req) : storageRequest(endpoint, req);
}

const PROPERTIES = "?restype=service&comp=properties";
const props = (cors: string) =>
  `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors>${cors}</Cors></StorageServiceProperties>`;
const rule = (r: Partial<Record<"origins" | "methods" | "maxAge" | "exposed" | "allowed", string>> = {}) =>
  `<CorsRule><AllowedOrigins>${r.origins ?? "http://app.example"}</AllowedOrigins><AllowedMethods>${r.methods ?? "GET,PUT"}</AllowedMethods><MaxAgeInSeconds>${r.maxAge ?? "60"}</MaxAgeInSeconds><ExposedHeaders>${r.exposed ?? "x-ms-meta-*"}</ExposedHeaders><AllowedHeaders>${r.allowed ?? "x-ms-*"}</AllowedHeaders></CorsRule>`;

const dir = mkdtempSync(join(tmpdir(), "tablekit-state-"));
let server: Server;

beforeAll(async () => {
  server = await startServer({ port: 0, location: dir });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const accountSas = () =>
  generateAccountSas({
    account: { name: AZURITE_ACCOUNT, key: AZURITE_KEY },
    services: "bqt",
    resourceTypes: { service: true },
    permissions: { write: true },
    expiresOn: new Date(Date.now() + 3_600_000),
  });

describe("finding 2: CORS rules are checked as the service checks them, whoever sets them", () => {
  const REFUSED: readonly [string, string][] = [
    ["a newline in ExposedHeaders", props(rule({ exposed: "x-ms-meta-a\nx-evil" }))],
    ["an encoded newline in ExposedHeaders", props(rule({ exposed: "x-ms-meta-a&#10;x-evil: 1" }))],
    ["an encoded carriage return in AllowedHeaders", props(rule({ allowed: "x-ms-a&#13;&#10;b" }))],
    ["a tab in AllowedOrigins", props(rule({ origins: "http://a.example&#9;" }))],
    ["six rules", props(rule().repeat(6))],
    ["a method outside the documented set", props(rule({ methods: "GET,TRACE" }))],
    ["a negative MaxAgeInSeconds", props(rule({ maxAge: "-1" }))],
    ["a MaxAgeInSeconds that is no number", props(rule({ maxAge: "soon" }))],
    ["65 allowed headers", props(rule({ allowed: Array.from({ length: 65 }, (_, i) => `h${i}`).join(",") }))],
    ["three prefixed exposed headers", props(rule({ exposed: "a*,b*,c*" }))],
  ];

  for (const service of SERVICES) {
    it(`${service}: every refused rule is 400 InvalidXmlNodeValue, through an account SAS (srt=s sp=w) or the key; nothing is kept`, async () => {
      const sas = accountSas();
      for (const [what, body] of REFUSED) {
        for (const auth of [{ sas }, undefined]) {
          const r = await request(server, service, {
            method: "PUT",
            path: PROPERTIES,
            body,
            ...(auth ? { auth } : {}),
          });
          expect([what, r.status, r.code]).toEqual([what, 400, "InvalidXmlNodeValue"]);
        }
      }
      // Every later request is answered; the rules are none; the owner (and the token) can set a good one.
      const got = await request(server, service, { path: PROPERTIES });
      expect(got.status).toBe(200);
      expect(got.text).toContain("<Cors></Cors>");
      const set = await request(server, service, {
        method: "PUT",
        path: PROPERTIES,
        body: props(rule()),
        auth: { sas },
      });
      expect(set.status).toBe(202);
      const preflight = await request(server, service, {
        method: "OPTIONS",
        path: "anything",
        auth: "none",
        headers: { origin: "http://app.example", "access-control-request-method": "PUT" },
      });
      expect(preflight.status).toBe(200);
      expect(preflight.headers["access-control-allow-origin"]).toBe("http://app.example");
      const cleared = await request(server, service, { method: "PUT", path: PROPERTIES, body: props("") });
      expect(cleared.status).toBe(202);
    });
  }

  it("five rules is the most, and a rule at every limit is kept", async () => {
    const limits = rule({
      allowed: [...Array.from({ length: 64 }, (_, i) => `h${i}`), "x-ms-meta-*", "x-ms-a*"].join(","),
      maxAge: "0",
    });
    const r = await request(server, "queue", {
      method: "PUT",
      path: PROPERTIES,
      body: props(limits + rule().repeat(4)),
    });
    expect(r.status).toBe(202);
    const got = await request(server, "queue", { path: PROPERTIES });
    expect(got.text.match(/<CorsRule>/g)).toHaveLength(5);
    await request(server, "queue", { method: "PUT", path: PROPERTIES, body: props("") });
  });
});

describe("finding 5: ACL and service-properties bodies are capped and parsed, not matched by regular expressions", () => {
  it("a 760 KB body is 413 RequestBodyTooLarge on every service, and another request is answered meanwhile", async () => {
    await request(server, "queue", { method: "PUT", path: "hostile" });
    await request(server, "blob", { method: "PUT", path: "hostile?restype=container" });
    await rawRequest(server.endpoints.table!.url, {
      method: "POST",
      path: "Tables",
      body: '{"TableName":"hostile"}',
    });
    const big = `<SignedIdentifiers>${"<SignedIdentifier><Id>".repeat((760 * 1024) / 22)}`;
    const cases: [Service, string][] = [
      ["table", "hostile?comp=acl"],
      ["queue", "hostile?comp=acl"],
      ["blob", "hostile?restype=container&comp=acl"],
      ["queue", PROPERTIES],
    ];
    for (const [service, path] of cases) {
      const [hostile, other] = await Promise.all([
        request(server, service, { method: "PUT", path, body: big }),
        request(server, "queue", { path: "?comp=list" }),
      ]);
      expect([service, path, hostile.status, hostile.code]).toEqual([
        service,
        path,
        413,
        "RequestBodyTooLarge",
      ]);
      expect(other.status).toBe(200);
    }
  });

  it("a hostile body under the cap (unclosed elements, nesting) is 400 InvalidXmlDocument, nothing kept", async () => {
    const unclosed = `<SignedIdentifiers>${"<SignedIdentifier><Id>x</Id><AccessPolicy>".repeat(1400)}`;
    const nested = `${"<a>".repeat(8000)}${"</a>".repeat(8000)}`;
    for (const body of [unclosed, `<StorageServiceProperties><Cors>${"<CorsRule>".repeat(5000)}`]) {
      expect(body.length).toBeLessThan(64 * 1024);
      const [acl, props_, other] = await Promise.all([
        request(server, "queue", { method: "PUT", path: "hostile?comp=acl", body }),
        request(server, "blob", { method: "PUT", path: PROPERTIES, body }),
        request(server, "blob", { path: "?comp=list" }),
      ]);
      expect([acl.status, acl.code]).toEqual([400, "InvalidXmlDocument"]);
      expect([props_.status, props_.code]).toEqual([400, "InvalidXmlDocument"]);
      expect(other.status).toBe(200);
    }
    const deep = await request(server, "queue", { method: "PUT", path: "hostile?comp=acl", body: nested });
    expect(deep.status).toBe(400);
    expect((await request(server, "queue", { path: "hostile?comp=acl" })).text).not.toContain("<Id>");
  });
});

describe("state survives a restart of serve, from the database alone", () => {
  it("metadata (with its case), ACLs, public access and CORS rules come back; no JSON file in the location", async () => {
    const acl = (letters: string) =>
      `<SignedIdentifiers><SignedIdentifier><Id>kept</Id><AccessPolicy><Start>2020-01-01T00:00:00Z</Start><Expiry>2099-01-01T00:00:00Z</Expiry><Permission>${letters}</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`;
    await rawRequest(server.endpoints.table!.url, {
      method: "POST",
      path: "Tables",
      body: '{"TableName":"Kept"}',
    });
    expect(
      (await request(server, "table", { method: "PUT", path: "Kept?comp=acl", body: acl("r") })).status,
    ).toBe(204);
    expect(
      (
        await request(server, "queue", {
          method: "PUT",
          path: "keptq",
          headers: { "x-ms-meta-Owner": "Ada" },
        })
      ).status,
    ).toBe(201);
    expect(
      (await request(server, "queue", { method: "PUT", path: "keptq?comp=acl", body: acl("rp") })).status,
    ).toBe(204);
    expect(
      (
        await request(server, "blob", {
          method: "PUT",
          path: "keptc?restype=container",
          headers: { "x-ms-meta-Team": "core", "x-ms-blob-public-access": "container" },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await request(server, "blob", {
          method: "PUT",
          path: "keptc?restype=container&comp=acl",
          body: acl("rl"),
          headers: { "x-ms-blob-public-access": "blob" },
        })
      ).status,
    ).toBe(200);
    for (const service of SERVICES) {
      expect(
        (await request(server, service, { method: "PUT", path: PROPERTIES, body: props(rule()) })).status,
      ).toBe(202);
    }

    await server.stop();
    server = await startServer({ port: 0, location: dir });

    const files = readdirSync(dir, { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith(".json"))).toEqual([]);
    expect((await request(server, "table", { path: "Kept?comp=acl" })).text).toContain("<Id>kept</Id>");
    const queueMeta = await request(server, "queue", { path: "keptq?comp=metadata" });
    expect(queueMeta.status).toBe(200);
    expect(queueMeta.text).toBe("");
    expect(queueMeta.headers["x-ms-meta-owner"]).toBe("Ada");
    const listed = await request(server, "queue", { path: "?comp=list&include=metadata&prefix=keptq" });
    expect(listed.text).toContain("<Owner>Ada</Owner>");
    expect((await request(server, "queue", { path: "keptq?comp=acl" })).text).toContain(
      "<Permission>rp</Permission>",
    );
    const containerAcl = await request(server, "blob", { path: "keptc?restype=container&comp=acl" });
    expect(containerAcl.headers["x-ms-blob-public-access"]).toBe("blob");
    expect(containerAcl.text).toContain("<Permission>rl</Permission>");
    const containers = await request(server, "blob", { path: "?comp=list&include=metadata&prefix=keptc" });
    expect(containers.text).toContain("<Team>core</Team>");
    // Public access `blob`: an anonymous read of a missing blob is the blob's 404, not the container's refusal.
    const anonymous = await request(server, "blob", { path: "keptc/none", auth: "none" });
    expect([anonymous.status, anonymous.code]).toEqual([404, "BlobNotFound"]);
    for (const service of SERVICES) {
      expect((await request(server, service, { path: PROPERTIES })).text).toContain(
        "<AllowedOrigins>http://app.example</AllowedOrigins>",
      );
      const preflight = await request(server, service, {
        method: "OPTIONS",
        path: "x",
        auth: "none",
        headers: { origin: "http://app.example", "access-control-request-method": "GET" },
      });
      expect(preflight.status).toBe(200);
    }
    // A token naming the stored policy gets its rights (r, p) after the restart, and no others.
    const sas = generateQueueSASQueryParameters(
      { queueName: "keptq", identifier: "kept" },
      new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
    ).toString();
    const peek = await request(server, "queue", { path: "keptq/messages?peekonly=true", auth: { sas } });
    expect(peek.status).toBe(200);
    const send = await request(server, "queue", {
      method: "POST",
      path: "keptq/messages",
      body: "<QueueMessage><MessageText>x</MessageText></QueueMessage>",
      auth: { sas },
    });
    expect([send.status, send.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
  });
});
