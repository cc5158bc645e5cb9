/**
 * The current JavaScript SDK, `@azure/data-tables`, used directly (no tablekit client code) against
 * `tablekit serve`: tables, CRUD, every EDM type, paging, a batch with a failing operation, a SAS
 * with a key range, and the service's error codes.
 */
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  generateTableSas,
  odata,
  TableClient,
  TableServiceClient,
} from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";

let server: Awaited<ReturnType<typeof startServer>>;
const credential = new AzureNamedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
const options = { allowInsecureConnection: true };
const client = (table: string) => new TableClient(server.url, table, credential, options);

beforeAll(async () => {
  server = await startServer({ port: 0 });
});
afterAll(() => server?.stop());

/** The service's error code as the SDK exposes it (the odata.error body, or the x-ms-error-code header). */
function serviceCode(err: unknown): string | undefined {
  const e = err as {
    code?: string;
    details?: { errorCode?: string; odataError?: { code?: string } };
    response?: { headers: { get(name: string): string | undefined } };
  };
  return (
    e.details?.odataError?.code ??
    e.details?.errorCode ??
    e.response?.headers.get("x-ms-error-code") ??
    e.code
  );
}

async function codeOf(promise: Promise<unknown>): Promise<{ status?: number; code?: string }> {
  try {
    await promise;
  } catch (err) {
    return { status: (err as { statusCode?: number }).statusCode, code: serviceCode(err) };
  }
  throw new Error("expected a failure");
}

