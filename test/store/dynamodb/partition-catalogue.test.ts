import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { odata, openStore, type Store, type Table } from "../../../src/index.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../support/dynamodb-local.js";

/**
 * Listings across partitions walk the partition catalogue (one marker item per PartitionKey) and
 * Query each partition in turn: they read each entity about once, whatever the page size.
 */

let server: DynamoDbLocal;
let store: Store;
let raw: DynamoDBClient;
/** Items DynamoDB examined (ScannedCount of every Query and Scan) since the last reset. */
let itemsRead = 0;

beforeAll(async () => {
  server = await startDynamoDbLocal();
  // A client of our own, so every read's ScannedCount can be summed.
  const client = new DynamoDBClient(server.clientConfig);
  const send = client.send.bind(client) as (command: unknown, options?: unknown) => Promise<unknown>;
  (client as { send: unknown }).send = async (command: unknown, options?: unknown) => {
    const output = (await send(command, options)) as { ScannedCount?: number };
    itemsRead += output.ScannedCount ?? 0;
    return output;
  };
  store = await openStore("dynamodb:", { client, tablePrefix: "pc_" });
  raw = new DynamoDBClient(server.clientConfig);
});

afterAll(async () => {
  raw?.destroy();
  await store?.close();
  await server?.stop();
});

let tableCount = 0;
async function freshTable(): Promise<Table> {
  const t = store.table(`partitions${++tableCount}x`);
  await t.createTable();
  return t;
}

const pad = (n: number) => String(n).padStart(4, "0");

async function listAll(table: Table, maxPageSize: number, filter?: string) {
  const keys: string[] = [];
  let pages = 0;
  const queryOptions = filter ? { filter } : undefined;
  for await (const page of table.listEntities({ queryOptions }).byPage({ maxPageSize })) {
    pages++;
    expect(page.length).toBeLessThanOrEqual(maxPageSize);
    for (const e of page) keys.push(`${e.partitionKey}/${e.rowKey}`);
  }
  return { keys, pages };
}

async function rawItems(tableName: string) {
  const out = await raw.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
  return out.Items ?? [];
}

