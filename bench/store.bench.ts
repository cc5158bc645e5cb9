/**
 * The embedded store through the public API (`openStore("file:…")`) against raw better-sqlite3
 * doing the same work in the same run: a plain WITHOUT ROWID table of (pk, rk, JSON props) with
 * the same pragmas (WAL, synchronous NORMAL), where the raw side writes `JSON.stringify` of the
 * entity and reads back `JSON.parse` of it. tablekit additionally validates every entity, keeps
 * typed values, Timestamps and ETags, and pages results. Rows marked "backend layer" call the
 * embedded backend directly (no core: no validation, no result objects, no async iterator), to
 * show where the time goes. Run: npx tsx bench/store.bench.ts (BENCH_MS, BENCH_BIG to shorten).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { odata, openStore, type Table } from "../src/index.js";
import { FILE_PRAGMAS } from "../src/store/backends/embedded/connection.js";
import { fileBackend } from "../src/store/backends/embedded/index.js";
import { rounds, sized } from "./support/bench-mode.js";

const MEASURE_MS = Number(process.env.BENCH_MS ?? sized(1500, 20));
const BIG = Number(process.env.BENCH_BIG ?? sized(1_000_000, 2_000));
const SMALL = sized(10_000, 500);

const dir = mkdtempSync(join(tmpdir(), "tablekit-store-bench-"));
const rowKey = (i: number) => String(i).padStart(10, "0");
const properties = (i: number) => ({
  name: `Customer number ${i}`,
  email: `customer${i}@example.com`,
  age: 20 + (i % 60),
  score: i * 0.5 + 0.25,
  active: i % 2 === 0,
});
type BenchEntity = ReturnType<typeof properties> & { partitionKey: string; rowKey: string };
const entityOf = (pk: string, i: number): BenchEntity => ({
  partitionKey: pk,
  rowKey: rowKey(i),
  ...properties(i),
});

/** Raw better-sqlite3: the baseline. */
class Raw {
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

/** What a measured operation returns: how many operations it did (one when it returns nothing). */
type Op = () => unknown;

/** Runs `op` repeatedly for `ms` and returns ops/s. */
async function rate(op: Op, ms: number): Promise<number> {
  const start = performance.now();
  let ops = 0;
  let now = start;
  while (now - start < ms) {
    const done = await op();
    ops += typeof done === "number" ? done : 1;
    now = performance.now();
  }
  return ops / ((now - start) / 1000);
}

const ROUNDS = rounds(4);

/**
 * Best of ROUNDS interleaved rounds per side (MEASURE_MS in all per side), so a noisy neighbour
 * on the machine hurts both sides alike.
 */
async function compare(raw: Op, ours: Op): Promise<[number, number]> {
  let bestRaw = 0;
  let bestOurs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    bestRaw = Math.max(bestRaw, await rate(raw, MEASURE_MS / ROUNDS));
    bestOurs = Math.max(bestOurs, await rate(ours, MEASURE_MS / ROUNDS));
  }
  return [bestOurs, bestRaw];
}

async function loadPartition(table: Table, raw: Raw, pk: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, j) => entityOf(pk, i + j));
    await table.submitTransaction(batch.map((e) => ["create", e] as const));
    raw.insertMany(batch);
  }
}

interface Row {
  name: string;
  ours: number;
  raw?: number;
  target?: { ratio: number; met: boolean; text: string };
}

