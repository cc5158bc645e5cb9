/**
 * The authorization matrix of tablekit serve: every table permission set × every entity operation
 * × key ranges × keys inside and outside them, plus start/expiry, tampered signatures, wrong
 * accounts and keys, and clock skew for shared keys. Each outcome is compared with an oracle
 * written from the service's documented rules: nothing allowed that the service refuses, nothing
 * refused that it allows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateAccountSas, generateTableSas, type TablePermissions } from "../../src/index.js";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { rawRequest } from "../support/raw-table-client.js";

const account = { name: AZURITE_ACCOUNT, key: AZURITE_KEY };
const TABLE = "Matrix";
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0 });
  endpoint = server.url;
  stop = server.stop;
  const created = await rawRequest(endpoint, {
    method: "POST",
    path: "Tables",
    body: JSON.stringify({ TableName: TABLE }),
  });
  expect(created.status).toBe(201);
});
afterAll(() => stop?.());

type Op = "query" | "get" | "insert" | "upsert" | "update" | "delete";
const OPS: readonly Op[] = ["query", "get", "insert", "upsert", "update", "delete"];
/** The permissions each operation needs, all of them (the service's SAS documentation). */
const NEEDS: Record<Op, (keyof TablePermissions)[]> = {
  query: ["query"],
  get: ["query"],
  insert: ["add"],
  upsert: ["add", "update"],
  update: ["update"],
  delete: ["delete"],
};
const LETTERS = ["query", "add", "update", "delete"] as const;
const PERMISSION_SETS: TablePermissions[] = Array.from({ length: 16 }, (_, mask) =>
  Object.fromEntries(LETTERS.map((name, bit) => [name, (mask & (1 << bit)) !== 0])),
);

interface Range {
  readonly startPartitionKey?: string;
  readonly startRowKey?: string;
  readonly endPartitionKey?: string;
  readonly endRowKey?: string;
}
const RANGES: readonly Range[] = [
  {},
  { startPartitionKey: "b", endPartitionKey: "b" },
  { startPartitionKey: "a", startRowKey: "5", endPartitionKey: "c", endRowKey: "2" },
];
/** A key on each side of each range's edges (the row key gets a unique suffix that keeps its side). */
const KEYS: readonly [string, string][] = [
  ["a", "4"],
  ["a", "6"],
  ["b", "0"],
  ["c", "1"],
  ["c", "3"],
  ["d", "0"],
];

/** The oracle's range test: (pk, rk) pairs compared in order, inclusive, an absent row bound open. */
function inRange(range: Range, pk: string, rk: string): boolean {
  const { startPartitionKey: spk, startRowKey: srk, endPartitionKey: epk, endRowKey: erk } = range;
  if (spk !== undefined && (pk < spk || (pk === spk && srk !== undefined && rk < srk))) return false;
  if (epk !== undefined && (pk > epk || (pk === epk && erk !== undefined && rk > erk))) return false;
  return true;
}

let serial = 0;
const entityPath = (pk: string, rk: string) => `${TABLE}(PartitionKey='${pk}',RowKey='${rk}')`;

async function seed(pk: string, rk: string): Promise<void> {
  const r = await rawRequest(endpoint, {
    method: "PUT",
    path: entityPath(pk, rk),
    body: JSON.stringify({ v: 1 }),
  });
  expect(r.status).toBe(204);
}

