import type { ChildProcess } from "node:child_process";

/**
 * How a test server started in a child process is stopped: SIGTERM, SIGKILL after 5 s, then
 * `cleanup()`. Idempotent: every call after the first waits for the same stop.
 */
export function stopper(
  child: ChildProcess,
  exited: Promise<void>,
  cleanup: () => void,
): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      cleanup();
    })();
    return stopped;
  };
}