async function main(): Promise<void> {
  const started = performance.now();
  const raw = new Raw(join(dir, "raw.db"));
  const store = await openStore(`file:${join(dir, "tablekit.db")}`);
  await store.createTable("Bench");
  const table = store.table("Bench");
  const backend = await fileBackend.open(join(dir, "tablekit.db"), {});
  const backendTable = backend.tables.table("Bench");
  const rows: Row[] = [];
  const ratioRow = (name: string, [ours, base]: [number, number], min?: number): Row => ({
    name,
    ours,
    raw: base,
    ...(min === undefined
      ? {}
      : { target: { ratio: ours / base, met: ours / base >= min, text: `>= ${min}x raw` } }),
  });

  // Single inserts, each its own commit, into fresh partitions.
  let rawNext = 0;
  let oursNext = 0;
  rows.push(
    ratioRow(
      "single insert",
      await compare(
        () => raw.insert(entityOf("ins", rawNext++)),
        () => table.createEntity(entityOf("ins", oursNext++)),
      ),
      0.7,
    ),
  );

  // Point reads of the inserted entities.
  const inserted = Math.min(rawNext, oursNext);
  let k = 0;
  const nextKey = () => {
    k = (k + 7919) % inserted;
    return rowKey(k);
  };
  rows.push(
    ratioRow(
      "point read",
      await compare(
        () => raw.get("ins", nextKey()),
        () => table.getEntity("ins", nextKey()),
      ),
      0.7,
    ),
  );
  rows.push(
    ratioRow(
      "point read (backend layer)",
      await compare(
        () => raw.get("ins", nextKey()),
        () => backendTable.get("ins", nextKey(), {}),
      ),
    ),
  );

  // A partition of 10,000 entities: full scans (entities/s) and the newest-10 read (reads/s).
  await loadPartition(table, raw, "small", SMALL);
  const smallFilter = odata`PartitionKey eq ${"small"}`;
  rows.push(
    ratioRow(
      `partition scan (${SMALL} entities), entities/s`,
      await compare(
        () => raw.scan("small"),
        async () => {
          let n = 0;
          for await (const _ of table.listEntities({ queryOptions: { filter: smallFilter } })) n++;
          return n;
        },
      ),
      0.5,
    ),
  );
  const smallRanges = [{ kind: "rows" as const, pk: "small", rk: {} }];
  rows.push(
    ratioRow(
      `partition scan (backend layer), entities/s`,
      await compare(
        () => raw.scan("small"),
        async () => {
          let n = 0;
          let continuation: string | undefined;
          do {
            const page = await backendTable.query(
              {
                ranges: smallRanges,
                filterProperties: [],
                maxPageSize: 1000,
                timeBudgetMs: 5000,
                continuation,
              },
              {},
            );
            n += page.entities.length;
            continuation = page.continuation;
          } while (continuation);
          return n;
        },
      ),
    ),
  );
  const newest10 = async (filter: string) => {
    const page = await table.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 10 }).next();
    return page.value.length === 10 ? 1 : 0;
  };
  const small10 = await compare(
    () => raw.newest10("small") / 10,
    () => newest10(smallFilter),
  );
  rows.push(ratioRow(`newest 10 of ${SMALL.toLocaleString("en")}`, small10));

  // 100-operation transactions.
  let txNext = 0;
  const txBatch = (pk: string) => Array.from({ length: 100 }, () => entityOf(pk, txNext++));
  rows.push(
    ratioRow(
      "100-op transaction",
      await compare(
        () => raw.insertMany(txBatch("txraw")),
        () => table.submitTransaction(txBatch("tx").map((e) => ["create", e] as const)),
      ),
    ),
  );

  // The newest-10 read again with the partition at 1,000,000 entities: it must not slow down.
  const loadStart = performance.now();
  await loadPartition(table, raw, "big", BIG);
  const loadSeconds = (performance.now() - loadStart) / 1000;
  const big10 = await compare(
    () => raw.newest10("big") / 10,
    () => newest10(odata`PartitionKey eq ${"big"}`),
  );
  rows.push(ratioRow(`newest 10 of ${BIG.toLocaleString("en")}`, big10));
  const growth = big10[0] / small10[0];
  rows.push({
    name: `newest 10: ${BIG.toLocaleString("en")} vs ${SMALL.toLocaleString("en")}`,
    ours: big10[0],
    target: { ratio: growth, met: growth >= 0.5, text: "within 2x of 10,000" },
  });

  await store.close();
  await backend.close();
  raw.db.close();
  rmSync(dir, { recursive: true, force: true });

  const fmt = (n: number | undefined) => (n === undefined ? "" : Math.round(n).toLocaleString("en"));
  console.table(
    rows.map((r) => ({
      operation: r.name,
      "tablekit ops/s": fmt(r.ours),
      "raw ops/s": fmt(r.raw),
      ratio: r.target ? `${r.target.ratio.toFixed(2)}x` : r.raw ? `${(r.ours / r.raw).toFixed(2)}x` : "",
      target: r.target ? `${r.target.text}: ${r.target.met ? "met" : "NOT met"}` : "",
    })),
  );
  console.log(
    `Bulk load of ${BIG.toLocaleString("en")} entities (both sides, 100 per transaction): ${loadSeconds.toFixed(1)} s; whole run ${((performance.now() - started) / 1000).toFixed(0)} s.`,
  );
}

await main();
