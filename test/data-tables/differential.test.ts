/**
 * tablekit/data-tables beside the SDK: the same calls through `@azure/data-tables` against Azurite
 * and through tablekit/data-tables on `memory:` give the same values, responses and errors.
 */
import * as sdk from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ours from "../../src/data-tables/index.js";
import { type Azurite, startAzurite } from "../support/azurite.js";

type Module = typeof ours;
let azurite: Azurite;
let tableCount = 0;

beforeAll(async () => {
  azurite = await startAzurite();
}, 120_000);

afterAll(async () => {
  await ours.closeDataTablesStores();
  await azurite?.stop();
});

/** Volatile by nature: ids, ETags, times, the endpoint. */
function normalize(value: unknown, key = ""): unknown {
  if (["etag", "timestamp", "date", "requestId", "clientRequestId", "version"].includes(key)) {
    return value === undefined ? "absent" : `present:${value instanceof Date ? "Date" : typeof value}`;
  }
  if (typeof value === "string") return value.replace(/^\S*\/\$metadata#/, "<endpoint>/$metadata#");
  if (Buffer.isBuffer(value)) return { Buffer: value.toString("base64") };
  if (value instanceof Date) return { Date: value.toISOString() };
  if (Array.isArray(value)) return value.map((v) => normalize(v));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]));
  }
  return value;
}

/** Runs `scenario` on both sides, each on a fresh table, and returns [SDK's, ours] normalized. */
async function both(
  scenario: (m: Module, client: ours.TableClient) => Promise<unknown>,
): Promise<[unknown, unknown]> {
  const name = `diff${++tableCount}`;
  const sdkClient = sdk.TableClient.fromConnectionString(azurite.tableConnectionString, name, {
    allowInsecureConnection: true,
  });
  const ourClient = ours.TableClient.fromConnectionString("memory:", name);
  await sdkClient.createTable();
  await ourClient.createTable();
  const left = await scenario(sdk as unknown as Module, sdkClient as unknown as ours.TableClient);
  const right = await scenario(ours, ourClient);
  return [normalize(left), normalize(right)];
}

const TYPED = {
  partitionKey: "p",
  rowKey: "r",
  text: "héllo",
  int: 42,
  negative: -7,
  fraction: 0.1,
  whole: { value: "8", type: "Double" },
  big: 12345678901234567890n % 9223372036854775807n,
  when: new Date("2026-05-04T03:02:01.999Z"),
  fine: { value: "2026-05-04T03:02:01.1234567Z", type: "DateTime" },
  id: { value: "3f2504e0-4f89-11d3-9a0c-0305e82c3301", type: "Guid" },
  bytes: new Uint8Array([0, 255, 7]),
  flag: false,
} as const;

