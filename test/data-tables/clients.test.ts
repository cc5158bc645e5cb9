/** tablekit/data-tables' own promises: shared stores, every URL form, errors that keep their cause. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  closeDataTablesStores,
  generateAccountSas,
  isRestError,
  RestError,
  TableClient,
  TableServiceClient,
} from "../../src/data-tables/index.js";
import { TableKitError } from "../../src/model/errors.js";
import { AZURITE_ACCOUNT, AZURITE_KEY, type Azurite, startAzurite } from "../support/azurite.js";

let azurite: Azurite;

beforeAll(async () => {
  azurite = await startAzurite();
}, 120_000);

afterAll(async () => {
  await closeDataTablesStores();
  await azurite?.stop();
});

async function rejection(promise: Promise<unknown>): Promise<RestError> {
  try {
    await promise;
  } catch (err) {
    return err as RestError;
  }
  throw new Error("expected a rejection");
}

describe("tablekit/data-tables clients", () => {
  it("clients made from the same URL share one store; closeDataTablesStores closes it", async () => {
    const service = TableServiceClient.fromConnectionString("memory:");
    await service.createTable("Shared");
    const client = TableClient.fromConnectionString("memory:", "Shared");
    await client.createEntity({ partitionKey: "p", rowKey: "r" });
    expect((await new TableClient("memory:", "Shared").getEntity("p", "r")).rowKey).toBe("r");
    await closeDataTablesStores();
    // A fresh memory store afterwards: the table is gone.
    const after = await rejection(client.getEntity("p", "r"));
    expect([after.statusCode, (after.details as { errorCode: string }).errorCode]).toEqual([
      404,
      "TableNotFound",
    ]);
  });

  it("reaches Azure through a connection string and through an account URL with a credential", async () => {
    const byString = TableClient.fromConnectionString(azurite.tableConnectionString, "ViaString");
    await byString.createTable();
    await byString.createEntity({ partitionKey: "p", rowKey: "r", when: new Date(5) });
    const byKey = new TableClient(
      azurite.endpoints.table,
      "ViaString",
      new AzureNamedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
    );
    expect((await byKey.getEntity("p", "r")).when).toEqual(new Date(5));
    expect(byKey.url).toBe(azurite.endpoints.table);
    const sas = generateAccountSas(new AzureNamedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY), {
      expiresOn: new Date(Date.now() + 600_000),
    });
    const bySas = new TableServiceClient(azurite.endpoints.table, new AzureSASCredential(sas));
    const names: (string | undefined)[] = [];
    for await (const t of bySas.listTables()) names.push(t.name);
    expect(names).toContain("ViaString");
    // The account SAS lists and reads only: creating a table is refused as the service refuses it.
    const refused = await rejection(bySas.createTable("Nope"));
    expect([isRestError(refused), refused.statusCode]).toEqual([true, 403]);
  });

  it("every error is a RestError whose cause is the TableKitError, with the request it answers", async () => {
    const client = TableClient.fromConnectionString("memory:", "Errors");
    await client.createTable();
    const badName = await rejection(new TableClient("memory:", "no-dashes").createTable());
    expect(badName).toBeInstanceOf(RestError);
    expect(badName.statusCode).toBe(400);
    expect(badName.cause).toBeInstanceOf(TableKitError);
    const badKey = await rejection(client.getEntity("p", "a/b"));
    expect(badKey.request?.url).toMatch(/Errors\(PartitionKey='p',RowKey='a%2Fb'\)$/);
    expect(badKey.request?.method).toBe("GET");
    const controller = new AbortController();
    controller.abort();
    const aborted = await rejection(
      client.createEntity({ partitionKey: "p", rowKey: "r" }, { abortSignal: controller.signal }),
    );
    expect((aborted.details as { errorCode: string }).errorCode).toBe("Aborted");
    // An error that is not tablekit's passes through unchanged.
    await expect(client.submitTransaction(null as never)).rejects.toBeInstanceOf(TypeError);
  });

  it("non-finite Doubles read as the strings the service writes, -0 and typed Doubles as numbers", async () => {
    const client = TableClient.fromConnectionString("memory:", "Doubles");
    await client.createTable();
    await client.createEntity({
      partitionKey: "p",
      rowKey: "r",
      nan: Number.NaN,
      inf: { value: "Infinity", type: "Double" },
      negativeZero: -0,
      whole: { value: 3, type: "Double" },
    });
    const e = await client.getEntity("p", "r");
    expect([e.nan, e.inf, Object.is(e.negativeZero, -0), e.whole]).toEqual(["NaN", "Infinity", true, 3]);
    const raw = await client.getEntity("p", "r", { disableTypeConversion: true });
    expect([raw.nan, raw.whole]).toEqual([
      { value: "NaN", type: "Double" },
      { value: "3", type: "Int32" }, // the SDK guesses an unannotated whole number as Int32
    ]);
  });

  it("a point read of a missing entity on an open store is the SDK's 404, read now (memory:) or later (Azure)", async () => {
    for (const url of ["memory:", azurite.tableConnectionString]) {
      const client = TableClient.fromConnectionString(url, "MissingRows");
      await client.createTable(); // the store is open: the read takes the store's own promise
      const missing = await rejection(client.getEntity("p", "gone"));
      expect(missing, url).toBeInstanceOf(RestError);
      const errorCode = (missing.details as { errorCode: string }).errorCode;
      expect([missing.statusCode, errorCode, missing.request?.method]).toEqual([
        404,
        "ResourceNotFound",
        "GET",
      ]);
      expect(missing.request?.url).toMatch(/MissingRows\(PartitionKey='p',RowKey='gone'\)$/);
      expect(missing.cause).toBeInstanceOf(TableKitError);
    }
  });

  it("reads built from the stored row give what the converting path gives: Dates from 100 ns ticks, before 1970, at the ends of the service's range", async () => {
    const client = TableClient.fromConnectionString("memory:", "StoredDates");
    await client.createTable();
    const dates = {
      first: { value: "1601-01-01T00:00:00.0000001Z", type: "DateTime" },
      before1970: { value: "1969-12-31T23:59:59.9999999Z", type: "DateTime" },
      subMillisecond: { value: "2026-03-01T08:30:00.1239999Z", type: "DateTime" },
      last: { value: "9999-12-31T23:59:59.9999999Z", type: "DateTime" },
    };
    await client.createEntity({ partitionKey: "p", rowKey: "r", ...dates, photo: new Uint8Array([0, 255]) });
    const expected = {
      first: new Date("1601-01-01T00:00:00.000Z"),
      before1970: new Date("1969-12-31T23:59:59.999Z"),
      subMillisecond: new Date("2026-03-01T08:30:00.123Z"),
      last: new Date("9999-12-31T23:59:59.999Z"),
      photo: Buffer.from([0, 255]),
    };
    const names = Object.keys(expected);
    const built = await client.getEntity("p", "r");
    let listed: Record<string, unknown> | undefined;
    for await (const e of client.listEntities()) listed = e;
    const converted = await client.getEntity("p", "r", { queryOptions: { select: names } });
    for (const read of [built, listed!, converted]) {
      expect(Object.fromEntries(names.map((n) => [n, read[n]]))).toEqual(expected);
      expect(read.photo).toBeInstanceOf(Buffer);
    }
    expect(Object.keys(built)).toEqual([
      "odata.metadata",
      "etag",
      "partitionKey",
      "rowKey",
      ...names,
      "timestamp",
    ]);
    expect(Object.keys(listed!)).toEqual(Object.keys(built).slice(1));
  });

  it("pages and listTables pages carry continuationToken, undefined on the last", async () => {
    const service = TableServiceClient.fromConnectionString("memory:");
    for (const n of ["PgAlpha", "PgBeta", "PgGamma"]) await service.createTable(n);
    const pages = [];
    for await (const page of service
      .listTables({ queryOptions: { filter: "TableName ge 'Pg' and TableName lt 'Ph'" } })
      .byPage({ maxPageSize: 2 })) {
      pages.push([page.map((t) => t.name), "continuationToken" in page, typeof page.continuationToken]);
    }
    expect(pages).toEqual([
      [["PgAlpha", "PgBeta"], true, "string"],
      [["PgGamma"], true, "undefined"],
    ]);
  });
});

describe("tablekit/data-tables service state", () => {
  it("a sixth stored access policy is refused (400) and the five stored are kept", async () => {
    const client = TableClient.fromConnectionString("memory:", "Acl");
    await client.createTable();
    const policy = (id: string) => ({
      id,
      accessPolicy: {
        start: new Date("2026-01-01T00:00:00Z"),
        expiry: new Date("2026-01-02T00:00:00Z"),
        permission: "r",
      },
    });
    await client.setAccessPolicy(["a", "b", "c", "d", "e"].map(policy));
    const err = await rejection(client.setAccessPolicy(["a", "b", "c", "d", "e", "f"].map(policy)));
    expect([isRestError(err), err.statusCode]).toEqual([true, 400]);
    expect((await client.getAccessPolicy()).map((p) => p.id)).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("setAccessPolicy keeps dates to the second, as the SDK sends them", async () => {
    const client = TableClient.fromConnectionString("memory:", "AclSeconds");
    await client.createTable();
    await client.setAccessPolicy([
      { id: "p", accessPolicy: { start: new Date("2026-01-01T00:00:00.999Z"), permission: "r" } },
    ]);
    expect((await client.getAccessPolicy())[0]?.accessPolicy?.start?.toISOString()).toBe(
      "2026-01-01T00:00:00.000Z",
    );
  });

  it("a CORS rule over the limits is refused with the service's code, and the stored rules are kept", async () => {
    const service = TableServiceClient.fromConnectionString("memory:");
    const rule = {
      allowedOrigins: "*",
      allowedMethods: "GET",
      allowedHeaders: "",
      exposedHeaders: "",
      maxAgeInSeconds: 5,
    };
    await service.setProperties({ cors: [rule] });
    const err = await rejection(service.setProperties({ cors: [{ ...rule, allowedMethods: "FETCH" }] }));
    expect([err.statusCode, (err.details as { errorCode?: string }).errorCode]).toEqual([
      400,
      "InvalidXmlNodeValue",
    ]);
    const six = await rejection(service.setProperties({ cors: Array.from({ length: 6 }, () => rule) }));
    expect(six.statusCode).toBe(400);
    expect((await service.getProperties()).cors).toEqual([rule]);
  });

  it("setProperties keeps the sections it is not given", async () => {
    const service = TableServiceClient.fromConnectionString("memory:");
    const hourMetrics = {
      version: "1.0",
      enabled: true,
      includeAPIs: false,
      retentionPolicy: { enabled: true, days: 2 },
    };
    await service.setProperties({ hourMetrics });
    await service.setProperties({ cors: [] });
    expect((await service.getProperties()).hourMetrics).toEqual(hourMetrics);
  });
});