/** Runs one operation with `auth` on a fresh entity at (pk, rk-prefix…); returns status and code. */
async function attempt(
  op: Op,
  pk: string,
  rkBase: string,
  sas: string,
): Promise<{ status: number; code?: string; keys?: string[] }> {
  const rk = `${rkBase}-${++serial}`;
  const auth = { sas };
  if (op !== "insert" && op !== "query") await seed(pk, rk);
  const body = JSON.stringify({ PartitionKey: pk, RowKey: rk, w: 2 });
  const r = await (async () => {
    switch (op) {
      case "query":
        return rawRequest(endpoint, { path: `${TABLE}()`, auth });
      case "get":
        return rawRequest(endpoint, { path: entityPath(pk, rk), auth });
      case "insert":
        return rawRequest(endpoint, {
          method: "POST",
          path: TABLE,
          body,
          auth,
          headers: { prefer: "return-no-content" },
        });
      case "upsert":
        return rawRequest(endpoint, { method: "MERGE", path: entityPath(pk, rk), body, auth });
      case "update":
        return rawRequest(endpoint, {
          method: "PUT",
          path: entityPath(pk, rk),
          body,
          auth,
          headers: { "if-match": "*" },
        });
      case "delete":
        return rawRequest(endpoint, {
          method: "DELETE",
          path: entityPath(pk, rk),
          auth,
          headers: { "if-match": "*" },
        });
    }
  })();
  const keys =
    op === "query" && r.status === 200
      ? (r.json() as { value: { PartitionKey: string; RowKey: string }[] }).value.map(
          (e) => `${e.PartitionKey}/${e.RowKey}`,
        )
      : undefined;
  return { status: r.status, ...(r.code ? { code: r.code } : {}), ...(keys ? { keys } : {}) };
}

const SUCCESS: Record<Op, number> = {
  query: 200,
  get: 200,
  insert: 204,
  upsert: 204,
  update: 204,
  delete: 204,
};

