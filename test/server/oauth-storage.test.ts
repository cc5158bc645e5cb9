/**
 * `--oauth basic` for the Queue and Blob services: the same bearer-token checks as the Table
 * service's (one module), each service's own endpoint as an audience, and the ACL operations the
 * account key alone may call. Tried from the other side too: a token for one service's endpoint
 * at another service, HTTP, a server without `--oauth`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { entraToken } from "../support/entra-token.js";
import { storageRequest } from "../support/raw-storage-client.js";
import { type RawRequest, type RawResponse, rawRequest } from "../support/raw-table-client.js";
import { makeTestCertificate, type TestCertificate } from "../support/test-certificate.js";

let certificate: TestCertificate;
let server: RunningServer;

beforeAll(async () => {
  certificate = makeTestCertificate();
  server = await startServer({ port: 0, cert: certificate.cert, key: certificate.key, oauth: "basic" });
});
afterAll(async () => {
  await server?.stop();
  certificate?.cleanup();
});

type Service = "table" | "queue" | "blob";

function at(service: Service, bearer: string, request: RawRequest): Promise<RawResponse> {
  return rawRequest(server.endpoints[service]!.url, { ca: certificate.pem, ...request, auth: { bearer } });
}

function expectRefused(r: RawResponse, code = "AuthenticationFailed"): void {
  expect([r.status, r.code]).toEqual([403, code]);
}

/** Getting and setting the ACL at `path` with a valid bearer token: AuthorizationFailure both. */
async function expectAclKeyOnly(service: Service, path: string): Promise<void> {
  expectRefused(await at(service, entraToken(), { path }), "AuthorizationFailure");
  const set = await at(service, entraToken(), { method: "PUT", path, body: "<SignedIdentifiers/>" });
  expectRefused(set, "AuthorizationFailure");
}

/** The service's listing (read with a valid token) does not name `name`. */
async function expectNotListed(service: Service, name: string): Promise<void> {
  const listed = await at(service, entraToken(), { path: "?comp=list" });
  expect(listed.status).toBe(200);
  expect(listed.text).not.toContain(name);
}

const endpointAudience = (service: Service) => `https://devstoreaccount1.${service}.core.windows.net`;

describe("tablekit serve --oauth basic: the Queue service", () => {
  it("takes a storage token or its own endpoint's: queues and messages", async () => {
    for (const [i, aud] of ["https://storage.azure.com", endpointAudience("queue")].entries()) {
      const bearer = entraToken({ aud });
      expect((await at("queue", bearer, { method: "PUT", path: `oauthq${i}` })).status).toBe(201);
      const sent = await at("queue", bearer, {
        method: "POST",
        path: `oauthq${i}/messages`,
        body: "<QueueMessage><MessageText>hello</MessageText></QueueMessage>",
        headers: { "content-type": "application/xml" },
      });
      expect(sent.status).toBe(201);
      const peeked = await at("queue", bearer, { path: `oauthq${i}/messages?peekonly=true` });
      expect(peeked.text).toContain("<MessageText>hello</MessageText>");
      expect((await at("queue", bearer, { path: "?comp=list" })).text).toContain(`<Name>oauthq${i}</Name>`);
    }
  });

  it("refuses the other services' endpoints, another account's, and ACLs (the account key's alone)", async () => {
    for (const aud of [
      endpointAudience("table"),
      endpointAudience("blob"),
      "https://accountb.queue.core.windows.net",
    ]) {
      expectRefused(await at("queue", entraToken({ aud }), { method: "PUT", path: "intruderq" }));
    }
    expectRefused(
      await at("queue", entraToken({ exp: Math.floor(Date.now() / 1000) - 5 }), { path: "?comp=list" }),
    );
    expectRefused(
      await at("queue", entraToken({ iss: "https://attacker.example/t/" }), { path: "?comp=list" }),
    );
    await expectAclKeyOnly("queue", "oauthq0?comp=acl");
    await expectNotListed("queue", "intruderq");
  });
});

