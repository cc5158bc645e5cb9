/**
 * `tablekit serve` against Azurite in the same run, through the same SDK (`@azure/data-tables`),
 * each server in its own process: bulk insert into one partition by batches of 100, paging
 * (pages of 1,000), single inserts and point reads end to end (after as many again, unmeasured:
 * both servers warmed up), and each server's own CPU time per operation (from /proc). Then the server alone: 1,000,000 entities in one partition, and a
 * 10,000,000-entity `--location` store against a 10,000-entity one for point, newest-10 and page
 * reads, with the server's RSS. Then the Queue and Blob services against Azurite (bench/support/
 * server-storage.ts): messages sent, received and deleted; small blobs; a large blob streamed. Smoke mode (`--smoke` / TABLEKIT_BENCH_SMOKE=1) runs tiny sizes.
 * Run: npx tsx bench/server.bench.ts
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TableClient } from "@azure/data-tables";
import { openStore } from "../src/index.js";
import { startAzurite } from "../test/support/azurite.js";
import { sized, verdict } from "./support/bench-mode.js";
import { interleaved, type PreparedRounds, prepareRounds, type RoundKind } from "./support/blob-leases.js";
import { listingGoals, listingRows, measureListing } from "./support/blob-listing.js";
import { type Served, startServed } from "./support/served-process.js";
import { scanAcrossPartitions, scanRows } from "./support/server-paging.js";
import { measureStorage, storageGoals, storageRows as storageTable } from "./support/server-storage.js";

/** TABLEKIT_SERVER_BENCH_BULK shrinks the compared bulk load (Azurite's 100,000 takes minutes, much longer on a busy machine). */
/**
 * TABLEKIT_SERVER_BENCH_ONLY=tables or =storage runs one half (each takes long at full size);
 * =paging the scan rows alone; =blobs the storage half without its queue rounds; =leases the lease round trip alone; =listing the
 * blob-listing row alone (TABLEKIT_SERVER_BENCH_LISTING sets its blob count); =singles the table rows of
 * section 1 alone (serve against Azurite: what a request's routing costs). Names combine: =singles,blobs.
 */
const only = process.env.TABLEKIT_SERVER_BENCH_ONLY?.split(",");
const runs = (...names: string[]): boolean => only === undefined || names.some((n) => only.includes(n));
const BULK = sized(Number(process.env.TABLEKIT_SERVER_BENCH_BULK ?? 100_000), 2_000);
const BULK_SERVER_ONLY = sized(1_000_000, 5_000);
const SINGLES = sized(2_000, 100);
/**
 * Single inserts and point reads first made this many times, unmeasured, on both servers: a new
 * process's first few thousand requests measure V8 compiling the request path (on helper threads
 * the CPU figure counts), not the work per request. Their cost is printed beside.
 */
const WARM_SINGLES = sized(2_000, 20);
const SCALE = sized(10_000_000, 20_000);
const SCALE_SMALL = sized(10_000, 2_000);
const SCALE_PARTITION = sized(10_000, 1_000);
const READS = sized(2_000, 50);

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** The server's CPU time (user + system) so far, in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/** `tablekit serve` in its own process, from the sources. */
function startTablekit(args: string[]): Promise<Served> {
  return startServed([
    "--import",
    "tsx",
    join(root, "src", "cli", "main.ts"),
    "serve",
    "--tablePort",
    "0",
    ...args,
  ]);
}

function client(served: Served, table: string): TableClient {
  return TableClient.fromConnectionString(served.connectionString, table, { allowInsecureConnection: true });
}

const row = (i: number) => String(i).padStart(10, "0");
const entity = (pk: string, i: number) => ({
  partitionKey: pk,
  rowKey: row(i),
  name: `item ${i}`,
  n: i,
  d: i / 3,
});

async function bulkInsert(table: TableClient, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i += 100) {
    await table.submitTransaction(
      Array.from({ length: Math.min(100, count - i) }, (_, j) => ["create", entity("bulk", i + j)]),
    );
  }
  return (performance.now() - started) / 1000;
}

