/**
 * Log data in blobs (docs/patterns/log-data-in-blobs.md) against the seed's anti-pattern, in one run:
 * the same records written by the buffered blob log writer (append blobs, and numbered block blobs
 * as on S3) and by one table write per record (the hot-partition design: PartitionKey the minute,
 * RowKey the time), plus entity group transactions of 100 (the best a table can do). Prints
 * records/s, store writes per 10,000 records, and the time to read every record back, on the
 * embedded engine (`file:`), on Azurite, and on DynamoDB Local with s3rver (block blobs only: S3 has no
 * append).
 * Run: npx tsx bench/log-blobs.bench.ts (or npm run bench -- log-blobs; --smoke for tiny sizes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store, type TransactionAction } from "../src/index.js";
import { BlobLog } from "../src/patterns/index.js";
import { startAwsWorld, startAzureWorld } from "../test/support/worlds.js";
import { rounds, sized } from "./support/bench-mode.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-log-bench-"));
const START = Date.parse("2014-07-31T15:00:00Z");
/** Records of about 100 bytes, 20 a second of log time. */
const record = (n: number) => ({ level: n % 10 === 0 ? "error" : "info", message: `request ${n} served`, n });
const timeOf = (n: number) => new Date(START + n * 50);

interface Result {
  readonly seconds: number;
  readonly writes: number;
  readonly readSeconds: number;
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

async function blobLog(store: Store, n: number, mode: "append" | "block"): Promise<Result> {
  const container = await store.createContainer(`bench-${mode}-${Date.now()}`);
  const log = new BlobLog(store, { container, source: "queue", mode });
  const writer = log.writer();
  const seconds = await timed(async () => {
    for (let i = 0; i < n; i++) if (!writer.write(record(i), { at: timeOf(i) })) await writer.flush();
    await writer.close();
  });
  const s = writer.stats;
  let read = 0;
  const readSeconds = await timed(async () => {
    for await (const _ of log.read({ from: timeOf(0), to: timeOf(n) })) read++;
  });
  if (read !== n) throw new Error(`read ${read} of ${n} records`);
  await container.delete();
  return { seconds, writes: s.blobWrites + s.creates + s.lists, readSeconds };
}

async function tableLog(store: Store, n: number, batch: boolean): Promise<Result> {
  const name = `logs${batch ? "batch" : "one"}${Date.now()}`;
  await store.createTable(name);
  const table = store.table(name);
  const entity = (i: number) => ({
    partitionKey: timeOf(i).toISOString().slice(0, 16).replace(/\D/g, ""), // yyyyMMddHHmm: the hot partition
    rowKey: `${timeOf(i).toISOString()}_${String(i).padStart(8, "0")}`,
    ...record(i),
  });
  let writes = 0;
  const seconds = await timed(async () => {
    if (!batch) {
      for (let i = 0; i < n; i++, writes++) await table.createEntity(entity(i));
      return;
    }
    let actions: TransactionAction[] = [];
    const submit = async () => {
      if (actions.length === 0) return;
      await table.submitTransaction(actions);
      writes++;
      actions = [];
    };
    for (let i = 0; i < n; i++) {
      const e = entity(i);
      if (actions.length === 100 || (actions.length > 0 && actions[0]![1].partitionKey !== e.partitionKey))
        await submit();
      actions.push(["create", e]);
    }
    await submit();
  });
  let read = 0;
  const readSeconds = await timed(async () => {
    for await (const _ of table.listEntities()) read++;
  });
  if (read !== n) throw new Error(`read ${read} of ${n} entities`);
  await store.deleteTable(name);
  return { seconds, writes, readSeconds };
}

/** The median of `rounds` runs of each variant, alternating. */
async function compare(
  world: string,
  store: Store,
  n: number,
  tableN: number,
): Promise<Record<string, string>[]> {
  const variants = {
    "blob log, append blobs": (k: number) => blobLog(store, k, "append"),
    "blob log, block blobs (as on S3)": (k: number) => blobLog(store, k, "block"),
    "table, one write per record (anti-pattern)": (k: number) => tableLog(store, k, false),
    "table, transactions of 100": (k: number) => tableLog(store, k, true),
  };
  const results = new Map<string, Result[]>();
  for (let r = 0; r < rounds(3); r++) {
    for (const [label, run] of Object.entries(variants)) {
      if (label.startsWith("blob log, append") && !store.blobCapabilities?.appendBlobs) continue;
      const k = label.startsWith("table, one") ? tableN : n;
      const list = results.get(label) ?? [];
      const result = await run(k);
      list.push({
        seconds: result.seconds * (n / k),
        writes: result.writes * (n / k),
        readSeconds: result.readSeconds * (n / k),
      });
      results.set(label, list);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const baseline = median(results.get("table, one write per record (anti-pattern)")!.map((x) => x.seconds));
  return [...results].map(([label, list]) => {
    const seconds = median(list.map((x) => x.seconds));
    return {
      world,
      variant: label,
      "records/s": Math.round(n / seconds).toLocaleString("en-US"),
      "× one write per record": (baseline / seconds).toFixed(1),
      "writes per 10,000 records": (median(list.map((x) => x.writes)) * (10_000 / n)).toFixed(1),
      "read all, records/s": Math.round(n / median(list.map((x) => x.readSeconds))).toLocaleString("en-US"),
    };
  });
}

const rows: Record<string, string>[] = [];
try {
  const embedded = await openStore(`file:${join(dir, "bench.db")}`);
  rows.push(...(await compare("embedded (file:)", embedded, sized(100_000, 2_000), sized(20_000, 500))));
  await embedded.close();
  const worlds = [
    ["Azurite", startAzureWorld, sized(20_000, 500), sized(2_000, 100)],
    ["DynamoDB Local + s3rver", startAwsWorld, sized(20_000, 500), sized(1_000, 50)],
  ] as const;
  for (const [world, start, n, tableN] of worlds) {
    const server = await start();
    try {
      const store = await openStore(server.storeUrl, server.storeOptions);
      rows.push(...(await compare(world, store, n, tableN)));
      await store.close();
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  "Log data: the buffered blob writer vs a table write per record (one-write-per-record runs are smaller, scaled)",
);
console.table(rows);