describe("tablekit serve --oauth basic: the Blob service", () => {
  it("takes a storage token or its own endpoint's: containers and blobs", async () => {
    for (const [i, aud] of ["https://storage.azure.com/", endpointAudience("blob")].entries()) {
      const bearer = entraToken({ aud });
      expect((await at("blob", bearer, { method: "PUT", path: `oauthc${i}?restype=container` })).status).toBe(
        201,
      );
      const put = await at("blob", bearer, {
        method: "PUT",
        path: `oauthc${i}/note.txt`,
        body: "hello",
        headers: { "x-ms-blob-type": "BlockBlob", "content-type": "text/plain" },
      });
      expect(put.status).toBe(201);
      const got = await at("blob", bearer, { path: `oauthc${i}/note.txt` });
      expect([got.status, got.text]).toEqual([200, "hello"]);
    }
  });

  it("refuses the other services' endpoints, and container ACLs (the account key's alone)", async () => {
    for (const aud of [
      endpointAudience("table"),
      endpointAudience("queue"),
      "https://accountb.blob.core.windows.net",
    ]) {
      expectRefused(
        await at("blob", entraToken({ aud }), { method: "PUT", path: "intruderc?restype=container" }),
      );
      expectRefused(await at("blob", entraToken({ aud }), { path: "oauthc0/note.txt" }));
    }
    await expectAclKeyOnly("blob", "oauthc0?restype=container&comp=acl");
    await expectNotListed("blob", "intruderc");
  });

  it("a token for the blob endpoint is refused by the Table service", async () => {
    expectRefused(await at("table", entraToken({ aud: endpointAudience("blob") }), { path: "Tables" }));
    expect(
      (await at("table", entraToken({ aud: endpointAudience("table") }), { path: "Tables" })).status,
    ).toBe(200);
  });
});

/** Tokens each check refuses: another audience or issuer, a lifetime not begun, over or not given. */
function refusedTokens(service: Service): [string, string][] {
  const now = Math.floor(Date.now() / 1000);
  return [
    ["another account's endpoint", entraToken({ aud: `https://accountb.${service}.core.windows.net` })],
    ["another audience", entraToken({ aud: "https://management.azure.com" })],
    ["another issuer", entraToken({ iss: "https://sts.windows.net.attacker.example/t/" })],
    ["nbf ahead", entraToken({ nbf: now + 120 })],
    ["exp past", entraToken({ exp: now - 5 })],
    ["no exp", entraToken({ exp: undefined })],
    ["no nbf", entraToken({ nbf: undefined })],
  ];
}

describe("tablekit serve --oauth basic: every check, at every service", () => {
  it.each(["table", "queue", "blob"] as const)(
    "%s: each refused token lists nothing and creates nothing",
    async (service) => {
      const create: RawRequest =
        service === "table"
          ? { method: "POST", path: "Tables", body: '{"TableName":"Refusedtokens"}' }
          : {
              method: "PUT",
              path: service === "queue" ? "refusedtokens" : "refusedtokens?restype=container",
            };
      for (const [what, bearer] of refusedTokens(service)) {
        const list = await at(service, bearer, { path: service === "table" ? "Tables" : "?comp=list" });
        expect([what, list.status, list.code]).toEqual([what, 403, "AuthenticationFailed"]);
        const made = await at(service, bearer, create);
        expect([what, made.status, made.code]).toEqual([what, 403, "AuthenticationFailed"]);
      }
      if (service === "table") {
        const tables = await at(service, entraToken(), { path: "Tables" });
        expect(tables.text).not.toContain("Refusedtokens");
      } else {
        await expectNotListed(service, "refusedtokens");
      }
    },
  );
});

