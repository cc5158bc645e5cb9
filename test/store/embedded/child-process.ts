import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

export interface RunningChild {
  readonly child: ChildProcess;
  /** Every line the child printed so far. */
  readonly lines: string[];
  /** Resolves once the child prints `line`; rejects if it exits first. */
  waitFor(line: string): Promise<void>;
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/** Starts `node --import tsx fixtures/<script> args…` with piped stdin/stdout. */
export function startChild(script: string, args: string[]): RunningChild {
  const child = spawn(process.execPath, ["--import", "tsx", join(fixtures, script), ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      lines.push(line);
      for (const w of waiters) if (w.line === line) w.resolve();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const waitFor = (line: string) =>
    lines.includes(line)
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          waiters.push({ line, resolve });
          void exited.then(() => reject(new Error(`the child exited before printing ${line}`)));
        });
  return { child, lines, waitFor, exited };
}
