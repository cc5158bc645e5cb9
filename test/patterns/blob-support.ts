import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Capabilities } from "../../src/index.js";
import { itWhen, type PatternsRef, type PatternsTarget } from "./target.js";

/**
 * A test of a pattern that stands on the blob port: it runs where the store has a blob backend
 * (and `also` holds), and is reported as skipped elsewhere (a store whose URL configures no blobs).
 */
export function itWithBlobs(
  target: PatternsRef,
  name: string,
  fn: () => Promise<void>,
  options: {
    timeout?: number;
    also?: { holds: (c: Capabilities, t: PatternsTarget) => boolean; reason: string };
  } = {},
): void {
  const { also, timeout } = options;
  itWhen(
    target,
    (c, t) => t.store.blobCapabilities !== undefined && (also?.holds(c, t) ?? true),
    also ? `the store has no blob backend, or ${also.reason}` : "the store has no blob backend",
    name,
    fn,
    timeout,
  );
}

/** The multi-process tests' condition: another process can open the same store. */
export const SHARED = {
  holds: (c: Capabilities, t: PatternsTarget) => c.multiProcess && t.sharedUrl !== undefined,
  reason: "the store cannot be shared between processes",
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Runs `test/patterns/<script>` in a child process (through tsx) to its end: "exited" when it
 * exited normally, or the signal that ended it; rejects when it failed any other way.
 */
export function runChild(script: string, args: readonly string[]): Promise<string> {
  const file = join(root, "test", "patterns", script);
  return promisify(execFile)(process.execPath, ["--import", "tsx", file, ...args], { cwd: root }).then(
    () => "exited",
    (err: { signal?: string }) => err.signal ?? Promise.reject(err),
  );
}
