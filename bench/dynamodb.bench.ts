/**
 * The dynamodb backend (through `openStore("dynamodb:…")`) against raw `@aws-sdk/client-dynamodb`
 * calls doing the same work on the same DynamoDB Local, in the same run: inserts, point reads,
 * paging through 10,000 entities of one partition, and 100-action transactions. The last rows list
 * 10,000 entities across 10 partitions in key order: tablekit walks its partition catalogue and
 * Queries each partition; the raw baseline is the hand-written equivalent for an application that
 * knows its partitions (a Query per partition, in order), and, for scale, a raw Scan that reads
 * everything once, unordered. Starts and stops its own DynamoDB Local.
 *
 * What the raw side does, so that both do the same work:
 * - its items are byte for byte the items tablekit writes (the same attributes: `Timestamp`, and
 *   the type in the names of the Int64, Double and DateTime properties), so the server and the
 *   SDK handle the same data; its writes are the same conditional puts (create only);
 * - its reads turn every item into a plain object, as an application does before using it: keys,
 *   strings and the Timestamp as they are, `Number` for the numbers, `BigInt` for the Int64, the
 *   boolean, and the date as its ISO text (tablekit returns a `DateTime`, which costs more);
 * - its client is configured as tablekit's own: the SDK's logger middleware removed (see
 *   docs/dynamodb.md). With a default client the raw side pays about 6 µs more per entity read.
 *
 * Prints, per row, ops/s and tablekit's overhead (raw ops/s divided by tablekit's; the target is at
 * most 1.1x), the client CPU per operation of each side, DynamoDB Local's CPU per operation for
 * each side, and the ratio of client plus server CPU: on a loaded machine the wall clock swings,
 * and client plus server CPU is what it comes to on a quiet one.
 * Run: npx tsx bench/dynamodb.bench.ts
 */
import {
  type AttributeValue,
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
} from "@aws-sdk/client-dynamodb";
import { DateTime, openStore } from "../src/index.js";
import { startDynamoDbLocal } from "../test/support/dynamodb-local.js";
import { rounds, sized } from "./support/bench-mode.js";
import { processTreeCpuMicros } from "./support/process-cpu.js";
import { type VersusSdkCase, versusSdk } from "./support/versus-sdk.js";

const ROUNDS = rounds(11);
const INSERTS = sized(100, 5);
const READS = sized(100, 5);
const PAGED = sized(10_000, 200);
const TRANSACTIONS = sized(4, 1);
const LISTING_ROUNDS = rounds(9);
const WARM_UP_READS = sized(300, 5);
const WIDE_PARTITIONS = Array.from({ length: 10 }, (_, i) => `p${i}`);

