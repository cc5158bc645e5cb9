/**
 * The work `bench/store.bench.ts` measures, shared with `bench/store-profile.ts` (which runs one
 * row on one side, for `node --cpu-prof` or valgrind): the entities, raw better-sqlite3 doing the
 * same work as the store, and each row's operation on both sides.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { odata, openStore, type Table } from "../../src/index.js";
import { FILE_PRAGMAS } from "../../src/store/backends/embedded/connection.js";
import { fileBackend } from "../../src/store/backends/embedded/index.js";

export const rowKey = (i: number) => String(i).padStart(10, "0");
const properties = (i: number) => ({
  name: `Customer number ${i}`,
  email: `customer${i}@example.com`,
  age: 20 + (i % 60),
  score: i * 0.5 + 0.25,
  active: i % 2 === 0,
});
export type BenchEntity = ReturnType<typeof properties> & { partitionKey: string; rowKey: string };
export const entityOf = (pk: string, i: number): BenchEntity => ({
  partitionKey: pk,
  rowKey: rowKey(i),
  ...properties(i),
});

/** .NET ticks (100 ns since 0001-01-01) at the Unix epoch. */
const EPOCH_TICKS = 621_355_968_000_000_000n;

/**
 * What a hand-written store keeping the same data makes per write: the commit time as ticks and
 * an ETag naming it (`W/"datetime'…'"`, colons encoded), from the clock at millisecond precision.
 */
function stamp(): { ticks: bigint; etag: string } {
  const ms = Date.now();
  return {
    ticks: BigInt(ms) * 10_000n + EPOCH_TICKS,
    etag: `W/"datetime'${new Date(ms).toISOString().replaceAll(":", "%3A")}'"`,
  };
}

type RawRow = [pk: string, rk: string, p: string, ts: bigint, etag: string];

/** The entity a read returns: keys, properties, ETag and Timestamp (as the row holds them). */
function rawEntity(pk: string, rk: string, p: string, ts: bigint, etag: string): Record<string, unknown> {
  return { partitionKey: pk, rowKey: rk, ...JSON.parse(p), etag, timestamp: ts };
}

/**
 * Raw better-sqlite3, the baseline, keeping what the store keeps: the store's schema (keys, the
 * properties' JSON, Timestamp ticks, ETag; WITHOUT ROWID) and pragmas, writing `JSON.stringify` of
 * the properties with a Timestamp and ETag per write (one per transaction), reading back the same
 * columns and returning each entity with them. What it does not do is what tablekit adds: validation,
 * typed values, key order for UTF-16, paging, the async API.
 */
export class RawStore {
  readonly db: Database.Database;
  private readonly insertStatement: Database.Statement;
  private readonly getStatement: Database.Statement;
  private readonly scanStatement: Database.Statement;
  private readonly topStatement: Database.Statement;
  readonly insertMany: (entities: BenchEntity[]) => void;

  constructor(path: string) {
    this.db = new Database(path);
    for (const pragma of FILE_PRAGMAS) this.db.pragma(pragma);
    this.db.exec(
      "CREATE TABLE e (pk TEXT NOT NULL, rk TEXT NOT NULL, p TEXT NOT NULL, ts INTEGER NOT NULL, etag TEXT NOT NULL, PRIMARY KEY (pk, rk)) WITHOUT ROWID",
    );
    this.insertStatement = this.db.prepare("INSERT INTO e (pk, rk, p, ts, etag) VALUES (?, ?, ?, ?, ?)");
    this.getStatement = this.db
      .prepare("SELECT p, ts, etag FROM e WHERE pk = ? AND rk = ?")
      .raw(true)
      .safeIntegers(true);
    this.scanStatement = this.db
      .prepare("SELECT pk, rk, p, ts, etag FROM e WHERE pk = ? ORDER BY pk, rk")
      .raw(true)
      .safeIntegers(true);
    this.topStatement = this.db
      .prepare("SELECT pk, rk, p, ts, etag FROM e WHERE pk = ? ORDER BY pk, rk LIMIT 10")
      .raw(true)
      .safeIntegers(true);
    this.insertMany = this.db.transaction((entities: BenchEntity[]) => {
      const now = stamp();
      for (const e of entities) this.write(e, now);
    });
  }

