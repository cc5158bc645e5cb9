/**
 * A transaction worker in its own process that SIGKILLs itself at one boundary of one transaction:
 * `node --import tsx tx-kill-worker.ts <store url> <options json>`, options
 * `{ queue: TransactionQueueOptions (names only), at: { id, point, step }, visibilityTimeout }`.
 * It carries the handlers of the suites that use it (cross-index-models.ts, denormalization). It
 * exits with status 3 if the boundary does not come within 60 s.
 */
import { openStore } from "../../src/index.js";
import {
  type BoundaryInfo,
  TransactionQueue,
  type TransactionQueueOptions,
} from "../../src/patterns/index.js";

const [url, optionsJson] = process.argv.slice(2);
const { queue, at, visibilityTimeout } = JSON.parse(optionsJson!) as {
  queue: TransactionQueueOptions;
  at: Pick<BoundaryInfo, "transactionId" | "point" | "step">;
  visibilityTimeout: number;
};
setTimeout(() => process.exit(3), 60_000).unref();
const store = await openStore(url!);
const transactions = new TransactionQueue(store, queue);
transactions
  .worker({
    visibilityTimeout,
    pollIntervalMs: 20,
    onBoundary(info) {
      if (info.transactionId === at.transactionId && info.point === at.point && info.step === at.step)
        process.kill(process.pid, "SIGKILL");
    },
  })
  .start();
