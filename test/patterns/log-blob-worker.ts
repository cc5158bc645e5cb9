/**
 * A process writing to a blob log, for the multi-process tests:
 * `node --import tsx log-blob-worker.ts <store url> <container> <source> <mode> <plan>`, where the plan is
 * - `write:<id>:<n>`: writes n records `{ id, n: i }` with small flushes, closes, exits;
 * - `crash:<flushed>:<timed>:<lost>`: writes `flushed` records and flushes; writes `timed` records and
 *   waits until the timer has flushed them; writes `lost` records; SIGKILLs itself.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { openStore } from "../../src/index.js";
import { BlobLog } from "../../src/patterns/index.js";

const [url, containerName, source, mode, plan] = process.argv.slice(2);
const store = await openStore(url!);
const log = new BlobLog(store, {
  container: store.container(containerName!),
  source: source!,
  mode: mode as "append" | "block",
});
const [kind, a, b, c] = plan!.split(":");
const at = new Date("2014-07-31T18:00:00Z");
if (kind === "write") {
  const writer = log.writer({ flushBytes: 2000 });
  for (let i = 0; i < Number(b); i++) writer.write({ id: a, n: i }, { at });
  await writer.close();
  await store.close();
} else {
  const interval = 100;
  const writer = log.writer({ flushIntervalMs: interval });
  let n = 0;
  for (let i = 0; i < Number(a); i++) writer.write({ phase: "flushed", n: n++ }, { at });
  await writer.flush();
  for (let i = 0; i < Number(b); i++) writer.write({ phase: "timed", n: n++ }, { at });
  while (writer.bufferedBytes > 0) await sleep(interval); // the timer flushes them, nobody else
  for (let i = 0; i < Number(c); i++) writer.write({ phase: "lost", n: n++ }, { at });
  process.kill(process.pid, "SIGKILL");
}