describe("tablekit/data-tables beside @azure/data-tables on Azurite", () => {
  it("point reads convert every EDM type as the SDK does", async () => {
    const [a, b] = await both(async (_m, c) => {
      await c.createEntity(TYPED);
      return c.getEntity("p", "r");
    });
    expect(b).toEqual(a);
  });

  it("disableTypeConversion gives every value as { value, type } text, as the SDK does", async () => {
    const [a, b] = await both(async (_m, c) => {
      await c.createEntity(TYPED);
      const one = await c.getEntity("p", "r", { disableTypeConversion: true });
      const listed = [];
      for await (const e of c.listEntities({ disableTypeConversion: true })) listed.push(e);
      return { one, listed };
    });
    expect(b).toEqual(a);
  });

  it("a read entity written back (odata.metadata and all) updates as with the SDK", async () => {
    const [a, b] = await both(async (_m, c) => {
      await c.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
      const read = await c.getEntity<{ n: number }>("p", "r");
      read.n = 2;
      // As with the SDK's types, a read result's keys are optional: an SDK program casts too.
      await c.updateEntity(read as ours.TableEntity<typeof read>, "Replace");
      const again = await c.getEntity("p", "r");
      await c.upsertEntity({ ...again, m: 3 } as ours.TableEntity<typeof again>);
      return c.getEntity("p", "r");
    });
    expect(b).toEqual(a);
  });

  it("write responses carry the SDK's headers", async () => {
    const [a, b] = await both(async (_m, c) => ({
      create: await c.createEntity({ partitionKey: "p", rowKey: "r" }),
      update: await c.updateEntity({ partitionKey: "p", rowKey: "r", x: 1 }, "Replace"),
      upsert: await c.upsertEntity({ partitionKey: "p", rowKey: "s" }),
      remove: await c.deleteEntity("p", "s"),
    }));
    expect(b).toEqual(a);
  });

  it("errors are RestErrors with the SDK's statusCode, code, details and response", async () => {
    const [a, b] = await both(async (m, c) => {
      const seen = [];
      for (const attempt of [
        () => c.getEntity("p", "nothing"),
        () =>
          c
            .createEntity({ partitionKey: "p", rowKey: "r" })
            .then(() => c.createEntity({ partitionKey: "p", rowKey: "r" })),
        () =>
          c.updateEntity({ partitionKey: "p", rowKey: "r" }, "Merge", {
            etag: "W/\"datetime'2020-01-01T00%3A00%3A00.0000000Z'\"",
          }),
        () => c.deleteEntity("p", "gone"),
        () =>
          m.TableClient.fromConnectionString(connectionOf(c), "missingtable", {
            allowInsecureConnection: true,
          }).getEntity("a", "b"),
      ]) {
        try {
          await attempt();
          seen.push("no error");
        } catch (err) {
          const e = err as ours.RestError & { details: { errorCode: string; odataError: { code: string } } };
          const body = JSON.parse(e.response?.bodyAsText ?? "{}") as { "odata.error"?: { code: string } };
          seen.push({
            name: e.name,
            isRestError: ours.isRestError(e),
            instance: e instanceof m.RestError,
            statusCode: e.statusCode,
            code: e.code,
            errorCode: e.details?.errorCode,
            odataCode: e.details?.odataError?.code,
            status: e.response?.status,
            bodyCode: body["odata.error"]?.code,
            header: e.response?.headers.get("x-ms-error-code"),
            method: e.request?.method,
          });
        }
      }
      return seen;
    });
    expect(b).toEqual(a);
  });

  it("a failed transaction is a RestError with the action's code and index; a good one answers as the SDK's", async () => {
    const [a, b] = await both(async (m, c) => {
      await c.createEntity({ partitionKey: "p", rowKey: "b" });
      const tx = new m.TableTransaction();
      tx.createEntity({ partitionKey: "p", rowKey: "a" });
      tx.updateEntity({ partitionKey: "p", rowKey: "b", x: 1 }, "Replace");
      tx.upsertEntity({ partitionKey: "p", rowKey: "c" });
      tx.deleteEntity("p", "b");
      let failure: unknown;
      try {
        await c.submitTransaction(tx.actions);
      } catch (err) {
        const e = err as ours.RestError;
        failure = { name: e.name, statusCode: e.statusCode, code: e.code, index: e.message.split(":")[0] };
      }
      const ok = await c.submitTransaction([
        ["create", { partitionKey: "p", rowKey: "a" }],
        ["update", { partitionKey: "p", rowKey: "b", y: 2 }, "Merge"],
        ["upsert", { partitionKey: "p", rowKey: "c" }, "Replace"],
      ]);
      const gone = await c.submitTransaction([["delete", { partitionKey: "p", rowKey: "c" }]]);
      return {
        failure,
        ok: { status: ok.status, subResponses: ok.subResponses, a: ok.getResponseForEntity("a")?.status },
        gone: gone.subResponses,
      };
    });
    expect(b).toEqual(a);
  });

  it("pages carry continuation tokens that resume, and select leaves out keys and Timestamp", async () => {
    const [a, b] = await both(async (_m, c) => {
      for (let i = 0; i < 7; i++) await c.createEntity({ partitionKey: `p${i % 2}`, rowKey: `r${i}`, i });
      const pages = [];
      for await (const page of c
        .listEntities({ queryOptions: { select: ["i"] } })
        .byPage({ maxPageSize: 3 })) {
        pages.push({ items: [...page], more: typeof page.continuationToken });
      }
      const first = await c.listEntities().byPage({ maxPageSize: 4 }).next();
      const rest = await c.listEntities().byPage({ continuationToken: first.value.continuationToken }).next();
      const selected = await c.getEntity("p0", "r0", { queryOptions: { select: ["i", "timestamp"] } });
      return { pages, rest: rest.value.map((e: { rowKey: string }) => e.rowKey), selected };
    });
    expect(b).toEqual(a);
  });

  it("odata builds the SDK's filter text", () => {
    const when = new Date("2026-01-02T03:04:05.006Z");
    const cases = [
      [
        ours.odata`PartitionKey eq ${"O'Brien"} and n gt ${5} and t lt ${when}`,
        sdk.odata`PartitionKey eq ${"O'Brien"} and n gt ${5} and t lt ${when}`,
      ],
      [ours.odata`RowKey eq '${"a'b"}'`, sdk.odata`RowKey eq '${"a'b"}'`],
      [ours.odata`${"x"} eq ${true} and big eq ${5n}`, sdk.odata`${"x"} eq ${true} and big eq ${5n}`],
    ];
    for (const [mine, theirs] of cases) expect(mine).toBe(theirs);
  });

  it("table and account SAS tokens carry the SDK's fields and signature (in another order, which no verifier minds)", () => {
    const fields = (token: string) => [...new URLSearchParams(token)].sort(([x], [y]) => (x < y ? -1 : 1));
    const key = Buffer.from("a key of the account").toString("base64");
    const expiresOn = new Date("2030-01-01T00:00:00Z");
    const startsOn = new Date("2029-01-01T00:00:00Z");
    const options = {
      expiresOn,
      startsOn,
      permissions: { query: true, add: true, update: true, delete: true },
      startPartitionKey: "a",
      endPartitionKey: "m",
    };
    expect(
      fields(ours.generateTableSas("Orders", new ours.AzureNamedKeyCredential("acct", key), options)),
    ).toEqual(fields(sdk.generateTableSas("Orders", new sdk.AzureNamedKeyCredential("acct", key), options)));
    const account = { expiresOn, permissions: { query: true, list: true, write: true }, resourceTypes: "co" };
    expect(fields(ours.generateAccountSas(new ours.AzureNamedKeyCredential("acct", key), account))).toEqual(
      fields(sdk.generateAccountSas(new sdk.AzureNamedKeyCredential("acct", key), account)),
    );
    // The defaults: read for an hour (table), list and read of the table service (account).
    const table = new URLSearchParams(
      ours.generateTableSas("Orders", new ours.AzureNamedKeyCredential("acct", key)),
    );
    expect(table.get("sp")).toBe("r");
    expect(Date.parse(table.get("se")!) - Date.now()).toBeGreaterThan(3_500_000);
    const acct = new URLSearchParams(ours.generateAccountSas(new ours.AzureNamedKeyCredential("acct", key)));
    expect([acct.get("sp"), acct.get("srt"), acct.get("ss")]).toEqual(["rl", "sco", "t"]);
  });
});

function connectionOf(client: ours.TableClient): string {
  return client.url.startsWith("http") ? azurite.tableConnectionString : "memory:";
}