const server = await startDynamoDbLocal();
try {
  const store = await openStore(server.storeUrl);
  const client = new DynamoDBClient(server.clientConfig);
  client.middlewareStack.remove("loggerMiddleware");
  for (const name of ["BenchRawInserts", "BenchRawPaging", "BenchRawTx", "BenchRawWide"]) {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        KeySchema: [
          { AttributeName: "PartitionKey", KeyType: "HASH" },
          { AttributeName: "RowKey", KeyType: "RANGE" },
        ],
        AttributeDefinitions: [
          { AttributeName: "PartitionKey", AttributeType: "S" },
          { AttributeName: "RowKey", AttributeType: "S" },
        ],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
  }
  for (const name of ["BenchTkInserts", "BenchTkPaging", "BenchTkTx", "BenchTkWide"])
    await store.createTable(name);
  const tkInserts = store.table("BenchTkInserts");
  const tkPaging = store.table("BenchTkPaging");
  const tkTx = store.table("BenchTkTx");
  const tkWide = store.table("BenchTkWide");

  // The item tablekit writes for tkEntity (docs/dynamodb.md, "The mapping").
  const rawItem = (pk: string, rk: string): Record<string, AttributeValue> => ({
    PartitionKey: { S: pk },
    RowKey: { S: rk },
    Timestamp: { S: DateTime.now().toISOString() },
    name: { S: `customer ${rk}` },
    count: { N: "42" },
    "total@Double": { N: "123.45" },
    active: { BOOL: true },
    "since@DateTime": { S: "2024-01-02T03:04:05.6789012Z" },
    "big@Int64": { N: "9007199254740993" },
  });
  /** What an application makes of an item before using it. */
  const rawEntity = (item: Record<string, AttributeValue>) => ({
    partitionKey: item.PartitionKey!.S!,
    rowKey: item.RowKey!.S!,
    timestamp: item.Timestamp!.S!,
    name: item.name!.S!,
    count: Number(item.count!.N),
    total: Number(item["total@Double"]!.N),
    active: item.active!.BOOL!,
    since: item["since@DateTime"]!.S!,
    big: BigInt(item["big@Int64"]!.N!),
  });
  const tkEntity = (pk: string, rk: string) => ({
    partitionKey: pk,
    rowKey: rk,
    name: `customer ${rk}`,
    count: 42,
    total: 123.45,
    active: true,
    since: DateTime.parse("2024-01-02T03:04:05.6789012Z"),
    big: 9_007_199_254_740_993n,
  });
  const rk = (round: number, i: number) => `${String(round).padStart(2, "0")}-${String(i).padStart(6, "0")}`;
  const createOnly = { ConditionExpression: "attribute_not_exists(PartitionKey)" };
  const rawTransaction = (table: string, pk: string, rows: string[]) =>
    client.send(
      new TransactWriteItemsCommand({
        TransactItems: rows.map((r) => ({ Put: { TableName: table, Item: rawItem(pk, r), ...createOnly } })),
      }),
    );

  // Paging data: the same 10,000 entities in each table, written in 100-action transactions;
  // one partition for the Query case, ten for the listing across partitions.
  for (let i = 0; i < PAGED; i += 100) {
    const batch = Array.from({ length: 100 }, (_, j) => rk(0, i + j));
    const wide = `p${Math.floor(i / 1000)}`;
    await rawTransaction("BenchRawPaging", "p", batch);
    await rawTransaction("BenchRawWide", wide, batch);
    await tkPaging.submitTransaction(batch.map((r) => ["create", tkEntity("p", r)] as const));
    await tkWide.submitTransaction(batch.map((r) => ["create", tkEntity(wide, r)] as const));
  }

  const count = (n: number) => {
    if (n !== PAGED) throw new Error(`expected ${PAGED} entities, read ${n}`);
  };
  const tkPages = async (pages: AsyncIterable<unknown[]>) => {
    let n = 0;
    for await (const page of pages) n += page.length;
    count(n);
  };
  /** The entities of a page of items, as the application uses them. */
  const rawPage = (items: Record<string, AttributeValue>[] | undefined) => (items ?? []).map(rawEntity);
  const rawPages = async (
    read: (start?: Record<string, AttributeValue>) => Promise<{
      Items?: Record<string, AttributeValue>[];
      LastEvaluatedKey?: Record<string, AttributeValue>;
    }>,
  ) => {
    let n = 0;
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await read(start);
      n += rawPage(page.Items).length;
      start = page.LastEvaluatedKey;
    } while (start);
    count(n);
  };
  /** An ordered listing by hand: each partition in turn, paged with `limit`. */
  const rawOrdered = async (limit: number) => {
    let n = 0;
    for (const pk of WIDE_PARTITIONS) {
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: "BenchRawWide",
            KeyConditionExpression: "PartitionKey = :p",
            ExpressionAttributeValues: { ":p": { S: pk } },
            ExclusiveStartKey: start,
            Limit: limit,
            ConsistentRead: true,
          }),
        );
        n += rawPage(page.Items).length;
        start = page.LastEvaluatedKey;
      } while (start);
    }
    count(n);
  };
  const txBatch = (round: number, t: number) => Array.from({ length: 100 }, (_, j) => rk(round, t * 100 + j));

  const cases: VersusSdkCase[] = [
    {
      name: "insert (createEntity / conditional PutItem)",
      ops: INSERTS,
      rounds: ROUNDS,
      raw: async (round) => {
        for (let i = 0; i < INSERTS; i++) {
          await client.send(
            new PutItemCommand({
              TableName: "BenchRawInserts",
              Item: rawItem("p", rk(round, i)),
              ...createOnly,
            }),
          );
        }
      },
      tablekit: async (round) => {
        for (let i = 0; i < INSERTS; i++) await tkInserts.createEntity(tkEntity("p", rk(round, i)));
      },
    },
    {
      name: "point read (getEntity / consistent GetItem)",
      ops: READS,
      rounds: ROUNDS,
      raw: async () => {
        for (let i = 0; i < READS; i++) {
          const { Item } = await client.send(
            new GetItemCommand({
              TableName: "BenchRawInserts",
              Key: { PartitionKey: { S: "p" }, RowKey: { S: rk(0, i) } },
              ConsistentRead: true,
            }),
          );
          rawEntity(Item!);
        }
      },
      tablekit: async () => {
        for (let i = 0; i < READS; i++) await tkInserts.getEntity("p", rk(0, i));
      },
    },
    {
      name: `paging ${PAGED.toLocaleString("en-US")} entities of one partition (pages of 1,000)`,
      ops: PAGED,
      rounds: ROUNDS,
      raw: () =>
        rawPages((start) =>
          client.send(
            new QueryCommand({
              TableName: "BenchRawPaging",
              KeyConditionExpression: "PartitionKey = :p",
              ExpressionAttributeValues: { ":p": { S: "p" } },
              ExclusiveStartKey: start,
              Limit: 1000,
              ConsistentRead: true,
            }),
          ),
        ),
      tablekit: () =>
        tkPages(
          tkPaging
            .listEntities({ queryOptions: { filter: "PartitionKey eq 'p'" } })
            .byPage({ maxPageSize: 1000 }),
        ),
    },
    {
      name: "100-action transaction (creates)",
      ops: TRANSACTIONS,
      rounds: ROUNDS,
      raw: async (round) => {
        for (let t = 0; t < TRANSACTIONS; t++) await rawTransaction("BenchRawTx", "p", txBatch(round, t));
      },
      tablekit: async (round) => {
        for (let t = 0; t < TRANSACTIONS; t++) {
          await tkTx.submitTransaction(txBatch(round, t).map((r) => ["create", tkEntity("p", r)] as const));
        }
      },
    },
    {
      name: `listing ${PAGED.toLocaleString("en-US")} entities of 10 partitions in key order (pages of 1,000)`,
      ops: PAGED,
      rounds: LISTING_ROUNDS,
      raw: () => rawOrdered(1000),
      tablekit: () => tkPages(tkWide.listEntities().byPage({ maxPageSize: 1000 })),
    },
    {
      name: `listing ${PAGED.toLocaleString("en-US")} entities of 10 partitions in key order (pages of 100)`,
      ops: PAGED,
      rounds: LISTING_ROUNDS,
      raw: () => rawOrdered(100),
      tablekit: () => tkPages(tkWide.listEntities().byPage({ maxPageSize: 100 })),
    },
    {
      name: `listing ${PAGED.toLocaleString("en-US")} entities of 10 partitions (ordered vs raw unordered Scan)`,
      ops: PAGED,
      rounds: LISTING_ROUNDS,
      raw: () =>
        rawPages((start) =>
          client.send(
            new ScanCommand({
              TableName: "BenchRawWide",
              ExclusiveStartKey: start,
              Limit: 1000,
              ConsistentRead: true,
            }),
          ),
        ),
      tablekit: () => tkPages(tkWide.listEntities().byPage({ maxPageSize: 1000 })),
    },
  ];

  // Warm both client paths and the server's JIT before measuring anything: the first rows
  // otherwise measure the compiler as much as the code.
  for (let i = 0; i < WARM_UP_READS; i++) {
    await tkInserts.createEntity(tkEntity("warm", `up${i}`));
    await client.send(
      new PutItemCommand({ TableName: "BenchRawInserts", Item: rawItem("warm", `up${i}`), ...createOnly }),
    );
  }
  for (let i = 0; i < WARM_UP_READS; i++) {
    await tkInserts.getEntity("warm", "up0");
    await client.send(
      new GetItemCommand({
        TableName: "BenchRawInserts",
        Key: { PartitionKey: { S: "warm" }, RowKey: { S: "up0" } },
        ConsistentRead: true,
      }),
    );
  }

  const rows = await versusSdk(cases, { serverCpu: () => processTreeCpuMicros(server.pid) });
  console.log(
    `\ndynamodb backend vs raw @aws-sdk/client-dynamodb on DynamoDB Local (median of ${ROUNDS} rounds, ${LISTING_ROUNDS} for the listings; target overhead <= 1.10x)`,
  );
  console.table(rows);
  client.destroy();
  await store.close();
} finally {
  await server.stop();
}