describe("@azure/data-tables against tablekit serve", () => {
  it("creates, lists, filters and deletes tables; an existing table is 409 TableAlreadyExists", async () => {
    const service = new TableServiceClient(server.url, credential, options);
    await service.createTable("SdkAlpha");
    await service.createTable("SdkBeta");
    await service.createTable("SdkAlpha"); // the SDK treats TableAlreadyExists as success
    const names: string[] = [];
    for await (const t of service.listTables({ queryOptions: { filter: odata`TableName ge 'Sdk'` } }))
      names.push(t.name!);
    expect(names).toEqual(["SdkAlpha", "SdkBeta"]);
    const pages = service.listTables().byPage({ maxPageSize: 1 });
    const first = (await pages.next()).value;
    expect(first).toHaveLength(1);
    expect(first.continuationToken).toBeDefined();
    await service.deleteTable("SdkBeta");
    const after: string[] = [];
    for await (const t of service.listTables()) after.push(t.name!);
    expect(after).not.toContain("SdkBeta");
  });

  it("round-trips every EDM type exactly", async () => {
    const table = client("SdkTypes");
    await table.createTable();
    const entity = {
      partitionKey: "p",
      rowKey: "types",
      text: "héllo ' \" \\ 𝄞",
      int32: 2147483647,
      int64: { value: "-9223372036854775808", type: "Int64" as const },
      double: 1.5,
      bool: true,
      date: new Date("2024-02-29T12:34:56.789Z"),
      preciseDate: { value: "2024-02-29T12:34:56.7891234Z", type: "DateTime" as const },
      guid: { value: "c9da6455-213d-42c9-9a79-3e9149a57833", type: "Guid" as const },
      binary: new Uint8Array([0, 1, 2, 255]),
    };
    await table.createEntity(entity);
    const read = await table.getEntity<Record<string, unknown>>("p", "types", {
      disableTypeConversion: true,
    });
    expect(read.text).toEqual({ value: entity.text, type: "String" });
    expect(read.int32).toEqual({ value: "2147483647", type: "Int32" });
    expect(read.int64).toEqual({ value: "-9223372036854775808", type: "Int64" });
    expect(read.double).toEqual({ value: "1.5", type: "Double" });
    expect(read.bool).toEqual({ value: "true", type: "Boolean" });
    expect(read.date).toEqual({ value: "2024-02-29T12:34:56.7890000Z", type: "DateTime" });
    expect(read.preciseDate).toEqual({ value: "2024-02-29T12:34:56.7891234Z", type: "DateTime" });
    expect(read.guid).toEqual({ value: "c9da6455-213d-42c9-9a79-3e9149a57833", type: "Guid" });
    expect(read.binary).toEqual({ value: "AAEC/w==", type: "Binary" });
    const converted = await table.getEntity<Record<string, unknown>>("p", "types");
    expect([...(converted.binary as Uint8Array)]).toEqual([0, 1, 2, 255]);
    expect(converted.etag).toMatch(/^W\/"datetime'/);
  });

  it("updates, merges, upserts and deletes with ETags; 412 and 404 as the service answers", async () => {
    const table = client("SdkCrud");
    await table.createTable();
    const created = await table.createEntity({ partitionKey: "p", rowKey: "r", a: 1, b: "x" });
    expect(await codeOf(table.createEntity({ partitionKey: "p", rowKey: "r" }))).toEqual({
      status: 409,
      code: "EntityAlreadyExists",
    });
    const merged = await table.updateEntity({ partitionKey: "p", rowKey: "r", c: true }, "Merge", {
      etag: created.etag,
    });
    expect(
      await codeOf(table.updateEntity({ partitionKey: "p", rowKey: "r" }, "Replace", { etag: created.etag })),
    ).toEqual({
      status: 412,
      code: "UpdateConditionNotSatisfied",
    });
    const afterMerge = await table.getEntity<Record<string, unknown>>("p", "r");
    expect([afterMerge.a, afterMerge.b, afterMerge.c, afterMerge.etag]).toEqual([1, "x", true, merged.etag]);
    // The SDK types timestamp as a string: the server leaves it unannotated under minimal metadata.
    expect(typeof afterMerge.timestamp).toBe("string");
    // The weak prefix in either case; a strong ETag is refused with 400.
    expect(await codeOf(table.deleteEntity("p", "r", { etag: 'w/"wrong"' }))).toEqual({
      status: 412,
      code: "UpdateConditionNotSatisfied",
    });
    expect(await codeOf(table.deleteEntity("p", "r", { etag: '"wrong"' }))).toMatchObject({ status: 400 });
    await table.updateEntity({ partitionKey: "p", rowKey: "r", d: 2 }, "Replace");
    const replaced = await table.getEntity<Record<string, unknown>>("p", "r");
    expect(replaced.a).toBeUndefined();
    expect(replaced.d).toBe(2);
    await table.upsertEntity({ partitionKey: "p", rowKey: "new", e: 3 }, "Merge");
    await table.upsertEntity({ partitionKey: "p", rowKey: "new", f: 4 }, "Merge");
    const upserted = await table.getEntity<Record<string, unknown>>("p", "new");
    expect([upserted.e, upserted.f]).toEqual([3, 4]);
    await table.deleteEntity("p", "new");
    expect(await codeOf(table.getEntity("p", "new"))).toEqual({ status: 404, code: "ResourceNotFound" });
    expect(await codeOf(table.deleteEntity("p", "new"))).toEqual({ status: 404, code: "ResourceNotFound" });
    expect(await codeOf(client("SdkMissing").createEntity({ partitionKey: "p", rowKey: "r" }))).toEqual({
      status: 404,
      code: "TableNotFound",
    });
    expect(await codeOf(table.createEntity({ partitionKey: "p", rowKey: "bad/key" }))).toEqual({
      status: 400,
      code: "OutOfRangeInput",
    });
  });

  it("queries with $filter, $select and $top, paging with NextPartitionKey/NextRowKey", async () => {
    const table = client("SdkQuery");
    await table.createTable();
    for (let p = 0; p < 3; p++) {
      await table.submitTransaction(
        Array.from({ length: 40 }, (_, i) => [
          "create",
          { partitionKey: `p${p}`, rowKey: String(i).padStart(3, "0"), n: i },
        ]),
      );
    }
    const filter = odata`n ge ${10} and n lt ${30} and PartitionKey ne ${"p1"}`;
    const pages = table
      .listEntities<{ n: number }>({ queryOptions: { filter, select: ["n"] } })
      .byPage({ maxPageSize: 7 });
    const seen: number[] = [];
    let pageCount = 0;
    for await (const page of pages) {
      pageCount++;
      expect(page.length).toBeLessThanOrEqual(7);
      seen.push(...page.map((e) => e.n));
    }
    expect(seen).toEqual([
      ...Array.from({ length: 20 }, (_, i) => i + 10),
      ...Array.from({ length: 20 }, (_, i) => i + 10),
    ]);
    expect(pageCount).toBeGreaterThanOrEqual(6);
    expect(await codeOf(table.listEntities({ queryOptions: { filter: "n eq" } }).next())).toMatchObject({
      status: 400,
    });
  });

  it("runs a batch all or nothing; a failing operation is reported with its index", async () => {
    const table = client("SdkBatch");
    await table.createTable();
    const ok = await table.submitTransaction([
      ["create", { partitionKey: "b", rowKey: "1" }],
      ["upsert", { partitionKey: "b", rowKey: "2", v: 1 }, "Replace"],
    ]);
    expect(ok.status).toBe(202);
    expect(ok.subResponses.map((r) => r.status)).toEqual([204, 204]);
    expect(ok.subResponses[0]!.etag).toMatch(/^W\//);
    const attempt = table.submitTransaction([
      ["create", { partitionKey: "b", rowKey: "3" }],
      ["create", { partitionKey: "b", rowKey: "1" }],
    ]);
    expect(await codeOf(attempt)).toEqual({ status: 409, code: "EntityAlreadyExists" });
    await expect(attempt).rejects.toThrow(/^1:The specified entity already exists/);
    expect(await codeOf(table.getEntity("b", "3"))).toMatchObject({ status: 404 });
    const stale = table.submitTransaction([
      ["upsert", { partitionKey: "b", rowKey: "4" }],
      [
        "update",
        { partitionKey: "b", rowKey: "2" },
        "Merge",
        { etag: `W/"datetime'2000-01-01T00%3A00%3A00.0000000Z'"` },
      ],
    ]);
    expect(await codeOf(stale)).toEqual({ status: 412, code: "UpdateConditionNotSatisfied" });
    await expect(stale).rejects.toThrow(/^1:/);
  });

  it("enforces a SAS key range the SDK generated, on reads and writes", async () => {
    const table = client("SdkSas");
    await table.createTable();
    for (const pk of ["alice", "bob", "carol"]) {
      await table.createEntity({ partitionKey: pk, rowKey: "1" });
    }
    const sas = generateTableSas("SdkSas", credential, {
      permissions: { query: true, add: true, update: true },
      expiresOn: new Date(Date.now() + 3_600_000),
      startPartitionKey: "bob",
      endPartitionKey: "bob",
    });
    const scoped = new TableClient(server.url, "SdkSas", new AzureSASCredential(sas), options);
    const names: string[] = [];
    for await (const e of scoped.listEntities()) names.push(e.partitionKey!);
    expect(names).toEqual(["bob"]);
    await scoped.createEntity({ partitionKey: "bob", rowKey: "2" });
    expect(await codeOf(scoped.createEntity({ partitionKey: "carol", rowKey: "2" }))).toEqual({
      status: 403,
      code: "AuthorizationFailure",
    });
    expect(await codeOf(scoped.getEntity("alice", "1"))).toEqual({
      status: 403,
      code: "AuthorizationFailure",
    });
    expect(await codeOf(scoped.deleteEntity("bob", "2"))).toEqual({
      status: 403,
      code: "AuthorizationPermissionMismatch",
    });
    const other = new TableClient(server.url, "SdkTypes", new AzureSASCredential(sas), options);
    expect(await codeOf(other.getEntity("bob", "1"))).toMatchObject({ status: 403 });
    const anonymous = new TableClient(server.url, "SdkSas", options);
    expect(await codeOf(anonymous.getEntity("bob", "1"))).toEqual({
      status: 403,
      code: "AuthenticationFailed",
    });
  });
});
