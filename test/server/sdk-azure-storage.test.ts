/**
 * The legacy JavaScript SDK, the `azure-storage` npm package, against `tablekit serve`: SharedKey
 * signed with x-ms-date, the MERGE verb, its own batch writer and continuation handling. Tables,
 * CRUD, every EDM type, paging, a batch with a failing operation, a SAS with a key range, error codes.
 */
import azure from "azure-storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";

/** The legacy SDK's callbacks, loosely typed: its typings name result types that do not exist. */
// biome-ignore lint/suspicious/noExplicitAny: the callback's parameters differ per method
type Callback<_T> = (...args: any[]) => void;
interface ListTablesResult {
  entries: string[];
  continuationToken?: azure.TableService.ListTablesContinuationToken;
}

let server: Awaited<ReturnType<typeof startServer>>;
let service: azure.TableService;
const gen = azure.TableUtilities.entityGenerator;

beforeAll(async () => {
  server = await startServer({ port: 0 });
  service = azure.createTableService(server.connectionString);
});
afterAll(() => server?.stop());

/** Calls a callback-style method of the legacy SDK; resolves with the result and the response. */
function call<T>(fn: (cb: Callback<T>) => void): Promise<{ result: T; response: azure.ServiceResponse }> {
  return new Promise((resolve, reject) =>
    fn((error: Error | null, result: T, response: azure.ServiceResponse) =>
      error ? reject(error) : resolve({ result, response }),
    ),
  );
}

async function failure(fn: (cb: Callback<unknown>) => void): Promise<{ status?: number; code?: string }> {
  try {
    await call(fn);
  } catch (err) {
    const e = err as { statusCode?: number; code?: string };
    return { status: e.statusCode, code: e.code };
  }
  throw new Error("expected a failure");
}

