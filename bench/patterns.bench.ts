/**
 * Sequential ids (seed 003): the article's counter (one conditional write per id) against block
 * allocation (one conditional write per adaptive block), with 1, 4 and 16 concurrent clients
 * (async clients in one process, each with its own counter and allocator, as separate machines
 * would have), on the embedded engine (a file: store) and on Azurite. Prints ids/s, the conflicts
 * (412/409 retries) each strategy met, and the ratio blocks / article measured in the same run;
 * verifies that no id was handed out twice. Target: blocks >= 100x the article at 16 clients on
 * Azurite. Starts and stops its own Azurite.
 * Ids are recorded as runs of consecutive ids (a block is one run), so checking millions of them
 * for duplicates costs memory per block, not per id.
 * Run: npx tsx bench/patterns.bench.ts [seconds per case, default 3]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isTableKitError, openStore, type Store } from "../src/index.js";
import { BlockIdAllocator, SequenceCounter } from "../src/patterns/index.js";
import { startAzurite } from "../test/support/azurite.js";
import { SMOKE, sized } from "./support/bench-mode.js";
import { checkIds, IdRuns } from "./support/id-runs.js";

const SECONDS = SMOKE ? 0.2 : Number(process.argv[2] ?? 3);
const CLIENTS = sized([1, 4, 16], [1, 4]);

interface Result {
  readonly ids: number;
  readonly perSecond: number;
  readonly conflicts: number;
  /** Calls that gave up with ConcurrencyRetriesExhausted (counted, not fatal). */
  readonly exhausted: number;
  readonly duplicates: number;
  /** The largest block an allocator reached (blocks only). */
  readonly blockSize?: number;
}

let tableNumber = 0;

async function run(store: Store, clients: number, strategy: "article" | "blocks"): Promise<Result> {
  const name = `BenchIds${strategy}${clients}n${tableNumber++}`;
  await store.createTable(name);
  const table = store.table(name);
  const counters = Array.from(
    { length: clients },
    () => new SequenceCounter(table, { partitionKey: "App1", rowKey: "sorteditem", maxAttempts: 1000 }),
  );
  const allocators = strategy === "blocks" ? counters.map((c) => new BlockIdAllocator(c)) : undefined;
  const handed = counters.map(() => new IdRuns());
  let exhausted = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    counters.map(async (counter, i) => {
      const next = allocators ? () => allocators[i]!.next() : () => counter.next();
      while (performance.now() < deadline) {
        try {
          handed[i]!.add(await next());
        } catch (err) {
          if (!isTableKitError(err, "ConcurrencyRetriesExhausted")) throw err;
          exhausted++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const { duplicates, inRange } = checkIds(handed, await counters[0]!.current());
  if (duplicates > 0 || !inRange) {
    throw new Error(`${strategy} with ${clients} clients handed out a duplicate or an id never reserved`);
  }
  await store.deleteTable(name);
  const ids = handed.reduce((n, c) => n + c.count, 0);
  return {
    ids,
    perSecond: ids / elapsed,
    conflicts: counters.reduce((n, c) => n + c.stats.conflicts, 0),
    exhausted,
    duplicates,
    ...(allocators ? { blockSize: Math.max(...allocators.map((a) => a.blockSize)) } : {}),
  };
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(1));

async function benchmark(label: string, store: Store): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  for (const clients of CLIENTS) {
    const article = await run(store, clients, "article");
    const blocks = await run(store, clients, "blocks");
    rows.push({
      clients,
      "article ids/s": fmt(article.perSecond),
      "article conflicts": article.conflicts,
      "article gave up": article.exhausted,
      "blocks ids/s": fmt(blocks.perSecond),
      "blocks conflicts": blocks.conflicts,
      "last block size": blocks.blockSize ?? "",
      "blocks / article": `${fmt(blocks.perSecond / article.perSecond)}x`,
      duplicates: article.duplicates + blocks.duplicates,
    });
  }
  console.log(`\n${label} — ${SECONDS} s per case, ids verified unique`);
  console.table(rows);
}

const dir = mkdtempSync(join(tmpdir(), "tablekit-bench-ids-"));
try {
  const embedded = await openStore(`file:${join(dir, "ids.db")}`);
  await benchmark("embedded engine (file:)", embedded);
  await embedded.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const azurite = await startAzurite();
try {
  const store = await openStore(azurite.storeUrl);
  await benchmark("Azurite (azure:)", store);
  await store.close();
} finally {
  await azurite.stop();
}
