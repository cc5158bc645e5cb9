/**
 * The authorization matrix, accounts: with several accounts (AZURITE_ACCOUNTS), each has its own
 * tables, entities, ACLs and service properties, as in the service. One account's key, or a token
 * it signed, reaches nothing of another's: not by its own URL (where the other's tables do not
 * exist), nor by the other's URL (where its key does not verify), for every operation.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueueServiceClient, StorageSharedKeyCredential } from "@azure/storage-queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateAccountSas, generateTableSas } from "../../src/index.js";
import { parseAccounts, startServer } from "../../src/server/index.js";
import { expectCode } from "../support/expect-code.js";
import { type RawRequest, type RawResponse, rawRequest } from "../support/raw-table-client.js";

const A = { name: "accounta", key: randomBytes(64).toString("base64") };
const B = { name: "accountb", key: randomBytes(64).toString("base64") };
const TABLE = "Ledger";
let endpoint: string;
let stop: () => Promise<void>;

/** A request as `who`, signed with `who`'s key, to `where`'s URL (by default its own). */
function as(
  who: { name: string; key: string },
  request: RawRequest,
  where: { name: string } = who,
): Promise<RawResponse> {
  return rawRequest(endpoint, { ...request, account: where.name, key: who.key });
}

function batchBody(account: string, table: string, rowKeys: string[]): { body: string; type: string } {
  const parts = rowKeys.map((rk) =>
    [
      "--changeset_1",
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      `POST http://127.0.0.1/${account}/${table} HTTP/1.1`,
      "Content-Type: application/json",
      "Prefer: return-no-content",
      "",
      JSON.stringify({ PartitionKey: "p", RowKey: rk }),
    ].join("\r\n"),
  );
  const body = [
    "--batch_1",
    "Content-Type: multipart/mixed; boundary=changeset_1",
    "",
    ...parts,
    "--changeset_1--",
    "--batch_1--",
    "",
  ].join("\r\n");
  return { body, type: "multipart/mixed; boundary=batch_1" };
}

const entity = (rk: string) => `${TABLE}(PartitionKey='p',RowKey='${rk}')`;
const names = (r: RawResponse) =>
  (r.json() as { value: { TableName: string }[] }).value.map((t) => t.TableName);
const rows = (r: RawResponse) => (r.json() as { value: { RowKey: string }[] }).value.map((e) => e.RowKey);

beforeAll(async () => {
  const server = await startServer({
    port: 0,
    accounts: [
      { name: A.name, keys: [A.key] },
      { name: B.name, keys: [B.key] },
    ],
  });
  endpoint = `http://127.0.0.1:${server.port}`;
  stop = server.stop;
  expect((await as(A, { method: "POST", path: "Tables", body: `{"TableName":"${TABLE}"}` })).status).toBe(
    201,
  );
  expect((await as(A, { method: "POST", path: "Tables", body: '{"TableName":"OnlyInA"}' })).status).toBe(201);
  for (const rk of ["1", "2", "3"]) {
    expect((await as(A, { method: "PUT", path: entity(rk), body: '{"owner":"a"}' })).status).toBe(204);
  }
  const acl =
    '<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>policya</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>';
  expect(
    (
      await as(A, {
        method: "PUT",
        path: `${TABLE}?comp=acl`,
        body: acl,
        headers: { "content-type": "application/xml" },
      })
    ).status,
  ).toBe(204);
});
afterAll(() => stop?.());

/** Account A's data, read with A's key: unchanged by anything B did. */
async function aIsIntact(): Promise<void> {
  expect(names(await as(A, { path: "Tables" }))).toEqual([TABLE, "OnlyInA"].sort());
  expect(rows(await as(A, { path: `${TABLE}()` }))).toEqual(["1", "2", "3"]);
  const acl = await as(A, { path: `${TABLE}?comp=acl` });
  expect(acl.text).toContain("<Id>policya</Id>");
}

