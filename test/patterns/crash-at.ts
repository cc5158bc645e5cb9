/**
 * A worker that crashes at one step boundary of one transaction, as the chain needs: a
 * worker process SIGKILLed there where the store can be shared between processes, otherwise a
 * worker of this process halted there (nothing after the boundary runs, nothing is recorded).
 */
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BoundaryInfo, TransactionQueue } from "../../src/patterns/index.js";
import { queueOptions } from "./crashing-workers.js";
import type { PatternsTarget } from "./target.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where to crash: a transaction's boundary. */
export type CrashPoint = Pick<BoundaryInfo, "transactionId" | "point" | "step">;

/**
 * Runs one worker until it crashes at `at`; resolves once it has (its message comes back after
 * `visibilityTimeout` seconds). Rejects if the worker ends any other way.
 */
export async function crashAt(
  target: PatternsTarget,
  transactions: TransactionQueue,
  at: CrashPoint,
  visibilityTimeout: number,
): Promise<"killed" | "halted"> {
  if (target.sharedUrl) {
    const options = JSON.stringify({ queue: queueOptions(transactions), at, visibilityTimeout });
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(root, "test", "patterns", "tx-kill-worker.ts"), target.sharedUrl, options],
      { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
      child.on("close", (c, s) => done([c, s])),
    );
    if (signal !== "SIGKILL")
      throw new Error(`the worker did not die at the boundary (${code ?? signal}): ${stderr}`);
    return "killed";
  }
  let crashed: () => void = () => {};
  const done = new Promise<void>((r) => (crashed = r));
  const worker = transactions.worker({
    visibilityTimeout,
    pollIntervalMs: 20,
    onBoundary(info) {
      if (info.transactionId === at.transactionId && info.point === at.point && info.step === at.step) {
        worker.halt();
        crashed();
      }
    },
  });
  worker.start();
  await done;
  await worker.stop();
  return "halted";
}
