/**
 * The azure backend (through `openStore("azure:…")`) against raw `@azure/data-tables` calls doing
 * the same work on the same Azurite, in the same run: inserts, point reads, paging through 10,000
 * entities, and 100-action transactions. Prints ops/s and tablekit's overhead (raw ops/s divided by
 * tablekit's; the target is at most 1.1x), and the client CPU per operation of each side, which a
 * busy machine disturbs less than wall-clock time. Starts and stops its own Azurite.
 * Run: npx tsx bench/azure.bench.ts
 */
import { TableClient } from "@azure/data-tables";
import { DateTime, openStore, type Table } from "../src/index.js";
import { startAzurite } from "../test/support/azurite.js";
import { rounds, sized } from "./support/bench-mode.js";
import { type VersusSdkCase, versusSdk } from "./support/versus-sdk.js";

const ROUNDS = rounds(11);
const INSERTS = sized(100, 5);
const READS = sized(100, 5);
const PAGED = sized(10_000, 200);
const TRANSACTIONS = sized(4, 1);

const server = await startAzurite();
try {
  const store = await openStore(server.storeUrl);
  const rawClient = (name: string) =>
    TableClient.fromConnectionString(server.tableConnectionString, name, { allowInsecureConnection: true });
  const rawInserts = rawClient("BenchRawInserts");
  const rawAnnotated = rawClient("BenchRawAnnotated");
  const rawPaging = rawClient("BenchRawPaging");
  const rawTx = rawClient("BenchRawTx");
  for (const name of [
    "BenchRawInserts",
    "BenchRawAnnotated",
    "BenchRawPaging",
    "BenchRawTx",
    "BenchTkInserts",
    "BenchTkPaging",
    "BenchTkTx",
  ]) {
    await store.createTable(name);
  }
  const tkInserts = store.table("BenchTkInserts");
  const tkPaging = store.table("BenchTkPaging");
  const tkTx = store.table("BenchTkTx");

  const rawEntity = (pk: string, rk: string) => ({
    partitionKey: pk,
    rowKey: rk,
    name: `customer ${rk}`,
    count: 42,
    total: 123.45,
    active: true,
    since: new Date("2024-01-02T03:04:05.678Z"),
    big: 9_007_199_254_740_993n,
  });
  // What tablekit sends: every property with its EDM type (the raw SDK annotates only bigint and Date).
  const annotatedEntity = (pk: string, rk: string) => ({
    partitionKey: pk,
    rowKey: rk,
    name: { value: `customer ${rk}`, type: "String" },
    count: { value: 42, type: "Int32" },
    total: { value: 123.45, type: "Double" },
    active: { value: true, type: "Boolean" },
    since: { value: "2024-01-02T03:04:05.6789012Z", type: "DateTime" },
    big: { value: "9007199254740993", type: "Int64" },
  });
  const tkEntity = (pk: string, rk: string) => ({
    ...rawEntity(pk, rk),
    since: DateTime.parse("2024-01-02T03:04:05.6789012Z"),
  });
  const rk = (round: number, i: number) => `${String(round).padStart(2, "0")}-${String(i).padStart(6, "0")}`;

  // Paging data: the same 10,000 entities in each table, written in 100-action transactions.
  for (let i = 0; i < PAGED; i += 100) {
    const pk = `p${Math.floor(i / 1000)}`;
    const batch = Array.from({ length: 100 }, (_, j) => rk(0, i + j));
    await rawPaging.submitTransaction(batch.map((r) => ["create", rawEntity(pk, r)]));
    await tkPaging.submitTransaction(batch.map((r) => ["create", tkEntity(pk, r)] as const));
  }

  const scan = async (pages: AsyncIterable<unknown[]>) => {
    let n = 0;
    for await (const page of pages) n += page.length;
    if (n !== PAGED) throw new Error(`expected ${PAGED} entities, read ${n}`);
  };
  const txBatch = (round: number, t: number) => Array.from({ length: 100 }, (_, j) => rk(round, t * 100 + j));

  const cases: Omit<VersusSdkCase, "rounds">[] = [
    {
      name: "insert (createEntity)",
      ops: INSERTS,
      raw: async (round) => {
        for (let i = 0; i < INSERTS; i++) await rawInserts.createEntity(rawEntity("p", rk(round, i)));
      },
      tablekit: async (round) => {
        for (let i = 0; i < INSERTS; i++) await tkInserts.createEntity(tkEntity("p", rk(round, i)));
      },
    },
    {
      name: "insert; the raw SDK annotating every property too",
      ops: INSERTS,
      raw: async (round) => {
        for (let i = 0; i < INSERTS; i++) await rawAnnotated.createEntity(annotatedEntity("p", rk(round, i)));
      },
      tablekit: async (round) => {
        for (let i = 0; i < INSERTS; i++) await tkInserts.createEntity(tkEntity("q", rk(round, i)));
      },
    },
    {
      name: "point read (getEntity)",
      ops: READS,
      raw: async () => {
        for (let i = 0; i < READS; i++) await rawInserts.getEntity("p", rk(0, i));
      },
      tablekit: async () => {
        for (let i = 0; i < READS; i++) await tkInserts.getEntity("p", rk(0, i));
      },
    },
    {
      name: `paging ${PAGED.toLocaleString("en-US")} entities (pages of 1,000)`,
      ops: PAGED,
      raw: () => scan(rawPaging.listEntities().byPage({ maxPageSize: 1000 })),
      tablekit: () => scan((tkPaging as Table).listEntities().byPage({ maxPageSize: 1000 })),
    },
    {
      name: "100-action transaction (creates)",
      ops: TRANSACTIONS,
      raw: async (round) => {
        for (let t = 0; t < TRANSACTIONS; t++) {
          await rawTx.submitTransaction(txBatch(round, t).map((r) => ["create", rawEntity("p", r)]));
        }
      },
      tablekit: async (round) => {
        for (let t = 0; t < TRANSACTIONS; t++) {
          await tkTx.submitTransaction(txBatch(round, t).map((r) => ["create", tkEntity("p", r)] as const));
        }
      },
    },
  ];

  const rows = await versusSdk(cases.map((c) => ({ ...c, rounds: ROUNDS })));
  console.log(
    `\nazure backend vs raw @azure/data-tables on Azurite (median of ${ROUNDS} rounds; target overhead <= 1.10x)`,
  );
  console.table(rows);
  await store.close();
} finally {
  await server.stop();
}