describe("tablekit serve: the authorization matrix", () => {
  it("permissions × operations × key ranges × keys: every outcome is the service's", {
    timeout: 120_000,
  }, async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const permissions of PERMISSION_SETS) {
      for (const range of RANGES) {
        const sas = generateTableSas({
          account,
          tableName: TABLE,
          permissions,
          expiresOn: new Date(Date.now() + 3_600_000),
          ...range,
        });
        const cases = OPS.flatMap((op) =>
          (op === "query" ? [["b", "q"] as [string, string]] : KEYS).map((key) => ({ op, key })),
        );
        // One token's cases run concurrently: each works on its own fresh entity.
        await Promise.all(
          cases.map(async ({ op, key: [pk, rk] }) => {
            const allowed = NEEDS[op].every((p) => permissions[p]);
            // `sp` is required: a token granting nothing (`sp=`) does not authenticate.
            const empty = !LETTERS.some((p) => permissions[p]);
            const expected = empty
              ? { status: 403, code: "AuthenticationFailed" }
              : !allowed
                ? { status: 403, code: "AuthorizationPermissionMismatch" }
                : op !== "query" && !inRange(range, pk, `${rk}-`)
                  ? { status: 403, code: "AuthorizationFailure" }
                  : { status: SUCCESS[op] };
            const actual = await attempt(op, pk, rk, sas);
            checked++;
            if (actual.status !== expected.status || actual.code !== expected.code) {
              mismatches.push(
                `${JSON.stringify(permissions)} ${JSON.stringify(range)} ${op} ${pk}/${rk}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`,
              );
            }
            if (actual.keys) {
              const outside = actual.keys.filter((k) => {
                const [p, r] = k.split("/") as [string, string];
                return !inRange(range, p, r);
              });
              if (outside.length > 0)
                mismatches.push(`query under ${JSON.stringify(range)} returned ${outside.join(", ")}`);
            }
          }),
        );
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBe(16 * 3 * (5 * KEYS.length + 1));
  });

  it("start and expiry: not yet valid and expired tokens are AuthenticationFailed; valid ones work", async () => {
    const all = { query: true, add: true, update: true, delete: true };
    const now = Date.now();
    const cases = [
      { startsOn: new Date(now + 60_000), expiresOn: new Date(now + 3_600_000), status: 403 },
      { expiresOn: new Date(now - 60_000), status: 403 },
      { startsOn: new Date(now - 60_000), expiresOn: new Date(now + 60_000), status: 200 },
    ];
    for (const { status, ...times } of cases) {
      const sas = generateTableSas({ account, tableName: TABLE, permissions: all, ...times });
      const r = await attempt("get", "b", "t", sas);
      expect(r.status).toBe(status);
      if (status === 403) expect(r.code).toBe("AuthenticationFailed");
    }
  });

  it("tampered tokens, other keys, other accounts and other tables are refused", async () => {
    const base = {
      tableName: TABLE,
      permissions: { query: true },
      expiresOn: new Date(Date.now() + 3_600_000),
    };
    const good = generateTableSas({ account, ...base });
    expect((await attempt("get", "b", "s", good)).status).toBe(200);
    const tampered = [
      good.replace("sp=r", "sp=raud"),
      good.replace(/se=[^&]+/, `se=${encodeURIComponent("2099-01-01T00:00:00Z")}`),
      `${good}&spk=a`,
      good.replace(/sig=[^&]+/, "sig=AAAA"),
      good.replace(/&sig=[^&]+/, ""),
      generateTableSas({
        account: { name: account.name, key: Buffer.alloc(64, 1).toString("base64") },
        ...base,
      }),
      generateTableSas({ account: { name: "otheraccount", key: account.key }, ...base }),
    ];
    for (const sas of tampered) {
      expect(await attempt("get", "b", "s", sas), sas).toMatchObject({
        status: 403,
        code: "AuthenticationFailed",
      });
    }
    const otherTable = generateTableSas({ account, ...base, tableName: "Elsewhere" });
    expect(await attempt("get", "b", "s", otherTable)).toMatchObject({
      status: 403,
      code: "AuthorizationFailure",
    });
    const anonymous = await rawRequest(endpoint, { path: entityPath("b", "x"), auth: "none" });
    expect([anonymous.status, anonymous.code]).toEqual([403, "AuthenticationFailed"]);
    const wrongKey = await rawRequest(endpoint, {
      path: `${TABLE}()`,
      key: Buffer.alloc(64, 2).toString("base64"),
    });
    expect([wrongKey.status, wrongKey.code]).toEqual([403, "AuthenticationFailed"]);
    const wrongAccount = await rawRequest(endpoint, { path: `${TABLE}()`, account: "nosuchaccount" });
    expect([wrongAccount.status, wrongAccount.code]).toEqual([403, "AuthenticationFailed"]);
  });

  it("account tokens: services, resource types and permissions", async () => {
    const expiresOn = new Date(Date.now() + 3_600_000);
    const entities = generateAccountSas({
      account,
      permissions: { read: true },
      resourceTypes: { object: true },
      expiresOn,
    });
    expect((await attempt("get", "b", "acc", entities)).status).toBe(200);
    expect(await attempt("insert", "b", "acc", entities)).toMatchObject({
      status: 403,
      code: "AuthorizationPermissionMismatch",
    });
    const list = await rawRequest(endpoint, { path: "Tables", auth: { sas: entities } });
    expect([list.status, list.code]).toEqual([403, "AuthorizationResourceTypeMismatch"]);
    const tables = generateAccountSas({
      account,
      permissions: { list: true },
      resourceTypes: { container: true },
      expiresOn,
    });
    expect((await rawRequest(endpoint, { path: "Tables", auth: { sas: tables } })).status).toBe(200);
    const blobs = generateAccountSas({
      account,
      permissions: { read: true },
      resourceTypes: { object: true },
      services: "b",
      expiresOn,
    });
    expect(await attempt("get", "b", "acc", blobs)).toMatchObject({
      status: 403,
      code: "AuthorizationServiceMismatch",
    });
  });

  it("shared keys: either scheme, x-ms-date within 15 minutes of the server's clock", async () => {
    const minutes = (m: number) => new Date(Date.now() + m * 60_000);
    for (const auth of ["lite", "key"] as const) {
      for (const [offset, status] of [
        [0, 200],
        [-14, 200],
        [14, 200],
        [-16, 403],
        [16, 403],
      ] as const) {
        const r = await rawRequest(endpoint, { path: `${TABLE}()?$top=1`, auth, date: minutes(offset) });
        expect([auth, offset, r.status]).toEqual([auth, offset, status]);
        if (status === 403) expect(r.code).toBe("AuthenticationFailed");
      }
    }
  });
});
