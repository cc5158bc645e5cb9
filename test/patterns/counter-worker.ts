/**
 * A separate process drawing ids from a shared counter, for the multi-process test:
 * `node --import tsx counter-worker.ts <store url> <table> <count> <single|block>`.
 * Prints one JSON line: `{ "ids": [...], "unused": [...], "conflicts": n }`.
 */
import { openStore } from "../../src/index.js";
import { BlockIdAllocator, SequenceCounter } from "../../src/patterns/index.js";

const [url, tableName, countText, mode] = process.argv.slice(2);
const store = await openStore(url!);
const counter = new SequenceCounter(store.table(tableName!), {
  partitionKey: "App1",
  rowKey: "sorteditem",
  maxAttempts: 200,
});
const allocator = mode === "block" ? new BlockIdAllocator(counter, { blockSize: 7 }) : undefined;
const ids: number[] = [];
for (let i = 0; i < Number(countText); i++)
  ids.push(allocator ? await allocator.next() : await counter.next());
process.stdout.write(
  `${JSON.stringify({ ids, unused: allocator?.unused() ?? [], conflicts: counter.stats.conflicts })}\n`,
);
await store.close();