describe("tablekit serve: each account has its own tables", () => {
  it("with its own key at its own URL, B sees none of A's tables, entities or ACLs, and changes nothing of them", async () => {
    const expectations: [string, RawRequest, number, string | undefined][] = [
      ["get table", { path: `Tables('${TABLE}')` }, 404, "TableNotFound"],
      ["query", { path: `${TABLE}()` }, 404, "TableNotFound"],
      ["point read", { path: entity("1") }, 404, "TableNotFound"],
      [
        "insert",
        { method: "POST", path: TABLE, body: '{"PartitionKey":"p","RowKey":"9"}' },
        404,
        "TableNotFound",
      ],
      [
        "update",
        { method: "PUT", path: entity("1"), body: '{"owner":"b"}', headers: { "if-match": "*" } },
        404,
        "TableNotFound",
      ],
      [
        "merge",
        { method: "MERGE", path: entity("1"), body: '{"owner":"b"}', headers: { "if-match": "*" } },
        404,
        "TableNotFound",
      ],
      ["upsert", { method: "PUT", path: entity("1"), body: '{"owner":"b"}' }, 404, "TableNotFound"],
      ["delete", { method: "DELETE", path: entity("1"), headers: { "if-match": "*" } }, 404, "TableNotFound"],
      ["get acl", { path: `${TABLE}?comp=acl` }, 404, "TableNotFound"],
      [
        "set acl",
        {
          method: "PUT",
          path: `${TABLE}?comp=acl`,
          body: "<SignedIdentifiers/>",
          headers: { "content-type": "application/xml" },
        },
        404,
        "TableNotFound",
      ],
      ["delete table", { method: "DELETE", path: `Tables('${TABLE}')` }, 404, "TableNotFound"],
    ];
    for (const [what, request, status, code] of expectations) {
      const r = await as(B, request);
      expect([what, r.status, r.code]).toEqual([what, status, code]);
    }
    const batch = batchBody(B.name, TABLE, ["8", "9"]);
    const r = await as(B, {
      method: "POST",
      path: "$batch",
      body: batch.body,
      headers: { "content-type": batch.type },
    });
    expect(r.status).toBe(202);
    expect(r.text).toContain("TableNotFound");
    expect(names(await as(B, { path: "Tables" }))).toEqual([]);
    await aIsIntact();
  });

  it("B may create a table of the same name: two tables, each with its own entities", async () => {
    expect((await as(B, { method: "POST", path: "Tables", body: `{"TableName":"${TABLE}"}` })).status).toBe(
      201,
    );
    expect((await as(B, { method: "PUT", path: entity("b1"), body: '{"owner":"b"}' })).status).toBe(204);
    const batch = batchBody(B.name, TABLE, ["b2", "b3"]);
    expect(
      (
        await as(B, {
          method: "POST",
          path: "$batch",
          body: batch.body,
          headers: { "content-type": batch.type },
        })
      ).text,
    ).not.toContain("odata.error");
    expect(rows(await as(B, { path: `${TABLE}()` }))).toEqual(["b1", "b2", "b3"]);
    expect(names(await as(B, { path: "Tables" }))).toEqual([TABLE]);
    expect((await as(B, { path: `${TABLE}?comp=acl` })).text).not.toContain("policya");
    await aIsIntact();
    expect((await as(B, { method: "DELETE", path: `Tables('${TABLE}')` })).status).toBe(204);
    await aIsIntact();
  });

  it("a batch at B's URL whose operations name A's account is refused and writes nowhere", async () => {
    expect((await as(B, { method: "POST", path: "Tables", body: '{"TableName":"OnlyInA"}' })).status).toBe(
      201,
    );
    const batch = batchBody(A.name, "OnlyInA", ["x"]);
    const r = await as(B, {
      method: "POST",
      path: "$batch",
      body: batch.body,
      headers: { "content-type": batch.type },
    });
    expect(r.text).toContain("InvalidInput");
    for (const who of [A, B]) expect(rows(await as(who, { path: "OnlyInA()" }))).toEqual([]);
    expect((await as(B, { method: "DELETE", path: "Tables('OnlyInA')" })).status).toBe(204);
  });

  it("service properties are the account's own", async () => {
    const props = (logging: boolean) =>
      `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Logging><Version>1.0</Version><Delete>${logging}</Delete><Read>${logging}</Read><Write>${logging}</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging><Cors><CorsRule><AllowedOrigins>https://b.example</AllowedOrigins><AllowedMethods>GET</AllowedMethods><MaxAgeInSeconds>5</MaxAgeInSeconds><ExposedHeaders></ExposedHeaders><AllowedHeaders></AllowedHeaders></CorsRule></Cors></StorageServiceProperties>`;
    const path = "?restype=service&comp=properties";
    expect(
      (
        await as(B, {
          method: "PUT",
          path,
          body: props(true),
          headers: { "content-type": "application/xml" },
        })
      ).status,
    ).toBe(202);
    const a = await as(A, { path });
    expect(a.text).not.toContain("<Delete>true</Delete>");
    expect(a.text).not.toContain("b.example");
    expect((await as(B, { path })).text).toContain("b.example");
  });

  it("B's key against A's URL, and A's against B's, is refused for every operation", async () => {
    const requests: RawRequest[] = [
      { path: "Tables" },
      { path: `Tables('${TABLE}')` },
      { path: `${TABLE}()` },
      { path: entity("1") },
      { method: "POST", path: TABLE, body: '{"PartitionKey":"p","RowKey":"x"}' },
      { method: "PUT", path: entity("1"), body: '{"owner":"b"}' },
      { method: "MERGE", path: entity("1"), body: '{"owner":"b"}', headers: { "if-match": "*" } },
      { method: "DELETE", path: entity("1"), headers: { "if-match": "*" } },
      { method: "DELETE", path: `Tables('${TABLE}')` },
      { path: `${TABLE}?comp=acl` },
      { method: "PUT", path: `${TABLE}?comp=acl`, body: "<SignedIdentifiers/>" },
      { path: "?restype=service&comp=properties" },
      { method: "PUT", path: "?restype=service&comp=properties", body: "<StorageServiceProperties/>" },
      { method: "POST", path: "Tables", body: '{"TableName":"Intruder"}' },
      { method: "POST", path: "$batch", body: "", headers: { "content-type": "" } },
      { path: "?restype=service&comp=stats" },
    ];
    for (const [who, where] of [
      [B, A],
      [A, B],
    ] as const) {
      const batch = batchBody(where.name, TABLE, ["x"]);
      // The header names the URL's account or the key's own; the path names the account in any case.
      const upper = where.name.toUpperCase();
      const mixed = `${where.name[0]!.toUpperCase()}${where.name.slice(1)}`;
      const impostors = [
        { account: where.name, signingAccount: where.name },
        { account: where.name, signingAccount: who.name },
        { account: upper, signingAccount: upper },
        { account: mixed, signingAccount: where.name },
        { account: mixed, signingAccount: who.name },
        { account: `${where.name}-secondary`, signingAccount: where.name },
      ];
      for (const auth of ["lite", "key"] as const) {
        for (const plain of requests) {
          const request =
            plain.path === "$batch"
              ? { ...plain, body: batch.body, headers: { "content-type": batch.type } }
              : plain;
          const read = request.method === undefined;
          // The secondary serves reads only (a write there is refused before any key is looked at).
          for (const impostor of impostors.filter((i) => read || !i.account.endsWith("-secondary"))) {
            const r = await rawRequest(endpoint, { ...request, ...impostor, key: who.key, auth });
            expect([who.name, impostor, request.method ?? "GET", request.path, r.status, r.code]).toEqual([
              who.name,
              impostor,
              request.method ?? "GET",
              request.path,
              403,
              "AuthenticationFailed",
            ]);
          }
        }
      }
    }
    await aIsIntact();
    // A's own key does what the others could not: the refusals were for the key, not the request.
    const stats = await rawRequest(endpoint, {
      path: "?restype=service&comp=stats",
      account: `${A.name}-secondary`,
      signingAccount: A.name,
      key: A.key,
    });
    expect(stats.status).toBe(200);
  });

  it("a token one account signed is refused at the other's URL, table and account tokens alike", async () => {
    const expiresOn = new Date(Date.now() + 3_600_000);
    const all = { query: true, add: true, update: true, delete: true };
    for (const [signer, target] of [
      [B, A],
      [A, B],
    ] as const) {
      const table = generateTableSas({ account: signer, tableName: TABLE, permissions: all, expiresOn });
      const account = generateAccountSas({
        account: signer,
        permissions: {
          read: true,
          write: true,
          delete: true,
          list: true,
          add: true,
          create: true,
          update: true,
        },
        resourceTypes: { service: true, container: true, object: true },
        expiresOn,
      });
      for (const sas of [table, account]) {
        for (const request of [
          { path: `${TABLE}()` },
          { path: entity("1") },
          { method: "DELETE", path: entity("1"), headers: { "if-match": "*" } },
          { method: "POST", path: TABLE, body: '{"PartitionKey":"p","RowKey":"t"}' },
        ]) {
          const r = await rawRequest(endpoint, { ...request, account: target.name, auth: { sas } });
          expect([r.status, r.code]).toEqual([403, "AuthenticationFailed"]);
        }
      }
      const list = await rawRequest(endpoint, {
        path: "Tables",
        account: target.name,
        auth: { sas: account },
      });
      expect([list.status, list.code]).toEqual([403, "AuthenticationFailed"]);
    }
    await aIsIntact();
  });
});

