/**
 * A transaction worker in its own process, for the fault-injection test:
 * `node --import tsx tx-fault-worker.ts <store url> <options json> <kill log>`.
 *
 * With `TABLEKIT_TX_KILL=boundaries` in its environment it kills itself (SIGKILL) deterministically:
 * a delivery with dequeue count d stops at boundary d-1 of its transaction — boundaries numbered
 * `step k` = 2k, `applied k` = 2k+1, `completed` = 2N — so the deliveries of a message die at
 * every boundary in turn. With `TABLEKIT_TX_KILL=planned`, the first delivery of a transaction
 * whose id ends in `-b<n>` stops at boundary n, and every other delivery runs through. The process pauses each delivery at its boundary, stops receiving soon after, and
 * once every delivery it holds is paused, appends them to the kill log and kills itself: one kill
 * interrupts many transactions, each at its planned boundary. It exits normally when the queue
 * has nothing for it for a while.
 */
import { appendFileSync } from "node:fs";
import { openStore } from "../../src/index.js";
import {
  type BoundaryInfo,
  TransactionQueue,
  type TransactionQueueOptions,
} from "../../src/patterns/index.js";

const [url, optionsJson, killLog] = process.argv.slice(2);
const {
  queue: queueOptions,
  maxDequeueCount,
  visibilityTimeout = 4,
} = JSON.parse(optionsJson!) as {
  queue: TransactionQueueOptions;
  maxDequeueCount: number;
  /** Seconds (default 4: a process holding every message renews late; 2 s let some leases lapse). */
  visibilityTimeout?: number;
};
const killMode = process.env.TABLEKIT_TX_KILL;
const kill = killMode === "boundaries" || killMode === "planned";
const store = await openStore(url!);
const transactions = new TransactionQueue(store, queueOptions);

const paused: string[] = [];
let stopScheduled = false;

function boundaryIndex(info: BoundaryInfo): number {
  return info.point === "step"
    ? 2 * info.step
    : info.point === "applied"
      ? 2 * info.step + 1
      : 2 * info.steps;
}

/** The boundary this delivery dies at (undefined: none). */
function killPoint(info: BoundaryInfo): number | undefined {
  if (killMode === "boundaries") return info.dequeueCount - 1;
  const planned = /-b(\d+)$/.exec(info.transactionId);
  return planned && info.dequeueCount === 1 ? Number(planned[1]) : undefined;
}

/** Enough workers that one process holds every message at once (a kill then advances them all). */
const WORKERS = 8;
const workers = Array.from({ length: WORKERS }, () =>
  transactions.worker({
    concurrency: 256,
    visibilityTimeout,
    maxDequeueCount,
    retryDelay: 0,
    pollIntervalMs: 20,
    onBoundary(info) {
      if (!kill || boundaryIndex(info) !== killPoint(info)) return;
      paused.push(`${info.transactionId} ${info.point} ${info.step} ${info.dequeueCount}`);
      // Stop receiving a little later, so one kill catches more transactions at their boundaries.
      if (!stopScheduled) {
        stopScheduled = true;
        setTimeout(() => void Promise.all(workers.map((w) => w.stop())), 600);
      }
      return new Promise<void>(() => {}); // held here until the kill
    },
  }),
);
for (const w of workers) w.start();

const sum = (f: (w: (typeof workers)[number]) => number) => workers.reduce((n, w) => n + f(w), 0);
let exiting = false;
let lastReceived = -1;
let quietSince = Date.now();
setInterval(() => {
  if (paused.length > 0 && workers.every((w) => !w.receiving) && sum((w) => w.inFlight) === paused.length) {
    appendFileSync(killLog!, `${paused.join("\n")}\n`);
    process.kill(process.pid, "SIGKILL");
  }
  const received = sum((w) => w.stats.received);
  if (received !== lastReceived) {
    lastReceived = received;
    quietSince = Date.now();
  } else if (
    !exiting &&
    paused.length === 0 &&
    sum((w) => w.inFlight) === 0 &&
    Date.now() - quietSince > 1500
  ) {
    exiting = true;
    void Promise.all(workers.map((w) => w.stop())).then(async () => {
      await store.close();
      process.exit(0);
    });
  }
}, 10);