async function pageAll(table: TableClient, expected: number): Promise<number> {
  const started = performance.now();
  let n = 0;
  for await (const page of table
    .listEntities({ queryOptions: { filter: "PartitionKey eq 'bulk'" } })
    .byPage({ maxPageSize: 1000 })) {
    n += page.length;
  }
  if (n !== expected) throw new Error(`paged ${n} of ${expected}`);
  return (performance.now() - started) / 1000;
}

/** Runs `op` `count` times sequentially: wall µs per op and the server's CPU µs per op. */
async function perOp(
  served: Served,
  count: number,
  op: (i: number) => Promise<unknown>,
): Promise<{ wallUs: number; cpuUs: number }> {
  const cpu0 = cpuMs(served.pid);
  const started = performance.now();
  for (let i = 0; i < count; i++) await op(i);
  const wall = performance.now() - started;
  return { wallUs: (wall * 1000) / count, cpuUs: ((cpuMs(served.pid) - cpu0) * 1000) / count };
}

interface Measured {
  bulkSeconds: number;
  bulkCpuUs: number;
  pagingSeconds: number;
  insert: { wallUs: number; cpuUs: number };
  read: { wallUs: number; cpuUs: number };
  /** The unmeasured warm-up's own cost. */
  coldInsert: { wallUs: number; cpuUs: number };
  coldRead: { wallUs: number; cpuUs: number };
  rss: number;
}

async function measure(served: Served, name: string): Promise<Measured> {
  const table = client(served, `Bench${name}`);
  await table.createTable();
  const cpuBefore = cpuMs(served.pid);
  const bulkSeconds = await bulkInsert(table, BULK);
  const bulkCpu = cpuMs(served.pid) - cpuBefore;
  console.log(
    `${name}: ${BULK} entities in ${bulkSeconds.toFixed(1)} s (server CPU ${(bulkCpu / 1000).toFixed(1)} s)`,
  );
  const pagingSeconds = await pageAll(table, BULK);
  const coldInsert = await perOp(served, WARM_SINGLES, (i) => table.createEntity(entity("warm", i)));
  const insert = await perOp(served, SINGLES, (i) => table.createEntity(entity("single", i)));
  const coldRead = await perOp(served, WARM_SINGLES, (i) =>
    table.getEntity("bulk", row((i * 104_729) % BULK)),
  );
  const read = await perOp(served, SINGLES, (i) => table.getEntity("bulk", row((i * 7919) % BULK)));
  return {
    bulkSeconds,
    bulkCpuUs: (bulkCpu * 1000) / BULK,
    pagingSeconds,
    insert,
    read,
    coldInsert,
    coldRead,
    rss: rssMiB(served.pid),
  };
}