describe("dynamodb partition catalogue", () => {
  it("lists 2,000 entities of 40 partitions in pages of 50 reading O(N) items, in key order", async () => {
    const table = await freshTable();
    const expected: string[] = [];
    for (let p = 0; p < 40; p++) {
      const pk = `p${pad(p)}`;
      await table.submitTransaction(
        Array.from(
          { length: 50 },
          (_, r) => ["create", { partitionKey: pk, rowKey: `r${pad(r)}`, r }] as const,
        ),
      );
      for (let r = 0; r < 50; r++) expected.push(`${pk}/r${pad(r)}`);
    }
    itemsRead = 0;
    const { keys, pages } = await listAll(table, 50);
    expect(keys).toEqual(expected);
    expect(pages).toBeGreaterThanOrEqual(40);
    console.log(`items read listing 2,000 entities in pages of 50: ${itemsRead}`);
    // Each entity once, plus at most one look-ahead item per page, plus the 40 markers (read at
    // most twice): the old Scan per page read 40 × 2,000.
    expect(itemsRead).toBeLessThanOrEqual(2 * 2000 + 40);
  });

  it("markers never show up in listings, filters or table lists, even for emptied partitions", async () => {
    const table = await freshTable();
    await table.createEntity({ partitionKey: "", rowKey: "", n: 1 });
    await table.createEntity({ partitionKey: "a", rowKey: "1", n: 2 });
    await table.createEntity({ partitionKey: "b", rowKey: "1", n: 3 });
    await table.createEntity({ partitionKey: "c", rowKey: "1", n: 4 });
    await table.deleteEntity("b", "1");
    const all = await listAll(table, 1);
    expect(all.keys).toEqual(["/", "a/1", "c/1"]);
    expect((await listAll(table, 1000)).keys).toEqual(["/", "a/1", "c/1"]);
    expect((await listAll(table, 2, "n ge 0")).keys).toEqual(["/", "a/1", "c/1"]);
    expect((await listAll(table, 5, odata`PartitionKey gt ${""} and PartitionKey le ${"b"}`)).keys).toEqual([
      "a/1",
    ]);
    expect((await listAll(table, 5, odata`PartitionKey ge ${"b"}`)).keys).toEqual(["c/1"]);
    expect((await listAll(table, 5, "RowKey eq '1'")).keys).toEqual(["a/1", "c/1"]);
    const names: string[] = [];
    for await (const t of store.listTables()) names.push(t.name);
    expect(names).toContain(`partitions${tableCount}x`);
    expect(names.every((n) => /^partitions\d+x$/.test(n))).toBe(true);
    // The markers are there (one per partition ever written, the emptied one too): they are simply
    // never returned.
    const items = await rawItems(`pc_partitions${tableCount}x`);
    const markers = items.filter((i) => i.PartitionKey?.S === "\u0001~partitions");
    expect(markers.map((m) => m.RowKey?.S)).toEqual(["\u0001", "a", "b", "c"]);
  });

  it("every write path that can create an entity records its partition, also from a fresh process", async () => {
    const table = await freshTable();
    const name = `partitions${tableCount}x`;
    // Each write through its own store: no cache of known partitions to lean on.
    const writes: ((t: Table) => Promise<unknown>)[] = [
      (t) => t.createEntity({ partitionKey: "create", rowKey: "r" }),
      (t) => t.upsertEntity({ partitionKey: "upsertmerge", rowKey: "r" }, "Merge"),
      (t) => t.upsertEntity({ partitionKey: "upsertreplace", rowKey: "r" }, "Replace"),
      (t) => t.submitTransaction([["create", { partitionKey: "txcreate", rowKey: "r" }]]),
      (t) =>
        t.submitTransaction([
          ["create", { partitionKey: "txmany", rowKey: "a" }],
          ["upsert", { partitionKey: "txmany", rowKey: "b" }, "Merge"],
        ]),
      (t) => t.submitTransaction([["upsert", { partitionKey: "txupsert", rowKey: "r" }, "Replace"]]),
    ];
    for (const write of writes) {
      const other = await openStore(server.storeUrl, { tablePrefix: "pc_" });
      await write(other.table(name));
      await other.close();
    }
    expect((await listAll(table, 2)).keys).toEqual([
      "create/r",
      "txcreate/r",
      "txmany/a",
      "txmany/b",
      "txupsert/r",
      "upsertmerge/r",
      "upsertreplace/r",
    ]);
  });

  it("with no time budget, a listing across partitions ends pages early yet returns every entity once, in order", async () => {
    const table = await freshTable();
    const expected: string[] = [];
    for (let p = 0; p < 6; p++) {
      // Partitions 1 and 4 end up empty: their markers stay, their pages come back empty.
      const rows = p === 1 || p === 4 ? 0 : 3;
      await table.createEntity({ partitionKey: `p${p}`, rowKey: "gone" });
      await table.deleteEntity(`p${p}`, "gone");
      for (let r = 0; r < rows; r++) {
        await table.createEntity({ partitionKey: `p${p}`, rowKey: `r${r}` });
        expected.push(`p${p}/r${r}`);
      }
    }
    const hurried = await openStore(server.storeUrl, { tablePrefix: "pc_", limits: { pageTimeBudgetMs: 0 } });
    try {
      const { keys, pages } = await listAll(hurried.table(table.tableName), 1000);
      expect(keys).toEqual(expected);
      expect(pages).toBeGreaterThan(1);
    } finally {
      await hurried.close();
    }
    expect((await listAll(table, 1000)).pages).toBe(1);
  });

  it("partition ranges bounded on either side resume at every page size, up to and past their bounds", async () => {
    const table = await freshTable();
    const all: string[] = [];
    for (const pk of ["", "p0", "p1"]) {
      for (const rk of ["", "a", "b", "c"]) {
        await table.createEntity({ partitionKey: pk, rowKey: rk });
        all.push(`${pk}/${rk}`);
      }
    }
    const within = (lo: (pk: string) => boolean) => all.filter((k) => lo(k.slice(0, k.indexOf("/"))));
    const cases: [string, string[]][] = [
      ["PartitionKey le 'p0'", within((pk) => pk <= "p0")],
      ["PartitionKey lt 'p1'", within((pk) => pk < "p1")],
      ["PartitionKey ge 'p0'", within((pk) => pk >= "p0")],
      ["PartitionKey gt '' and PartitionKey lt 'p1'", within((pk) => pk > "" && pk < "p1")],
      ["PartitionKey gt 'p0' and PartitionKey le 'p1'", within((pk) => pk > "p0" && pk <= "p1")],
      ["PartitionKey gt 'p0' and PartitionKey lt 'p1'", []],
    ];
    for (const [filter, expected] of cases) {
      for (const size of [1, 3, 4, 5])
        expect((await listAll(table, size, filter)).keys, filter).toEqual(expected);
    }
  });

  it("a continuation from a listing across partitions is InvalidContinuationToken for a query it cannot belong to", async () => {
    const table = await freshTable();
    for (const pk of ["a", "b", "c"]) await table.createEntity({ partitionKey: pk, rowKey: "r" });
    // Pages of one end after a whole partition: the token names that partition.
    const pages = table.listEntities().byPage({ maxPageSize: 1 });
    const first = (await pages.next()).value;
    expect(first.map((e: { partitionKey?: string }) => e.partitionKey)).toEqual(["a"]);
    const token = first.continuationToken;
    expect(token).toBeDefined();
    const rest: string[] = [];
    for await (const page of table.listEntities().byPage({ maxPageSize: 1, continuationToken: token }))
      rest.push(...page.map((e) => e.partitionKey!));
    expect(rest).toEqual(["b", "c"]);
    const onePartition = table.listEntities({ queryOptions: { filter: "PartitionKey eq 'a'" } });
    const elsewhere = table.listEntities({ queryOptions: { filter: "PartitionKey gt 'b'" } });
    for (const query of [onePartition, elsewhere]) {
      await expect(query.byPage({ continuationToken: token }).next()).rejects.toMatchObject({
        code: "InvalidContinuationToken",
      });
    }
  });

  it("a re-created table starts with an empty catalogue, and this store writes markers again", async () => {
    const table = await freshTable();
    await table.createEntity({ partitionKey: "p", rowKey: "r" });
    await table.deleteTable();
    await table.createTable();
    await table.createEntity({ partitionKey: "p", rowKey: "s" });
    expect((await listAll(table, 10)).keys).toEqual(["p/s"]);
  });
});
