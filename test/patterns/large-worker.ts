/**
 * A writer of a large entity that SIGKILLs itself right after step k of its write:
 * `node --import tsx large-worker.ts <store url> <table> <container> <scenario> <rowKey> <k>`.
 * Nothing after the kill runs (no catch, no finally, no flush): a real crash at that point.
 */
import { openStore } from "../../src/index.js";
import { LargeEntities } from "../../src/patterns/index.js";
import { dieAtStep, SCENARIOS } from "./large-fixtures.js";

const [url, tableName, containerName, scenarioName, rowKey, k] = process.argv.slice(2);
const store = await openStore(url!);
const scenario = SCENARIOS[scenarioName as keyof typeof SCENARIOS];
const large = new LargeEntities(store, store.table(tableName!), {
  container: store.container(containerName!),
  onStep: dieAtStep(Number(k), () => {
    process.kill(process.pid, "SIGKILL");
    throw new Error("unreachable: SIGKILL was sent");
  }),
});
await scenario.run(large, rowKey!);
await store.close();
