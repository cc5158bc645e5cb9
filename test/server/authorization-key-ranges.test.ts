/**
 * The authorization matrix, half-bounded key ranges: a table token whose row bound has no
 * partition bound (`srk` without `spk`, `erk` without `epk`) is refused for every operation,
 * rather than read with its row bound dropped. Tokens are signed by hand (the library's generator
 * refuses to make them) and tried both ways, together, and with the other bounds present.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { handMadeTableSas } from "../support/hand-made-sas.js";
import { nextPageQuery, rawRequest } from "../support/raw-table-client.js";

const account = { name: AZURITE_ACCOUNT, key: AZURITE_KEY };
const TABLE = "Halves";
let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = await startServer({ port: 0 });
  endpoint = server.url;
  stop = server.stop;
  expect(
    (await rawRequest(endpoint, { method: "POST", path: "Tables", body: `{"TableName":"${TABLE}"}` })).status,
  ).toBe(201);
  for (const [pk, rk] of [
    ["a", "1"],
    ["a", "9"],
    ["b", "1"],
    ["b", "9"],
  ]) {
    const r = await rawRequest(endpoint, {
      method: "PUT",
      path: `${TABLE}(PartitionKey='${pk}',RowKey='${rk}')`,
      body: "{}",
    });
    expect(r.status).toBe(204);
  }
});
afterAll(() => stop?.());

const token = (bounds: Record<string, string>) =>
  handMadeTableSas(account, { tn: TABLE, sp: "raud", se: "2099-01-01T00:00:00Z", ...bounds });

/** Every page of a query of the table (with a token, or the account key). */
async function keys(sas?: string): Promise<string[]> {
  const found: string[] = [];
  let next = "";
  do {
    const r = await rawRequest(endpoint, { path: `${TABLE}()${next}`, ...(sas ? { auth: { sas } } : {}) });
    expect(r.status).toBe(200);
    for (const e of (r.json() as { value: { PartitionKey: string; RowKey: string }[] }).value) {
      found.push(`${e.PartitionKey}${e.RowKey}`);
    }
    const query = nextPageQuery(r);
    next = query === undefined ? "" : `?${query}`;
  } while (next !== "");
  return found;
}

/** Every operation with the token; each must be refused, and nothing may change. */
async function everyOperationRefused(sas: string): Promise<void> {
  const before = await keys();
  const auth = { sas };
  const entity = (pk: string, rk: string) => `${TABLE}(PartitionKey='${pk}',RowKey='${rk}')`;
  const attempts = [
    rawRequest(endpoint, { path: `${TABLE}()`, auth }),
    rawRequest(endpoint, { path: `${TABLE}()?$filter=${encodeURIComponent("PartitionKey eq 'a'")}`, auth }),
    rawRequest(endpoint, { path: entity("a", "1"), auth }),
    rawRequest(endpoint, { path: entity("b", "9"), auth }),
    rawRequest(endpoint, { method: "POST", path: TABLE, body: '{"PartitionKey":"a","RowKey":"0"}', auth }),
    rawRequest(endpoint, { method: "POST", path: TABLE, body: '{"PartitionKey":"c","RowKey":"99"}', auth }),
    rawRequest(endpoint, { method: "PUT", path: entity("a", "1"), body: '{"x":1}', auth }),
    rawRequest(endpoint, {
      method: "MERGE",
      path: entity("b", "9"),
      body: '{"x":1}',
      auth,
      headers: { "if-match": "*" },
    }),
    rawRequest(endpoint, { method: "DELETE", path: entity("b", "1"), auth, headers: { "if-match": "*" } }),
  ];
  for (const r of await Promise.all(attempts)) {
    expect([r.status, r.code]).toEqual([403, "AuthenticationFailed"]);
  }
  expect(await keys()).toEqual(before);
}

describe("tablekit serve: a row bound without its partition bound", () => {
  it("srk without spk is refused for every operation", async () => {
    await everyOperationRefused(token({ srk: "5" }));
    await everyOperationRefused(token({ srk: "5", epk: "b", erk: "5" }));
    await everyOperationRefused(token({ srk: "5", epk: "b" }));
  });

  it("erk without epk is refused for every operation", async () => {
    await everyOperationRefused(token({ erk: "5" }));
    await everyOperationRefused(token({ spk: "a", srk: "5", erk: "5" }));
    await everyOperationRefused(token({ spk: "a", erk: "5" }));
  });

  it("both row bounds without partition bounds are refused", async () => {
    await everyOperationRefused(token({ srk: "1", erk: "5" }));
  });

  it("an empty partition bound is no bound: it does not make a row bound valid", async () => {
    await everyOperationRefused(token({ spk: "", srk: "5" }));
    await everyOperationRefused(token({ epk: "", erk: "5" }));
  });

  it("an empty bound signs as none, so removing or adding one changes nothing the token allows", async () => {
    for (const sas of [token({ epk: "" }), token({ epk: "" }).replace("epk=&", "")]) {
      expect(await keys(sas)).toEqual(["a1", "a9", "b1", "b9"]);
    }
  });

  it("a row bound with its partition bound and the other end open keeps its row bound, for reads and writes", async () => {
    const entity = (pk: string, rk: string) => `${TABLE}(PartitionKey='${pk}',RowKey='${rk}')`;
    for (const [bounds, visible, outside] of [
      [{ spk: "a", srk: "5", epk: "b" }, ["a9", "b1", "b9"], ["a", "1"]],
      [{ spk: "b", srk: "5" }, ["b9"], ["b", "1"]],
      [{ epk: "b", erk: "5" }, ["a1", "a9", "b1"], ["b", "9"]],
      [{ spk: "a", epk: "b", erk: "5" }, ["a1", "a9", "b1"], ["b", "9"]],
    ] as const) {
      const sas = token(bounds);
      expect(await keys(sas), JSON.stringify(bounds)).toEqual(visible);
      const [pk, rk] = outside;
      const auth = { sas };
      for (const r of [
        await rawRequest(endpoint, { path: entity(pk, rk), auth }),
        await rawRequest(endpoint, { method: "PUT", path: entity(pk, rk), body: '{"x":1}', auth }),
        await rawRequest(endpoint, {
          method: "DELETE",
          path: entity(pk, rk),
          auth,
          headers: { "if-match": "*" },
        }),
      ]) {
        expect([JSON.stringify(bounds), r.status, r.code]).toEqual([
          JSON.stringify(bounds),
          403,
          "AuthorizationFailure",
        ]);
      }
    }
    expect(await keys()).toEqual(["a1", "a9", "b1", "b9"]);
  });

  it("a complete range still works, and its bounds cannot be removed or moved", async () => {
    const sas = token({ spk: "a", srk: "5", epk: "b", erk: "5" });
    expect(await keys(sas)).toEqual(["a9", "b1"]);
    for (const tampered of [
      sas.replace("spk=a&", ""),
      sas.replace("&erk=5", ""),
      sas.replace("spk=a&srk=5&", ""),
      sas.replace("srk=5", "srk=0"),
      sas.replace("spk=a&srk=5", "srk=a&spk=5"),
    ]) {
      const t = await rawRequest(endpoint, { path: `${TABLE}()`, auth: { sas: tampered } });
      expect([tampered, t.status, t.code]).toEqual([tampered, 403, "AuthenticationFailed"]);
    }
  });
});
