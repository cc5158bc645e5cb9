/**
 * Writers of large entities, each halted right after its step k, then the process SIGKILLs itself:
 * `node --import tsx large-worker.ts <store url> <table> <container> <scenario>:<rowKey>:<k>...`.
 * Every writer of the list runs at once (each on its own entity); a writer that reaches its step k
 * waits forever, and once all have, the process dies. Nothing after step k runs for any of them
 * (no catch, no finally, no flush): a real crash at each writer's point, in one process.
 */
import { openStore } from "../../src/index.js";
import { LargeEntities } from "../../src/patterns/index.js";
import { SCENARIOS } from "./large-fixtures.js";

const [url, tableName, containerName, ...writers] = process.argv.slice(2);
const store = await openStore(url!);
let waiting = writers.length;
const runs = writers.map((spec) => {
  const [scenarioName, rowKey, k] = spec.split(":");
  let steps = 0;
  const large = new LargeEntities(store, store.table(tableName!), {
    container: store.container(containerName!),
    onStep: () => {
      if (++steps !== Number(k)) return undefined;
      if (--waiting === 0) process.kill(process.pid, "SIGKILL");
      return new Promise<void>(() => {}); // halted here until the kill
    },
  });
  return SCENARIOS[scenarioName as keyof typeof SCENARIOS].run(large, rowKey!);
});
// A writer that finished or failed instead of halting: exit normally, and the test sees no SIGKILL.
await Promise.race(runs);
await store.close();