const results: Record<string, Record<string, string>> = {};
const goals: { goal: string; measured: string; verdict: string }[] = [];
const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The Table service: sections 1 to 3. */
async function tableRows(): Promise<void> {
  // 1. The same work on both servers.
  const tablekit = await startTablekit(["--inMemoryPersistence"]);
  const ours = await measure(tablekit, "Tablekit");
  await tablekit.stop();
  const azurite = await startAzurite();
  const served: Served = {
    connectionString: azurite.tableConnectionString,
    pid: azurite.pid,
    stop: azurite.stop,
  };
  const theirs = await measure(served, "Azurite");
  await azurite.stop();

  /** A row comparing the servers; `higherIsBetter` for rates (the ratio is always Azurite's cost over ours). */
  function compare(ours: number, theirs: number, digits = 0, higherIsBetter = false): Record<string, string> {
    return {
      tablekit: fmt(ours, digits),
      azurite: fmt(theirs, digits),
      ratio: `${fmt(higherIsBetter ? ours / theirs : theirs / ours)}x`,
    };
  }
  results[`bulk insert ${BULK.toLocaleString("en")} (batches of 100), entities/s`] = compare(
    BULK / ours.bulkSeconds,
    BULK / theirs.bulkSeconds,
    0,
    true,
  );
  results[`page through ${BULK.toLocaleString("en")} (pages of 1,000), s`] = compare(
    ours.pagingSeconds,
    theirs.pagingSeconds,
    2,
  );
  results["single insert, µs end to end"] = compare(ours.insert.wallUs, theirs.insert.wallUs);
  results["point read, µs end to end"] = compare(ours.read.wallUs, theirs.read.wallUs);
  results["server CPU per single insert, µs"] = compare(ours.insert.cpuUs, theirs.insert.cpuUs);
  results[`server CPU per single insert, the first ${WARM_SINGLES.toLocaleString("en")} (warm-up), µs`] =
    compare(ours.coldInsert.cpuUs, theirs.coldInsert.cpuUs);
  results["server CPU per point read, µs"] = compare(ours.read.cpuUs, theirs.read.cpuUs);
  results[`server CPU per point read, the first ${WARM_SINGLES.toLocaleString("en")} (warm-up), µs`] =
    compare(ours.coldRead.cpuUs, theirs.coldRead.cpuUs);
  const insertRatio = theirs.insert.cpuUs / ours.insert.cpuUs;
  goals.push({
    goal: "server CPU per single insert ≤ Azurite's / 3 (issue 23)",
    measured: `${fmt(insertRatio)}x less (${fmt(ours.insert.cpuUs, 0)} vs ${fmt(theirs.insert.cpuUs, 0)} µs; warm-up ${fmt(theirs.coldInsert.cpuUs / ours.coldInsert.cpuUs)}x)`,
    verdict: verdict(insertRatio >= 3),
  });
  results[`server CPU per entity in the bulk insert, µs`] = compare(ours.bulkCpuUs, theirs.bulkCpuUs);
  results[`server RSS after ${BULK.toLocaleString("en")}, MiB`] = compare(ours.rss, theirs.rss);
  if (!runs("tables")) return;

  // 2. The server alone: a million entities in one partition.
  {
    const big = await startTablekit(["--inMemoryPersistence"]);
    const table = client(big, "BenchMillion");
    await table.createTable();
    const seconds = await bulkInsert(table, BULK_SERVER_ONLY);
    results[`bulk insert ${BULK_SERVER_ONLY.toLocaleString("en")} (server only), entities/s`] = {
      tablekit: fmt(BULK_SERVER_ONLY / seconds, 0),
      azurite: "-",
      ratio: `RSS ${fmt(rssMiB(big.pid), 0)} MiB`,
    };
    await big.stop();
  }

  // 3. Scale: reads at 10M against reads at 10k, on --location stores built with the embedded engine.
  async function buildStore(dir: string, count: number): Promise<void> {
    const store = await openStore(`file:${join(dir, "tablekit-tables.db")}`);
    await store.createTable("Scale");
    const table = store.table("Scale");
    for (let i = 0; i < count; i += 100) {
      const pk = `p${String(Math.floor(i / SCALE_PARTITION)).padStart(5, "0")}`;
      await table.submitTransaction(
        Array.from(
          { length: 100 },
          (_, j) =>
            [
              "create",
              { partitionKey: pk, rowKey: row(SCALE_PARTITION - ((i + j) % SCALE_PARTITION)), n: i + j },
            ] as const,
        ),
      );
    }
    await store.close();
  }

  async function scaleReads(
    count: number,
  ): Promise<{ point: number; newest: number; page: number; rss: number }> {
    const dir = mkdtempSync(join(tmpdir(), "tablekit-scale-"));
    try {
      const started = performance.now();
      await buildStore(dir, count);
      console.log(
        `built ${count.toLocaleString("en")} entities in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      const server = await startTablekit(["--location", dir]);
      const table = client(server, "Scale");
      const partitions = count / SCALE_PARTITION;
      const pk = (i: number) => `p${String((i * 7919) % partitions).padStart(5, "0")}`;
      const point = await perOp(server, READS, (i) =>
        table.getEntity(pk(i), row(1 + ((i * 104729) % SCALE_PARTITION))),
      );
      const newest = await perOp(server, READS, async (i) => {
        const pages = table
          .listEntities({ queryOptions: { filter: `PartitionKey eq '${pk(i)}'` } })
          .byPage({ maxPageSize: 10 });
        const page = (await pages.next()).value;
        if (page.length !== 10) throw new Error("newest-10 read came back short");
      });
      const page = await perOp(server, Math.max(10, READS / 10), async (i) => {
        const from = row(1 + ((i * 104729) % Math.max(1, SCALE_PARTITION - 999)));
        const pages = table
          .listEntities({ queryOptions: { filter: `PartitionKey eq '${pk(i)}' and RowKey ge '${from}'` } })
          .byPage({ maxPageSize: 1000 });
        const first = (await pages.next()).value;
        if (first.length !== 1000) throw new Error(`page read came back with ${first.length}`);
      });
      const rss = rssMiB(server.pid);
      await server.stop();
      return { point: point.wallUs, newest: newest.wallUs, page: page.wallUs, rss };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const small = await scaleReads(SCALE_SMALL);
  const large = await scaleReads(SCALE);
  const label = `${SCALE.toLocaleString("en")} vs ${SCALE_SMALL.toLocaleString("en")}`;
  results[`point read at ${label}, µs`] = {
    tablekit: fmt(large.point, 0),
    azurite: fmt(small.point, 0),
    ratio: `${fmt(large.point / small.point, 2)}x`,
  };
  results[`newest-10 read at ${label}, µs`] = {
    tablekit: fmt(large.newest, 0),
    azurite: fmt(small.newest, 0),
    ratio: `${fmt(large.newest / small.newest, 2)}x`,
  };
  results[`page of 1,000 at ${label}, µs`] = {
    tablekit: fmt(large.page, 0),
    azurite: fmt(small.page, 0),
    ratio: `${fmt(large.page / small.page, 2)}x`,
  };
  results[`server RSS with ${SCALE.toLocaleString("en")} entities, MiB`] = {
    tablekit: fmt(large.rss, 0),
    azurite: "-",
    ratio: "-",
  };
}

/** The Queue and Blob services: the same SDK work on tablekit serve (blobs as files under --location) and Azurite. */
async function storageRows(): Promise<void> {
  const sizes = {
    queueSizes: !runs("storage") ? [] : sized([10_000, 100_000], [200]),
    blobs: sized(1_000, 20),
    bigBytes: sized(256, 2) * 1024 * 1024,
    concurrency: 8,
  };
  const dir = mkdtempSync(join(tmpdir(), "tablekit-storage-bench-"));
  // TABLEKIT_SERVER_BENCH_QUEUE_LIMIT (seconds) caps Azurite's queue rounds (at 100,000 it can take hours).
  const limit = Number(process.env.TABLEKIT_SERVER_BENCH_QUEUE_LIMIT ?? Number.POSITIVE_INFINITY);
  try {
    const ours = await startTablekit(["--location", dir]);
    const measuredOurs = await measureStorage({ name: "tablekit", ...ours }, sizes);
    await ours.stop();
    const azurite = await startAzurite();
    const measuredTheirs = await measureStorage(
      { name: "Azurite", connectionString: azurite.connectionString, pid: azurite.pid },
      { ...sizes, queueLimitSeconds: limit },
    );
    await azurite.stop();
    Object.assign(results, storageTable(measuredOurs, measuredTheirs, sizes));
    goals.push(...storageGoals(measuredOurs, measuredTheirs, sizes));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A scan across 10 small partitions: tablekit's pages filled, then ended at each partition, and Azurite's. */
async function pagingRows(): Promise<void> {
  const measured = [];
  for (const args of [[], ["--pages", "partition"]]) {
    const served = await startTablekit(["--inMemoryPersistence", ...args]);
    measured.push(
      await scanAcrossPartitions({
        name: "Tablekit",
        connectionString: served.connectionString,
        pid: served.pid,
      }),
    );
    await served.stop();
  }
  const azurite = await startAzurite();
  const theirs = await scanAcrossPartitions({
    name: "Azurite",
    connectionString: azurite.tableConnectionString,
    pid: azurite.pid,
  });
  await azurite.stop();
  Object.assign(results, scanRows(measured[0]!, measured[1]!, theirs));
}

/** 100,000 blobs listed flat and with a delimiter, on serve (a --location store) and on Azurite. */
async function listingRow(): Promise<void> {
  const blobs = sized(Number(process.env.TABLEKIT_SERVER_BENCH_LISTING ?? 100_000), 400);
  const dir = mkdtempSync(join(tmpdir(), "tablekit-listing-bench-"));
  try {
    const ours = await startTablekit(["--location", dir]);
    const measuredOurs = await measureListing({ name: "tablekit", ...ours }, blobs).finally(() =>
      ours.stop(),
    );
    const azurite = await startAzurite();
    const measuredTheirs = await measureListing(
      { name: "Azurite", connectionString: azurite.connectionString },
      blobs,
    ).finally(() => azurite.stop());
    Object.assign(results, listingRows(measuredOurs, measuredTheirs, blobs));
    goals.push(...listingGoals(measuredOurs, measuredTheirs, blobs));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A job claim (lease acquire + a write under the lease + release) and conditional writes (an
 * optimistic If-Match update, a stale write refused with 412), on serve and on Azurite, run in
 * alternating chunks (bench/support/blob-leases.ts). Azurite keeps everything in memory
 * (--inMemoryPersistence); serve runs on a --location store (durable writes) and in memory.
 */
async function leaseRow(): Promise<void> {
  const rounds = sized(500, 20);
  const dir = mkdtempSync(join(tmpdir(), "tablekit-lease-bench-"));
  const onDisk = await startTablekit(["--location", dir]);
  const inMemory = await startTablekit([]);
  const azurite = await startAzurite();
  try {
    const disk = await prepareRounds({ name: "tablekit", ...onDisk });
    const memory = await prepareRounds({ name: "tablekit (memory)", ...inMemory });
    const theirs = await prepareRounds({ name: "Azurite", connectionString: azurite.connectionString });
    const rows: [string, RoundKind, PreparedRounds][] = [
      ["lease acquire + leased write + release, µs", "lease", disk],
      ["optimistic update (read ETag + If-Match write), µs", "update", disk],
      ["write under a stale ETag (412), µs", "refused", disk],
      ["lease round trip, serve in memory, µs", "lease", memory],
      ["optimistic update, serve in memory, µs", "update", memory],
      ["write under a stale ETag (412), serve in memory, µs", "refused", memory],
    ];
    for (const [label, kind, ours] of rows) {
      const r = await interleaved(kind, ours, theirs, rounds);
      results[label] = { tablekit: fmt(r.ours, 0), azurite: fmt(r.theirs, 0), ratio: `${fmt(r.ratio, 2)}x` };
    }
    await Promise.all([disk.cleanup(), memory.cleanup(), theirs.cleanup()]);
  } finally {
    await Promise.all([onDisk.stop(), inMemory.stop(), azurite.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (runs("tables", "paging")) await pagingRows();
if (runs("tables", "singles")) await tableRows();
if (runs("storage", "blobs")) await storageRows();
if (runs("storage", "blobs", "listing")) await listingRow();
if (runs("storage", "blobs", "leases")) await leaseRow();

if (runs("tables"))
  console.log(
    "\nScale rows: 'tablekit' is the large store, 'azurite' the small store (both tablekit serve).",
  );
console.table(results);
if (goals.length > 0) {
  // Machine load matters on a shared machine: the ratios of one run are what count.
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(`\nGoals (issues 23 and 25), load average ${load}:`);
  console.table(goals);
}
