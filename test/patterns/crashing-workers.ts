/**
 * Transaction workers that crash now and then and are replaced, for the index convergence test:
 * separate processes SIGKILLed at random step boundaries where the store can be shared between
 * processes, otherwise workers of this process halted at random boundaries.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TransactionQueue, TransactionWorker } from "../../src/patterns/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface CrashingWorkers {
  /** "process": SIGKILLed worker processes; "halt": halted workers of this process. */
  readonly kind: "process" | "halt";
  /** Workers that crashed (and were replaced) so far. */
  readonly crashes: number;
  /** Stops the last worker (a process gets SIGKILL too); rejects if a worker failed otherwise. */
  stop(): Promise<void>;
}

/** The options a worker process needs to open `transactions` (its names; the handlers are its own). */
export function queueOptions(transactions: TransactionQueue) {
  return {
    queue: transactions.queue.name,
    poisonQueue: transactions.poison.queue.name,
    journalTable: transactions.journal.table.tableName,
    payloadContainer: transactions.payloadContainer,
  };
}

/** Worker processes on `url`, one at a time, each killing itself at a random boundary (killAfter/2..killAfter). */
export function crashingProcesses(
  url: string,
  transactions: TransactionQueue,
  killAfter: number,
): CrashingWorkers {
  let crashes = 0;
  let running = true;
  let child: ChildProcess | undefined;
  const options = JSON.stringify({ queue: queueOptions(transactions), killAfter });
  const loop = (async () => {
    while (running) {
      const c = spawn(
        process.execPath,
        ["--import", "tsx", join(root, "test", "patterns", "index-worker.ts"), url, options],
        {
          cwd: root,
          stdio: ["pipe", "ignore", "pipe"],
        },
      );
      child = c;
      let stderr = "";
      c.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
        c.on("close", (code, signal) => done([code, signal])),
      );
      if (signal !== "SIGKILL") throw new Error(`index worker exited with ${code ?? signal}: ${stderr}`);
      if (running) crashes++;
    }
  })();
  loop.catch(() => {}); // reported by stop()
  return {
    kind: "process",
    get crashes() {
      return crashes;
    },
    async stop() {
      running = false;
      child?.kill("SIGKILL");
      await loop;
    },
  };
}

/** Workers of this process, one at a time, each halted at a random boundary (killAfter/2..killAfter) and replaced. */
export function crashingInProcess(
  transactions: TransactionQueue,
  random: () => number,
  killAfter: number,
): CrashingWorkers {
  let crashes = 0;
  let current: TransactionWorker;
  const start = (): void => {
    const killAt = Math.ceil(killAfter / 2 + (random() * killAfter) / 2);
    let boundaries = 0;
    const w: TransactionWorker = transactions.worker({
      concurrency: 4,
      visibilityTimeout: 1,
      retryDelay: 0,
      maxDequeueCount: 1000,
      onBoundary: () => {
        if (w === current && ++boundaries === killAt) {
          crashes++;
          w.halt();
          start();
        }
      },
    });
    current = w;
    w.start();
  };
  start();
  return {
    kind: "halt",
    get crashes() {
      return crashes;
    },
    async stop() {
      await current.stop();
    },
  };
}
