/**
 * The Table service's operation list (src/server/tables/table-operations.ts) asks the core for each
 * operation's permission before the request's body is judged, and picks the permission by the
 * request as the service does: PUT and MERGE are Update/Merge Entity (`u`) under If-Match and
 * Insert Or Replace/Merge (`a` and `u`) without it. Tried with tokens that hold one side only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { handMadeTableSas } from "../support/hand-made-sas.js";
import { rawRequest } from "../support/raw-table-client.js";

const account = { name: AZURITE_ACCOUNT, key: AZURITE_KEY };
const TABLE = "Needs";
const ENTITY = `${TABLE}(PartitionKey='p',RowKey='r')`;
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0 });
  endpoint = server.url;
  stop = server.stop;
  const created = await rawRequest(endpoint, {
    method: "POST",
    path: "Tables",
    body: `{"TableName":"${TABLE}"}`,
  });
  expect(created.status).toBe(201);
  expect((await rawRequest(endpoint, { method: "PUT", path: ENTITY, body: '{"n":1}' })).status).toBe(204);
});
afterAll(() => stop?.());

const sas = (sp: string) => ({
  sas: handMadeTableSas(account, { tn: TABLE, sp, se: "2099-01-01T00:00:00Z" }),
});

/** The entity as stored (read with the account key). */
async function stored(): Promise<unknown> {
  const r = await rawRequest(endpoint, { path: ENTITY });
  return r.status === 200 ? (r.json() as { n?: number }).n : r.status;
}

describe("table operations: the core is asked first, for the operation the request is", () => {
  it("a token without the operation's permission is refused before its malformed body is read", async () => {
    const attempts = [
      { method: "POST", path: TABLE, sp: "r" },
      { method: "PUT", path: ENTITY, sp: "r" },
      { method: "MERGE", path: ENTITY, sp: "r", headers: { "if-match": "*" } },
      // Insert Or Replace needs `a` and `u`: `u` alone is not enough.
      { method: "PUT", path: ENTITY, sp: "u" },
      { method: "MERGE", path: ENTITY, sp: "u" },
      // Update Entity needs `u`: `a` alone is not enough.
      { method: "PUT", path: ENTITY, sp: "a", headers: { "if-match": "*" } },
    ];
    for (const a of attempts) {
      const r = await rawRequest(endpoint, {
        method: a.method,
        path: a.path,
        body: "{not json",
        auth: sas(a.sp),
        ...(a.headers ? { headers: a.headers } : {}),
      });
      expect([a.method, a.sp, r.status, r.code]).toEqual([
        a.method,
        a.sp,
        403,
        "AuthorizationPermissionMismatch",
      ]);
    }
    expect(await stored()).toBe(1);
  });

  it("with the permission, the same malformed body is the body's 400 (the token was not the refusal)", async () => {
    const allowed = [
      { method: "POST", path: TABLE, sp: "a" },
      { method: "PUT", path: ENTITY, sp: "u", headers: { "if-match": "*" } },
      { method: "MERGE", path: ENTITY, sp: "u", headers: { "if-match": "*" } },
      { method: "PUT", path: ENTITY, sp: "au" },
    ];
    for (const a of allowed) {
      const r = await rawRequest(endpoint, {
        method: a.method,
        path: a.path,
        body: "{not json",
        auth: sas(a.sp),
        ...(a.headers ? { headers: a.headers } : {}),
      });
      expect([a.method, a.sp, r.status]).toEqual([a.method, a.sp, 400]);
    }
    expect(await stored()).toBe(1);
  });

  it("an update under `u` alone writes; an upsert under `u` alone writes nothing", async () => {
    const update = await rawRequest(endpoint, {
      method: "PUT",
      path: ENTITY,
      body: '{"n":2}',
      auth: sas("u"),
      headers: { "if-match": "*" },
    });
    expect(update.status).toBe(204);
    const upsert = await rawRequest(endpoint, {
      method: "PUT",
      path: ENTITY,
      body: '{"n":3}',
      auth: sas("u"),
    });
    expect([upsert.status, upsert.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    expect(await stored()).toBe(2);
  });

  it("a verb no operation takes is 405, and an unknown comp InvalidUri, as before", async () => {
    const patchTables = await rawRequest(endpoint, { method: "PATCH", path: "Tables" });
    expect([patchTables.status, patchTables.code]).toEqual([405, "UnsupportedHttpVerb"]);
    const headEntity = await rawRequest(endpoint, { method: "HEAD", path: ENTITY });
    expect(headEntity.status).toBe(405);
    const comp = await rawRequest(endpoint, { path: `${TABLE}?comp=nothing` });
    expect([comp.status, comp.code]).toEqual([400, "InvalidUri"]);
  });
});