describe("azure-storage (legacy SDK) against tablekit serve", () => {
  it("creates, lists and deletes tables; an existing table is TableAlreadyExists", async () => {
    await call((cb) => service.createTable("LegacyOne", cb));
    await call((cb) => service.createTable("LegacyTwo", cb));
    expect(await failure((cb) => service.createTable("LegacyOne", cb))).toEqual({
      status: 409,
      code: "TableAlreadyExists",
    });
    const { result: exists } = await call<azure.TableService.TableResult>((cb) =>
      service.doesTableExist("LegacyTwo", cb),
    );
    expect(exists.exists).toBe(true);
    const { result: listed } = await call<ListTablesResult>((cb) =>
      service.listTablesSegmentedWithPrefix("Legacy", null as never, { maxResults: 1 }, cb),
    );
    expect(listed.entries).toEqual(["LegacyOne"]);
    expect(listed.continuationToken).toBeTruthy();
    const { result: rest } = await call<ListTablesResult>((cb) =>
      service.listTablesSegmentedWithPrefix("Legacy", listed.continuationToken!, { maxResults: 5 }, cb),
    );
    expect(rest.entries).toEqual(["LegacyTwo"]);
    await call((cb) => service.deleteTable("LegacyTwo", cb));
    expect(await failure((cb) => service.deleteTable("LegacyTwo", cb))).toEqual({
      status: 404,
      code: "TableNotFound",
    });
  });

  it("round-trips every EDM type; merges with the MERGE verb; replaces, upserts and deletes", async () => {
    await call((cb) => service.createTable("LegacyTypes", cb));
    const entity = {
      PartitionKey: gen.String("p"),
      RowKey: gen.String("r"),
      text: gen.String("héllo 𝄞"),
      int32: gen.Int32(-42),
      int64: gen.Int64("9223372036854775807"),
      double: gen.Double(2.5),
      bool: gen.Boolean(false),
      date: gen.DateTime(new Date("2023-05-06T07:08:09.123Z")),
      guid: gen.Guid("c9da6455-213d-42c9-9a79-3e9149a57833"),
      binary: gen.Binary(Buffer.from([1, 2, 3])),
    };
    const { result: inserted } = await call<{ ".metadata": { etag: string } }>((cb) =>
      service.insertEntity("LegacyTypes", entity, cb),
    );
    const { result: read } = await call<Record<string, { _: unknown; $?: string }>>((cb) =>
      service.retrieveEntity("LegacyTypes", "p", "r", cb),
    );
    expect(read.text?._).toBe("héllo 𝄞");
    expect(read.int32?._).toBe(-42);
    expect([read.int64?._, read.int64?.$]).toEqual(["9223372036854775807", "Edm.Int64"]);
    expect(read.double?._).toBe(2.5);
    expect(read.bool?._).toBe(false);
    expect((read.date!._ as Date).toISOString()).toBe("2023-05-06T07:08:09.123Z");
    expect([read.guid?._, read.guid?.$]).toEqual(["c9da6455-213d-42c9-9a79-3e9149a57833", "Edm.Guid"]);
    expect([...(read.binary!._ as Buffer)]).toEqual([1, 2, 3]);

    const merge = { PartitionKey: gen.String("p"), RowKey: gen.String("r"), extra: gen.Int32(7) };
    const { response } = await call((cb) => service.mergeEntity("LegacyTypes", merge, cb));
    expect(response.statusCode).toBe(204);
    const { result: merged } = await call<Record<string, { _: unknown }>>((cb) =>
      service.retrieveEntity("LegacyTypes", "p", "r", cb),
    );
    expect([merged.extra?._, merged.text?._]).toEqual([7, "héllo 𝄞"]);
    // A stale ETag: 412.
    const stale = { ...merge, ".metadata": { etag: inserted[".metadata"].etag } };
    expect(await failure((cb) => service.replaceEntity("LegacyTypes", stale, cb))).toEqual({
      status: 412,
      code: "UpdateConditionNotSatisfied",
    });
    await call((cb) =>
      service.insertOrMergeEntity(
        "LegacyTypes",
        { PartitionKey: gen.String("p"), RowKey: gen.String("u"), a: gen.Int32(1) },
        cb,
      ),
    );
    await call((cb) =>
      service.insertOrReplaceEntity(
        "LegacyTypes",
        { PartitionKey: gen.String("p"), RowKey: gen.String("u"), b: gen.Int32(2) },
        cb,
      ),
    );
    const { result: upserted } = await call<Record<string, { _: unknown }>>((cb) =>
      service.retrieveEntity("LegacyTypes", "p", "u", cb),
    );
    expect([upserted.a, upserted.b?._]).toEqual([undefined, 2]);
    await call((cb) =>
      service.deleteEntity("LegacyTypes", { PartitionKey: gen.String("p"), RowKey: gen.String("u") }, cb),
    );
    expect(await failure((cb) => service.retrieveEntity("LegacyTypes", "p", "u", cb))).toEqual({
      status: 404,
      code: "ResourceNotFound",
    });
    expect(
      await failure((cb) =>
        service.insertEntity("LegacyTypes", { PartitionKey: gen.String("p"), RowKey: gen.String("a#b") }, cb),
      ),
    ).toEqual({ status: 400, code: "OutOfRangeInput" });
  });

  it("pages a query with its own continuation handling", async () => {
    await call((cb) => service.createTable("LegacyPages", cb));
    const batch = new azure.TableBatch();
    for (let i = 0; i < 30; i++) {
      batch.insertEntity(
        { PartitionKey: gen.String("p"), RowKey: gen.String(String(i).padStart(2, "0")), n: gen.Int32(i) },
        {},
      );
    }
    await call((cb) => service.executeBatch("LegacyPages", batch, cb));
    const query = new azure.TableQuery().where("n ge ?", 5).top(10);
    const seen: number[] = [];
    let token: azure.TableService.TableContinuationToken | null = null;
    do {
      const { result } = await call<azure.TableService.QueryEntitiesResult<Record<string, { _: number }>>>(
        (cb) => service.queryEntities("LegacyPages", query, token as never, cb),
      );
      expect(result.entries.length).toBeLessThanOrEqual(10);
      seen.push(...result.entries.map((e) => e.n!._));
      token = result.continuationToken ?? null;
    } while (token);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 5));
  });

  it("runs a batch with its own batch writer; a failing operation fails it whole", async () => {
    await call((cb) => service.createTable("LegacyBatch", cb));
    const good = new azure.TableBatch();
    good.insertEntity({ PartitionKey: gen.String("b"), RowKey: gen.String("1") }, {});
    good.insertOrMergeEntity({ PartitionKey: gen.String("b"), RowKey: gen.String("2"), v: gen.Int32(1) });
    good.insertOrReplaceEntity({ PartitionKey: gen.String("b"), RowKey: gen.String("3"), w: gen.Int32(2) });
    const { result } = await call<{ response: { isSuccessful: boolean; statusCode: number } }[]>((cb) =>
      service.executeBatch("LegacyBatch", good, cb),
    );
    expect(result.map((r) => r.response.isSuccessful)).toEqual([true, true, true]);
    const bad = new azure.TableBatch();
    bad.insertEntity({ PartitionKey: gen.String("b"), RowKey: gen.String("4") }, {});
    bad.insertEntity({ PartitionKey: gen.String("b"), RowKey: gen.String("1") }, {});
    const { result: failed } = await call<{ response: { isSuccessful: boolean; statusCode: number } }[]>(
      (cb) => service.executeBatch("LegacyBatch", bad, cb),
    ).catch((err: { statusCode?: number; code?: string }) => ({
      result: [{ response: { isSuccessful: false, statusCode: err.statusCode ?? 0 } }],
    }));
    expect(failed.some((r) => !r.response.isSuccessful && r.response.statusCode === 409)).toBe(true);
    expect(await failure((cb) => service.retrieveEntity("LegacyBatch", "b", "4", cb))).toMatchObject({
      status: 404,
    });
  });

  it("honours a SAS it generated with a key range", async () => {
    await call((cb) => service.createTable("LegacySas", cb));
    for (const pk of ["a", "b", "c"]) {
      await call((cb) =>
        service.insertEntity("LegacySas", { PartitionKey: gen.String(pk), RowKey: gen.String("1") }, cb),
      );
    }
    const sas = service.generateSharedAccessSignature("LegacySas", {
      AccessPolicy: {
        Permissions: "ra",
        Expiry: new Date(Date.now() + 3_600_000),
        StartPk: "b",
        EndPk: "b",
      },
    });
    const scoped = azure.createTableServiceWithSas(server.url, sas);
    const { result } = await call<azure.TableService.QueryEntitiesResult<Record<string, { _: string }>>>(
      (cb) => scoped.queryEntities("LegacySas", new azure.TableQuery(), null as never, cb),
    );
    expect(result.entries.map((e) => e.PartitionKey!._)).toEqual(["b"]);
    await call((cb) =>
      scoped.insertEntity("LegacySas", { PartitionKey: gen.String("b"), RowKey: gen.String("2") }, cb),
    );
    expect(
      await failure((cb) =>
        scoped.insertEntity("LegacySas", { PartitionKey: gen.String("c"), RowKey: gen.String("2") }, cb),
      ),
    ).toEqual({
      status: 403,
      code: "AuthorizationFailure",
    });
    expect(
      await failure((cb) =>
        scoped.deleteEntity("LegacySas", { PartitionKey: gen.String("b"), RowKey: gen.String("2") }, cb),
      ),
    ).toEqual({
      status: 403,
      code: "AuthorizationPermissionMismatch",
    });
  });
});