describe("tablekit serve: accounts kept apart on disk", () => {
  it("with --location each account has its own database, kept across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tablekit-accounts-"));
    try {
      const dev = parseAccounts(undefined)[0]!;
      const accounts = [dev, { name: B.name, keys: [B.key] }];
      const devKey = { name: dev.name, key: dev.keys[0]! };
      let server = await startServer({ port: 0, location: dir, accounts });
      endpoint = `http://127.0.0.1:${server.port}`;
      expect((await as(B, { method: "POST", path: "Tables", body: '{"TableName":"Kept"}' })).status).toBe(
        201,
      );
      expect(
        (await as(B, { method: "PUT", path: "Kept(PartitionKey='p',RowKey='1')", body: "{}" })).status,
      ).toBe(204);
      await server.stop();
      expect(existsSync(join(dir, "tablekit-tables.db"))).toBe(true);
      expect(existsSync(join(dir, `tablekit-tables-${B.name}.db`))).toBe(true);
      server = await startServer({ port: 0, location: dir, accounts: [...accounts].reverse() });
      endpoint = `http://127.0.0.1:${server.port}`;
      expect(rows(await as(B, { path: "Kept()" }))).toEqual(["1"]);
      expect(names(await as(devKey, { path: "Tables" }))).toEqual([]);
      await server.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a key that is not base64 is accepted, signed with the bytes it decodes to as the SDKs sign (warned once)", async () => {
    const warnings: string[] = [];
    const dev = parseAccounts(undefined)[0]!;
    const accounts = parseAccounts(`${dev.name}:${dev.keys[0]}:testing_key`, (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not base64/);
    const server = await startServer({ port: 0, accounts, services: ["queue"] });
    try {
      const url = server.endpoints.queue!.url;
      const withOddKey = new QueueServiceClient(url, new StorageSharedKeyCredential(dev.name, "testing_key"));
      await withOddKey.createQueue("oddkey");
      expect((await withOddKey.getQueueClient("oddkey").getProperties()).approximateMessagesCount).toBe(0);
      // Another key that is not base64 is still another key: refused.
      const wrong = new QueueServiceClient(url, new StorageSharedKeyCredential(dev.name, "other_key"));
      await expect(wrong.getQueueClient("oddkey").getProperties()).rejects.toMatchObject({ statusCode: 403 });
    } finally {
      await server.stop();
    }
    expect(() => parseAccounts(`${dev.name}:`)).toThrow(expect.objectContaining({ code: "InvalidInput" }));
  });

  it("account names are the service's, each once; one storeUrl cannot serve several accounts", async () => {
    for (const text of ["Upper:AAAA", "ab:AAAA", "same:AAAA;same:BBBB", "a-b-c:AAAA"]) {
      expect(() => parseAccounts(text), text).toThrow(expect.objectContaining({ code: "InvalidInput" }));
    }
    const two = [
      { name: "accounta", keys: [A.key] },
      { name: "accountb", keys: [B.key] },
    ];
    await expectCode(startServer({ port: 0, accounts: two, storeUrl: "memory:" }), "InvalidInput");
    const server = await startServer({ port: 0, accounts: two, storeUrl: () => "memory:" });
    expect([...server.stores.keys()]).toEqual(["accounta", "accountb"]);
    expect(server.stores.get("accounta")).not.toBe(server.stores.get("accountb"));
    await server.stop();
  });
});
