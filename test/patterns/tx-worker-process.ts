/** Runs tx-fault-worker.ts in a process of its own (the fault tests' worker). */
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TransactionQueueOptions } from "../../src/patterns/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface WorkerProcessOptions {
  /** The queue's names (no handlers). */
  readonly queue: TransactionQueueOptions;
  readonly maxDequeueCount: number;
  readonly visibilityTimeout?: number;
  /** Where it dies: at boundary d-1 of the d-th delivery ("boundaries"), where the id plans it ("planned"), nowhere (""). */
  readonly kill: "boundaries" | "planned" | "";
}

/** One worker process on `url`; resolves with how it ended (SIGKILLed by itself, or idle). */
export function runWorkerProcess(
  url: string,
  options: WorkerProcessOptions,
  killLog: string,
): Promise<"killed" | "idle"> {
  const { kill, ...rest } = options;
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(root, "test", "patterns", "tx-fault-worker.ts"),
      url,
      JSON.stringify(rest),
      killLog,
    ],
    { cwd: root, env: { ...process.env, TABLEKIT_TX_KILL: kill }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((done, fail) => {
    child.on("close", (code, signal) => {
      if (signal === "SIGKILL") done("killed");
      else if (code === 0) done("idle");
      else fail(new Error(`worker exited with ${code ?? signal}: ${stderr}`));
    });
  });
}