describe("bearer tokens for queues and blobs where OAuth is not on", () => {
  it("over HTTP with --oauth basic, and over HTTPS without it, every service refuses them", async () => {
    const plain = await startServer({ port: 0, oauth: "basic" });
    const noOauth = await startServer({ port: 0, cert: certificate.cert, key: certificate.key });
    try {
      for (const service of ["queue", "blob"] as const) {
        const http = await rawRequest(plain.endpoints[service]!.url, {
          path: "?comp=list",
          auth: { bearer: entraToken() },
        });
        expectRefused(http);
        expect(http.text).toContain("not allowed with HTTP");
        // An unsecured token (alg none, no signature) over HTTP: refused, creates nothing.
        const unsecured = entraToken({}, "", { alg: "none", typ: "JWT" });
        const path = service === "queue" ? "unsecured" : "unsecured?restype=container";
        expectRefused(
          await rawRequest(plain.endpoints[service]!.url, {
            method: "PUT",
            path,
            auth: { bearer: unsecured },
          }),
        );
        const listed = await storageRequest(plain.endpoints[service]!.url, { path: "?comp=list" });
        expect(listed.status).toBe(200);
        expect(listed.text).not.toContain("unsecured");
        const off = await rawRequest(noOauth.endpoints[service]!.url, {
          path: "?comp=list",
          auth: { bearer: entraToken() },
          ca: certificate.pem,
        });
        expectRefused(off);
        expect(off.text).toContain("--oauth basic");
      }
    } finally {
      await plain.stop();
      await noOauth.stop();
    }
  });
});

describe("an OAuth refusal's detail, as the Queue and Blob services write it", () => {
  const expired = () => {
    const now = Math.floor(Date.now() / 1000);
    return entraToken({ iat: now - 7200, nbf: now - 7200, exp: now - 3600 });
  };

  it.each(["queue", "blob"] as const)(
    "%s: a fixed <Message>, the why in <AuthenticationErrorDetail>",
    async (service) => {
      const r = await at(service, expired(), { path: "?comp=list" });
      expectRefused(r);
      const message = /<Message>([\s\S]*)<\/Message>/.exec(r.text)?.[1];
      expect(message).toMatch(
        /^Server failed to authenticate the request\. Make sure the value of Authorization header is formed correctly including the signature\.\nRequestId:\S+\nTime:\S+$/,
      );
      expect(r.text).toContain(
        "<AuthenticationErrorDetail>Lifetime validation failed. The token is expired.</AuthenticationErrorDetail></Error>",
      );
    },
  );

  it("the SDKs read it as the AuthenticationErrorDetail of the error's details", async () => {
    const { QueueServiceClient } = await import("@azure/storage-queue");
    const { BlobServiceClient } = await import("@azure/storage-blob");
    const credential = {
      getToken: async () => ({ token: expired(), expiresOnTimestamp: Date.now() + 60_000 }),
    };
    const tls = { tlsOptions: { ca: certificate.pem } } as never;
    const clients = [
      () =>
        new QueueServiceClient(server.endpoints.queue!.url, credential, tls)
          .getQueueClient("expiredq")
          .create(),
      () =>
        new BlobServiceClient(server.endpoints.blob!.url, credential, tls)
          .getContainerClient("expiredc")
          .create(),
    ];
    // Older SDKs (as Azurite's suite runs) read details.AuthenticationErrorDetail; the message is the
    // service's fixed sentence, without the detail.
    for (const call of clients) {
      const err = (await call().catch((e: unknown) => e)) as {
        statusCode?: number;
        details?: {
          errorCode?: string;
          message?: string;
          authenticationErrorDetail?: string;
          additionalProperties?: Record<string, unknown>;
        };
      };
      expect(err.statusCode).toBe(403);
      expect(err.details?.errorCode).toBe("AuthenticationFailed");
      // The queue SDK keeps the element in additionalProperties, the blob SDK maps it by name.
      const detail =
        err.details?.additionalProperties?.AuthenticationErrorDetail ??
        err.details?.authenticationErrorDetail;
      expect(detail).toBe("Lifetime validation failed. The token is expired.");
      expect(err.details?.message).toMatch(/^Server failed to authenticate the request\./);
      expect(err.details?.message).not.toContain("Lifetime");
    }
  });
});