  insert(e: BenchEntity): void {
    this.write(e, stamp());
  }

  private write(e: BenchEntity, now: { ticks: bigint; etag: string }): void {
    const { partitionKey, rowKey: rk, ...props } = e;
    this.insertStatement.run(partitionKey, rk, JSON.stringify(props), now.ticks, now.etag);
  }

  get(pk: string, rk: string): unknown {
    const row = this.getStatement.get(pk, rk) as [string, bigint, string];
    return rawEntity(pk, rk, row[0], row[1], row[2]);
  }

  scan(pk: string): number {
    let n = 0;
    for (const row of this.scanStatement.all(pk) as RawRow[]) {
      n += rawEntity(...row) ? 1 : 0;
    }
    return n;
  }

  newest10(pk: string): number {
    return (this.topStatement.all(pk) as RawRow[]).map((row) => rawEntity(...row)).length;
  }
}

/** Loads `count` entities into partition `pk` on both sides, 100 per transaction. */
export async function loadPartition(table: Table, raw: RawStore, pk: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, j) => entityOf(pk, i + j));
    await table.submitTransaction(batch.map((e) => ["create", e] as const));
    raw.insertMany(batch);
  }
}

/** One measured operation: returns how many operations it did (one when it returns nothing). */
export type Op = () => unknown;

/** A row of the benchmark: the same work through raw SQLite and through the store. */
export interface WorkloadRow {
  readonly raw: Op;
  readonly ours: Op;
}

/**
 * The rows on both sides, given the partitions they read: single inserts (into `ins`), point reads
 * of what those inserted, a scan and the newest 10 of partition `pk`, 100-op transactions.
 */
export function workload(table: Table, raw: RawStore) {
  let rawNext = 0;
  let oursNext = 0;
  let k = 0;
  const nextKey = () => {
    k = (k + 7919) % Math.max(1, Math.min(rawNext, oursNext));
    return rowKey(k);
  };
  let txNext = 0;
  const txBatch = (pk: string) => Array.from({ length: 100 }, () => entityOf(pk, txNext++));
  return {
    /** The key of the next point read: one of those the inserts wrote. */
    nextKey,
    insert: {
      raw: () => raw.insert(entityOf("ins", rawNext++)),
      ours: () => table.createEntity(entityOf("ins", oursNext++)),
    },
    pointRead: {
      raw: () => raw.get("ins", nextKey()),
      ours: () => table.getEntity("ins", nextKey()),
    },
    scan: (pk: string): WorkloadRow => {
      const filter = odata`PartitionKey eq ${pk}`;
      return {
        raw: () => raw.scan(pk),
        ours: async () => {
          let n = 0;
          for await (const _ of table.listEntities({ queryOptions: { filter } })) n++;
          return n;
        },
      };
    },
    newest10: (pk: string): WorkloadRow => {
      const filter = odata`PartitionKey eq ${pk}`;
      return {
        raw: () => raw.newest10(pk) / 10,
        ours: async () => {
          const page = await table
            .listEntities({ queryOptions: { filter } })
            .byPage({ maxPageSize: 10 })
            .next();
          return page.value.length === 10 ? 1 : 0;
        },
      };
    },
    transaction: {
      raw: () => raw.insertMany(txBatch("txraw")),
      ours: () => table.submitTransaction(txBatch("tx").map((e) => ["create", e] as const)),
    },
  } satisfies Record<string, WorkloadRow | ((pk: string) => WorkloadRow) | (() => string)>;
}

/**
 * Both sides in `dir`: raw SQLite, the store through the public API with its table "Bench", the
 * embedded backend on the same file (rows marked "backend layer"), and the rows' operations.
 */
export async function openSides(dir: string) {
  const raw = new RawStore(join(dir, "raw.db"));
  const store = await openStore(`file:${join(dir, "tablekit.db")}`);
  await store.createTable("Bench");
  const table = store.table("Bench");
  const backend = await fileBackend.open(join(dir, "tablekit.db"), {});
  const backendTable = backend.tables.table("Bench");
  const close = async () => {
    await store.close();
    await backend.close();
    raw.db.close();
  };
  return { raw, table, backendTable, work: workload(table, raw), close };
}
