/**
 * A transaction worker in its own process that SIGKILLs itself at a random step boundary, for the
 * index convergence test: `node --import tsx index-worker.ts <store url> <options json>`, options
 * `{ queue: TransactionQueueOptions (without handlers), killAfter }`: it dies at a boundary
 * drawn uniformly from killAfter/2..killAfter. It carries the indexes'
 * handlers (cross-index-models.ts). It never exits by itself: the test kills it, or it dies when
 * its stdin (the test) closes.
 */
import { openStore } from "../../src/index.js";
import { TransactionQueue, type TransactionQueueOptions } from "../../src/patterns/index.js";
import { ByEmail, ByName } from "./cross-index-models.js";

const [url, optionsJson] = process.argv.slice(2);
const { queue, killAfter } = JSON.parse(optionsJson!) as {
  queue: TransactionQueueOptions;
  killAfter: number;
};
const killAt = Math.ceil(killAfter / 2 + (Math.random() * killAfter) / 2);
let boundaries = 0;
process.stdin.on("end", () => process.exit(0)).resume();
const store = await openStore(url!);
const transactions = new TransactionQueue(store, { ...queue, handlers: [ByEmail.handler, ByName.handler] });
transactions
  .worker({
    concurrency: 4,
    visibilityTimeout: 1,
    retryDelay: 0,
    maxDequeueCount: 1000,
    pollIntervalMs: 20,
    onBoundary() {
      // Mid-transaction, with up to three other deliveries anywhere in theirs.
      if (++boundaries === killAt) process.kill(process.pid, "SIGKILL");
    },
  })
  .start();
process.stdout.write("ready\n");
