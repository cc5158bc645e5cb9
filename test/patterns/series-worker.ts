/**
 * A separate process adding to a shared data series, for the multi-process test:
 * `node --import tsx series-worker.ts <store url> <table> <adds>`. Prints `{ "conflicts": n }`.
 */
import { openStore } from "../../src/index.js";
import { DataSeries } from "../../src/patterns/index.js";

const [url, tableName, addsText] = process.argv.slice(2);
const store = await openStore(url!);
const series = new DataSeries(store, store.table(tableName!), { points: 24, prefix: "H", maxAttempts: 1000 });
const at = new Date(Date.UTC(2024, 0, 1, 5));
for (let i = 0; i < Number(addsText); i++)
  await series.add({ partitionKey: "Sales", rowKey: "000123" }, 1, { at });
process.stdout.write(`${JSON.stringify({ conflicts: series.conflicts })}\n`);
await store.close();
