/**
 * Token generation: the same tokens as the Azure SDK's generators, and tokens Azurite accepts (it
 * checks signatures, permissions and times; it does not enforce key ranges — the pattern suite
 * tests those on the embedded engine and on tablekit serve).
 */
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  generateAccountSas as sdkAccountSas,
  generateTableSas as sdkTableSas,
  TableClient,
} from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEVELOPMENT_ACCOUNT,
  generateAccountSas,
  generateTableSas,
  openStore,
  parseSasToken,
} from "../../src/index.js";
import { type Azurite, startAzurite } from "../support/azurite.js";

const account = DEVELOPMENT_ACCOUNT;
const credential = new AzureNamedKeyCredential(account.name, account.key);
const startsOn = new Date("2030-01-02T03:04:05Z");
const expiresOn = new Date("2030-01-03T03:04:05Z");

describe("generateTableSas / generateAccountSas", () => {
  it("sign exactly what the Azure SDK signs, for every field", () => {
    const values = {
      permissions: { query: true, add: true, update: true, delete: true },
      startsOn,
      expiresOn,
      ipRange: { start: "10.0.0.1", end: "10.0.0.9" },
      protocol: "https" as const,
      startPartitionKey: "a'b",
      startRowKey: "r 1",
      endPartitionKey: "z&z",
      endRowKey: "r/2",
    };
    const ours = generateTableSas({ account, tableName: "Orders", ...values });
    const theirs = sdkTableSas("Orders", credential, { ...values, version: "2019-02-02" });
    expect(parseSasToken(ours)).toEqual(parseSasToken(theirs));
    const accountOurs = generateAccountSas({
      account,
      permissions: { read: true, list: true, add: true },
      resourceTypes: { container: true, object: true },
      startsOn,
      expiresOn,
    });
    const accountTheirs = sdkAccountSas(credential, {
      permissions: { query: true, list: true, add: true },
      resourceTypes: "co",
      services: { table: true },
      startsOn,
      expiresOn,
      version: "2019-02-02",
    });
    expect(parseSasToken(accountOurs)).toEqual(parseSasToken(accountTheirs));
  });

  it("refuse incomplete requests: no permissions or expiry without a stored policy, a row bound without its partition", () => {
    expect(() => generateTableSas({ account, tableName: "T", expiresOn })).toThrow(
      expect.objectContaining({ code: "InvalidInput" }),
    );
    expect(() =>
      generateTableSas({
        account,
        tableName: "T",
        permissions: { query: true },
        expiresOn,
        startRowKey: "x",
      }),
    ).toThrow(expect.objectContaining({ code: "InvalidInput" }));
    expect(parseSasToken(generateTableSas({ account, tableName: "T", identifier: "policy1" }))).toMatchObject(
      {
        si: "policy1",
        tn: "T",
      },
    );
  });
});

describe("tokens against Azurite", () => {
  let azurite: Azurite;
  beforeAll(async () => {
    azurite = await startAzurite();
    const admin = TableClient.fromConnectionString(azurite.tableConnectionString, "SasTokens", {
      allowInsecureConnection: true,
    });
    await admin.createTable();
    await admin.createEntity({ partitionKey: "p", rowKey: "1" });
  });
  afterAll(() => azurite?.stop());

  it("accepts generated table tokens, within their permissions", async () => {
    const token = generateTableSas({
      account,
      tableName: "SasTokens",
      permissions: { query: true },
      expiresOn: new Date(Date.now() + 3_600_000),
    });
    const client = new TableClient(azurite.endpoints.table, "SasTokens", new AzureSASCredential(token), {
      allowInsecureConnection: true,
    });
    expect((await client.getEntity("p", "1")).rowKey).toBe("1");
    await expect(client.createEntity({ partitionKey: "p", rowKey: "2" })).rejects.toMatchObject({
      statusCode: 403,
    });
    // The same token through the azure backend (emulator: false: its Azurite workarounds list tables,
    // which a table token may not).
    const store = await openStore("azure:", {
      url: azurite.endpoints.table,
      sasToken: token,
      emulator: false,
    });
    expect((await store.table("SasTokens").getEntity("p", "1")).rowKey).toBe("1");
    await store.close();
  });

  it("accepts generated account tokens, and refuses expired ones", async () => {
    const token = generateAccountSas({
      account,
      permissions: { read: true, list: true },
      resourceTypes: { container: true, object: true },
      expiresOn: new Date(Date.now() + 3_600_000),
    });
    const client = new TableClient(azurite.endpoints.table, "SasTokens", new AzureSASCredential(token), {
      allowInsecureConnection: true,
    });
    expect((await client.getEntity("p", "1")).rowKey).toBe("1");
    const expired = generateTableSas({
      account,
      tableName: "SasTokens",
      permissions: { query: true },
      expiresOn: new Date(Date.now() - 60_000),
    });
    const old = new TableClient(azurite.endpoints.table, "SasTokens", new AzureSASCredential(expired), {
      allowInsecureConnection: true,
    });
    await expect(old.getEntity("p", "1")).rejects.toMatchObject({ statusCode: 403 });
  });
});
