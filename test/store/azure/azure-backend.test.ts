import { AzureNamedKeyCredential, generateAccountSas, TableClient } from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DateTime, openStore, type Store } from "../../../src/index.js";
import { AZURE_LIMITS, type NormalizedEntity } from "../../../src/model/index.js";
import { azureBackend } from "../../../src/store/backends/azure/index.js";
import { loadAzureSdk } from "../../../src/store/backends/azure/table-sdk.js";
import { AZURITE_ACCOUNT, AZURITE_KEY, type Azurite, startAzurite } from "../../support/azurite.js";

let azurite: Azurite;
let store: Store;
let counter = 0;
const freshName = () => `az${Date.now().toString(36)}${counter++}`;

beforeAll(async () => {
  azurite = await startAzurite();
  store = await openStore(azurite.storeUrl);
});
afterAll(async () => {
  await store?.close();
  await azurite?.stop();
});

const entity = (rowKey: string, properties: Record<string, unknown> = {}) => ({
  partitionKey: "p",
  rowKey,
  ...properties,
});

describe("azure backend: connecting", () => {
  it("accepts a connection string, { connectionString }, { url, credential }, { url, sasToken } and a URL with a SAS", async () => {
    const name = freshName();
    await store.createTable(name);
    await store.table(name).createEntity(entity("r", { n: 1 }));
    const credential = new AzureNamedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
    const sas = generateAccountSas(credential, {
      permissions: { query: true, add: true, update: true, delete: true, list: true, write: true },
      resourceTypes: "sco",
      expiresOn: new Date(Date.now() + 3_600_000),
    });
    const url = azurite.endpoints.table;
    const stores = [
      await openStore("azure:", { connectionString: azurite.tableConnectionString }),
      await openStore("azure:", { url, credential }),
      await openStore("azure:", { url, sasToken: sas }),
      await openStore(`azure:${url}?${sas.replace(/^\?/, "")}`),
    ];
    for (const s of stores) {
      expect((await s.table(name).getEntity("p", "r")).n).toBe(1);
      await s.table(name).upsertEntity(entity("s"), "Replace");
    }
  });

  it("without any account it is InvalidStoreUrl; without the SDK it is NotSupported", async () => {
    await expect(openStore("azure:")).rejects.toMatchObject({ code: "InvalidStoreUrl" });
    await expect(openStore("azure:AccountName=x;garbage")).rejects.toMatchObject({ code: "InvalidStoreUrl" });
    await expect(openStore("azure:", { url: "not a url" })).rejects.toMatchObject({
      code: "InvalidStoreUrl",
    });
    const missing = Object.assign(new Error("Cannot find package '@azure/data-tables'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    await expect(loadAzureSdk(() => Promise.reject(missing))).rejects.toMatchObject({ code: "NotSupported" });
  });

  it("declares Azure's capabilities, with limit overrides and, against Azurite, its divergences", async () => {
    const backend = await openStore(azurite.storeUrl, { limits: { pageTimeBudgetMs: 10 } });
    expect(backend.capabilities).toMatchObject({
      backend: "azure",
      keyOrder: "utf16",
      pageEndsAtPartitionBoundary: false,
    });
    const unstorablePropertyNames = Object.getOwnPropertyNames(Object.prototype).sort();
    expect(backend.capabilities.limits).toEqual({
      ...AZURE_LIMITS,
      pageTimeBudgetMs: 10,
      unstorablePropertyNames,
    });
    expect(backend.capabilities.divergences.map((d) => d.id)).toContain("double-negative-zero");
    expect(backend.capabilities.divergences.map((d) => d.id)).toContain("prototype-property-names");
    const exact = await openStore(azurite.storeUrl, { emulator: false });
    expect(exact.capabilities.divergences).toEqual([]);
    expect(exact.capabilities.limits).toEqual(AZURE_LIMITS);
  });
});

describe("azure backend: interoperating with the raw SDK", () => {
  it("reads what the SDK wrote with the SDK's own typing, and the SDK reads what tablekit wrote", async () => {
    const name = freshName();
    await store.createTable(name);
    const raw = TableClient.fromConnectionString(azurite.tableConnectionString, name, {
      allowInsecureConnection: true,
    });
    await raw.createEntity({
      partitionKey: "p",
      rowKey: "sdk",
      i: 5,
      d: 1.5,
      dd: { value: 5, type: "Double" },
      l: 9_007_199_254_740_993n,
      t: new Date("2026-01-01T00:00:00.123Z"),
      b: new Uint8Array([1, 2]),
    });
    const read = await store.table(name).getEntity("p", "sdk");
    expect(read).toMatchObject({ i: 5, d: 1.5, dd: { value: 5, type: "Double" }, l: 9_007_199_254_740_993n });
    expect((read.t as DateTime).toISOString()).toBe("2026-01-01T00:00:00.1230000Z");
    expect(read.b).toEqual(new Uint8Array([1, 2]));

    await store.table(name).createEntity(
      entity("tk", {
        l: 2n ** 62n,
        t: DateTime.parse("2026-01-01T00:00:00.1234567Z"),
        g: { value: "3F2504E0-4F89-11D3-9A0C-0305E82C3301", type: "Guid" },
      }),
    );
    const back = await raw.getEntity("p", "tk", { disableTypeConversion: true });
    expect(back.l).toEqual({ value: String(2n ** 62n), type: "Int64" });
    expect(back.t).toEqual({ value: "2026-01-01T00:00:00.1234567Z", type: "DateTime" });
    expect(back.g).toEqual({ value: "3f2504e0-4f89-11d3-9a0c-0305e82c3301", type: "Guid" });
  });
});

describe("azure backend: Azurite workarounds", () => {
  it("entity operations find a table created in mixed case under any case", async () => {
    const name = `Mixed${freshName()}`;
    await store.createTable(name);
    await store.table(name.toUpperCase()).createEntity(entity("r", { n: 1 }));
    await store.table(name.toLowerCase()).submitTransaction([["upsert", entity("s")]]);
    expect((await store.table(name).getEntity("p", "r")).n).toBe(1);
    const names: string[] = [];
    for await (const t of store.listTables()) names.push(t.name);
    expect(names).toContain(name);
  });

  it("a Merge whose result exceeds the property cap fails in a transaction at its index, earlier failures first", async () => {
    const name = freshName();
    await store.createTable(name);
    const t = store.table(name);
    const full = Object.fromEntries(
      Array.from({ length: AZURE_LIMITS.maxProperties }, (_, i) => [`p${i}`, i]),
    );
    await t.createEntity(entity("full", full));
    await t.createEntity(entity("taken"));
    const merge = ["update", entity("full", { extra: 1 }), "Merge"] as const;
    await expect(t.submitTransaction([["create", entity("new")], merge])).rejects.toMatchObject({
      code: "TooManyProperties",
      index: 1,
    });
    // The create of an existing entity fails first, as the service would report it.
    await expect(t.submitTransaction([["create", entity("taken")], merge])).rejects.toMatchObject({
      code: "EntityAlreadyExists",
      index: 0,
    });
    await expect(t.getEntity("p", "new")).rejects.toMatchObject({ code: "ResourceNotFound" });
    expect("extra" in (await t.getEntity("p", "full"))).toBe(false);
  });

  it("filters that Azurite evaluates wrongly still match exactly (Int64 on mixed types, sub-millisecond DateTime, not)", async () => {
    const name = freshName();
    await store.createTable(name);
    const t = store.table(name);
    await t.createEntity(entity("i32", { v: 5 }));
    await t.createEntity(entity("i64", { v: 5n }));
    await t.createEntity(entity("str", { v: "5" }));
    await t.createEntity(entity("dt", { v: DateTime.parse("2026-01-01T00:00:00.0001000Z") }));
    await t.createEntity(entity("none"));
    const rows = async (filter: string) => {
      const out: string[] = [];
      for await (const e of t.listEntities({ queryOptions: { filter } })) out.push(e.rowKey as string);
      return out;
    };
    expect(await rows("v eq 5L")).toEqual(["i64"]);
    expect(await rows("v gt datetime'2026-01-01T00:00:00.0000000Z'")).toEqual(["dt"]);
    expect(await rows("v lt datetime'2026-01-01T00:00:00.0001001Z'")).toEqual(["dt"]);
    expect(await rows("not (v eq 5)")).toEqual(["dt", "i64", "none", "str"]);
    expect(await rows("not (not (v eq '5'))")).toEqual(["str"]);
  });

  it("with emulator: false, filters go to the server as written (exact on homogeneous data)", async () => {
    const exact = await openStore(azurite.storeUrl, { emulator: false });
    const name = freshName();
    await exact.createTable(name);
    const t = exact.table(name);
    for (let i = 0; i < 5; i++) await t.createEntity(entity(`r${i}`, { n: BigInt(i) * 10n ** 15n }));
    const out: string[] = [];
    for await (const e of t.listEntities({
      queryOptions: { filter: "n ge 2000000000000000L and n lt 4000000000000000L" },
    })) {
      out.push(e.rowKey as string);
    }
    expect(out).toEqual(["r2", "r3"]);
  });

  it("passes the caller's AbortSignal to the SDK's pipeline", async () => {
    const backend = (await azureBackend.open(azurite.tableConnectionString, {})).tables;
    const table = backend.table(freshName());
    const abortSignal = AbortSignal.abort();
    const e: NormalizedEntity = { partitionKey: "p", rowKey: "r", properties: new Map() };
    await expect(table.get("p", "r", { abortSignal })).rejects.toMatchObject({ code: "Aborted" });
    await expect(table.write({ kind: "create", entity: e }, { abortSignal })).rejects.toMatchObject({
      code: "Aborted",
    });
    await expect(backend.listTables({ maxPageSize: 10 }, { abortSignal })).rejects.toMatchObject({
      code: "Aborted",
    });
  });
});
