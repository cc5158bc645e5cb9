/**
 * The work `bench/store.bench.ts` measures, shared with `bench/store-profile.ts` (which runs one
 * row on one side, for `node --cpu-prof` or valgrind): the entities, raw better-sqlite3 doing the
 * same work as the store, and each row's operation on both sides.
 */
import Database from "better-sqlite3";
import { odata, type Table } from "../../src/index.js";
import { FILE_PRAGMAS } from "../../src/store/backends/embedded/connection.js";

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

/**
 * Raw better-sqlite3, the baseline: a plain WITHOUT ROWID table of (pk, rk, JSON props) with the
 * store's pragmas, writing `JSON.stringify` of the entity and reading back `JSON.parse` of it.
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
      "CREATE TABLE e (pk TEXT NOT NULL, rk TEXT NOT NULL, props TEXT NOT NULL, PRIMARY KEY (pk, rk)) WITHOUT ROWID",
    );
    this.insertStatement = this.db.prepare("INSERT INTO e (pk, rk, props) VALUES (?, ?, ?)");
    this.getStatement = this.db.prepare("SELECT props FROM e WHERE pk = ? AND rk = ?");
    this.scanStatement = this.db.prepare("SELECT pk, rk, props FROM e WHERE pk = ? ORDER BY pk, rk");
    this.topStatement = this.db.prepare("SELECT pk, rk, props FROM e WHERE pk = ? ORDER BY pk, rk LIMIT 10");
    this.insertMany = this.db.transaction((entities: BenchEntity[]) => {
      for (const e of entities) this.insert(e);
    });
  }

  insert(e: BenchEntity): void {
    const { partitionKey, rowKey: rk, ...props } = e;
    this.insertStatement.run(partitionKey, rk, JSON.stringify(props));
  }

  get(pk: string, rk: string): unknown {
    const row = this.getStatement.get(pk, rk) as { props: string };
    return { partitionKey: pk, rowKey: rk, ...JSON.parse(row.props) };
  }

  scan(pk: string): number {
    let n = 0;
    for (const row of this.scanStatement.all(pk) as { pk: string; rk: string; props: string }[]) {
      n += JSON.parse(row.props) ? 1 : 0;
    }
    return n;
  }

  newest10(pk: string): number {
    return (this.topStatement.all(pk) as { props: string }[]).map((r) => JSON.parse(r.props)).length;
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
