import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  ScanCommand,
  type ScanCommandInput,
} from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DateTime, openStore, type Store, utf8ItemSize } from "../../../src/index.js";
import { normalizeEntity } from "../../../src/model/index.js";
import { connect, parseLocation } from "../../../src/store/backends/dynamodb/connection.js";
import { layoutReserve } from "../../../src/store/backends/dynamodb/table-capabilities.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../support/dynamodb-local.js";
import { expectCode } from "../../support/expect-code.js";
import { filterOnServerTests } from "./filter-on-server.js";

let server: DynamoDbLocal;
let store: Store;
let raw: DynamoDBClient;

beforeAll(async () => {
  server = await startDynamoDbLocal();
  store = await openStore(`${server.storeUrl}?prefix=tk_`);
  raw = new DynamoDBClient(server.clientConfig);
});

afterAll(async () => {
  raw?.destroy();
  await store?.close();
  await server?.stop();
});

let tableCount = 0;
async function freshTable() {
  const t = store.table(`backend${++tableCount}x`);
  await t.createTable();
  return t;
}

describe("dynamodb backend on DynamoDB Local", () => {
  filterOnServerTests(() => ({
    store,
    rawScan: async (tableName, filterExpression, placeholders) => {
      const items: Record<string, unknown>[] = [];
      let start: ScanCommandInput["ExclusiveStartKey"];
      do {
        const page = await raw.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: filterExpression,
            ExclusiveStartKey: start,
            ...placeholders,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
  }));

  it("tablekit's own client leaves out the SDK's logger middleware; a caller's client is kept as it is", async () => {
    const names = (client: unknown) =>
      (client as { middlewareStack: { identify(): string[] } }).middlewareStack.identify();
    const logger = (name: string) => name.startsWith("loggerMiddleware");
    const own = await connect(parseLocation("//127.0.0.1:1", {}));
    const theirs = new DynamoDBClient({ region: "us-east-1" });
    const given = await connect(parseLocation("", { client: theirs }));
    // The SDK still names it so (else removing it by name would silently stop working).
    expect(names(theirs).some(logger)).toBe(true);
    expect(names(own.api.client).some(logger)).toBe(false);
    expect(names(own.api.client).length).toBe(names(theirs).length - 1);
    expect(given.api.client).toBe(theirs);
    own.api.client.destroy?.();
    theirs.destroy();
  });

  it("stores empty keys escaped (DynamoDB rejects empty key strings) and reads them back", async () => {
    const t = await freshTable();
    await t.createEntity({ partitionKey: "", rowKey: "", v: 1 });
    const { Item } = await raw.send(
      new GetItemCommand({
        TableName: `tk_${t.tableName.toLowerCase()}`,
        Key: { PartitionKey: { S: "\u0001" }, RowKey: { S: "\u0001" } },
      }),
    );
    expect(Item?.v).toEqual({ N: "1" });
    expect((await t.getEntity("", "")).v).toBe(1);
  });

  it("keeps an entity's Timestamp strictly increasing when another writer's clock is ahead", async () => {
    const t = await freshTable();
    const future = DateTime.parse("2100-01-01T00:00:00.0000000Z");
    await raw.send(
      new PutItemCommand({
        TableName: `tk_${t.tableName.toLowerCase()}`,
        Item: {
          PartitionKey: { S: "p" },
          RowKey: { S: "r" },
          Timestamp: { S: future.toISOString() },
          v: { S: "from the future" },
        },
      }),
    );
    const seen = [future.ticks];
    for (const write of [
      () => t.upsertEntity({ partitionKey: "p", rowKey: "r", v: "replace" }, "Replace"),
      () => t.upsertEntity({ partitionKey: "p", rowKey: "r", w: 1 }, "Merge"),
      () => t.updateEntity({ partitionKey: "p", rowKey: "r", v: "star" }, "Replace"),
      async () => {
        const { etag } = await t.getEntity("p", "r");
        return t.updateEntity({ partitionKey: "p", rowKey: "r", v: "etag" }, "Replace", { etag });
      },
    ]) {
      const { timestamp } = await write();
      const ticks = DateTime.parse(timestamp).ticks;
      expect(ticks).toBeGreaterThan(seen.at(-1)!);
      seen.push(ticks);
    }
    expect(seen.at(-1)! - future.ticks).toBe(4n);
  });

  it("an entity at limits.maxItemBytes with the layout's worst case (many DateTimes) fits; one byte more is EntityTooLarge", async () => {
    const t = await freshTable();
    const limits = store.capabilities.limits;
    const max = limits.maxItemBytes!;
    expect(max).toBe(400 * 1024 - layoutReserve(limits.maxProperties));
    const entity: Record<string, unknown> = { partitionKey: "", rowKey: "" };
    // DateTime costs the layout the most beyond utf8ItemSize; fill the rest with Binary.
    for (let i = 0; i < limits.maxProperties - 8; i++)
      entity[`d${i}`] = DateTime.fromTicks(BigInt(i) + 10n ** 17n * 6n);
    const size = () => utf8ItemSize(normalizeEntity(entity, { ...limits, maxItemBytes: undefined }));
    for (let i = 0; i < 8; i++) entity[`b${i}`] = new Uint8Array(0);
    let left = max - size();
    for (let i = 0; i < 8 && left > 0; i++) {
      const n = Math.min(left, limits.maxBinaryBytes);
      entity[`b${i}`] = new Uint8Array(n).fill(i);
      left -= n;
    }
    expect(size()).toBe(max);
    await t.createEntity(entity as never);
    expect(Object.keys(await t.getEntity("", ""))).toHaveLength(limits.maxProperties + 4);
    await expectCode(
      t.upsertEntity({ ...entity, b7: new Uint8Array((entity.b7 as Uint8Array).length + 1) } as never),
      "EntityTooLarge",
    );
  });

  it("a key of 1,024 UTF-8 bytes in three-byte characters is accepted; one byte more is KeyValueTooLarge", async () => {
    const t = await freshTable();
    const key = `a${"€".repeat(341)}`; // 1 + 1,023 bytes
    expect(Buffer.byteLength(key)).toBe(1024);
    await t.createEntity({ partitionKey: key, rowKey: key });
    expect((await t.getEntity(key, key)).rowKey).toBe(key);
    await expectCode(t.createEntity({ partitionKey: "p", rowKey: `a${key}` }), "KeyValueTooLarge");
    await expectCode(t.createEntity({ partitionKey: `a${key}`, rowKey: "r" }), "KeyValueTooLarge");
  });

  it("a transaction past DynamoDB's 4 MiB (UTF-8) is past the 4 MiB request body first: RequestBodyTooLarge, nothing written", async () => {
    const t = await freshTable();
    const text = "€".repeat(32_768); // 64 KiB by Azure's formula, 96 KiB in UTF-8
    const entities = Array.from({ length: 11 }, (_, i) => ({
      partitionKey: "p",
      rowKey: `r${i}`,
      a: text,
      b: text,
      c: text,
      d: text,
    }));
    await expectCode(t.submitTransaction(entities.map((e) => ["create", e])), "RequestBodyTooLarge");
    const left: unknown[] = [];
    for await (const e of t.listEntities()) left.push(e);
    expect(left).toEqual([]);
    await t.submitTransaction(entities.slice(0, 10).map((e) => ["create", e]));
  });

  it("filters compare strings by UTF-16 code units, as the service does, though keys sort by UTF-8 bytes", async () => {
    const t = await freshTable();
    for (const [rk, v] of [
      ["astral", "😀"],
      ["pua", "\ue000"],
    ]) {
      await t.createEntity({ partitionKey: "p", rowKey: rk!, v });
      await t.createEntity({ partitionKey: v!, rowKey: rk!, v });
    }
    const rowKeys = async (filter: string) => {
      const out: string[] = [];
      for await (const e of t.listEntities({ queryOptions: { filter } }))
        out.push(`${e.partitionKey}/${e.rowKey}`);
      return out;
    };
    expect(await rowKeys("PartitionKey eq 'p' and v lt '\ue000'")).toEqual(["p/astral"]);
    expect(await rowKeys("PartitionKey eq 'p' and v gt '😀'")).toEqual(["p/pua"]);
    // Across partitions: results in UTF-8 key order ("p", then "\ue000", then "😀"), while the
    // filter still compares by UTF-16 code units ("😀" is below "\ue000" there).
    expect(await rowKeys("v ge ''")).toEqual(["p/astral", "p/pua", "\ue000/pua", "😀/astral"]);
    expect(await rowKeys("PartitionKey lt '\ue000'")).toEqual(["p/astral", "p/pua", "😀/astral"]);
  });

  it("a continuation token made for another query is InvalidContinuationToken", async () => {
    const t = await freshTable();
    for (const pk of ["a", "b", "c"]) await t.createEntity({ partitionKey: pk, rowKey: "r" });
    const pages = t
      .listEntities({
        queryOptions: { filter: "PartitionKey eq 'a' or PartitionKey eq 'b' or PartitionKey eq 'c'" },
      })
      .byPage({ maxPageSize: 1 });
    const first = (await pages.next()).value;
    const second = (await pages.next()).value;
    expect(second.continuationToken).toBeDefined();
    const other = t.listEntities({ queryOptions: { filter: "PartitionKey eq 'a'" } });
    await expectCode(
      other.byPage({ continuationToken: second.continuationToken }).next(),
      "InvalidContinuationToken",
    );
    expect(first).toHaveLength(1);
  });

  it("with no time budget, pages end early but every entity still comes back once, in order", async () => {
    const t = await freshTable();
    const keys: string[] = [];
    for (let i = 0; i < 30; i++) keys.push(String(i).padStart(2, "0"));
    for (let i = 0; i < keys.length; i += 10) {
      await t.submitTransaction(
        keys
          .slice(i, i + 10)
          .map((k) => ["create", { partitionKey: "p", rowKey: k, even: Number(k) % 2 === 0 }]),
      );
    }
    const hurried = await openStore(`${server.storeUrl}?prefix=tk_`, { limits: { pageTimeBudgetMs: 0 } });
    try {
      const found: string[] = [];
      let pages = 0;
      const filter = "PartitionKey eq 'p' and even eq true";
      for await (const page of hurried
        .table(t.tableName)
        .listEntities({ queryOptions: { filter } })
        .byPage({ maxPageSize: 4 })) {
        pages++;
        found.push(...page.map((e) => e.rowKey!));
      }
      expect(found).toEqual(keys.filter((k) => Number(k) % 2 === 0));
      expect(pages).toBeGreaterThan(1);
    } finally {
      await hurried.close();
    }
  });

  it("table prefixes keep stores apart on one server; listTables returns names as created", async () => {
    const other = await openStore(`${server.storeUrl}?prefix=other_`);
    try {
      await other.createTable("MixedCase");
      const names = async (s: Store) => {
        const out: string[] = [];
        for await (const t of s.listTables()) out.push(t.name);
        return out;
      };
      expect(await names(other)).toEqual(["MixedCase"]);
      expect(await names(store)).not.toContain("MixedCase");
      await expectCode(other.createTable("MIXEDCASE", { failIfExists: true }), "TableAlreadyExists");
      // A table of another tool under the same prefix, with other keys, is not listed.
      await raw.send(
        new CreateTableCommand({
          TableName: "other_notours",
          KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
          AttributeDefinitions: [{ AttributeName: "id", AttributeType: "N" }],
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
      expect(await names(other)).toEqual(["MixedCase"]);
      await other.deleteTable("mixedcase");
      expect(await names(other)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
