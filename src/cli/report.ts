/**
 * How failures reach the user: `error <Code>: <message>` on stderr and an exit status.
 * 2 means the command line was wrong (usage, a malformed filter, store URL or continuation
 * token): nothing was read or written. 1 means the operation failed.
 */
import { CommanderError } from "commander";
import { TableKitError } from "../model/index.js";
import type { Channel } from "./output/terminal.js";

/** Codes that mean "the command line is wrong", reported with exit status 2. */
const USAGE_CODES: ReadonlySet<string> = new Set([
  "InvalidFilter",
  "InvalidStoreUrl",
  "InvalidContinuationToken",
]);

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Keys, message texts and receipts may begin with "-": after "--" nothing is read as an option. */
const DASH_HINT = 'an argument that begins with "-" goes after "--", as in: tablekit get Orders -- -east r1';

/** A usage error raised by a command's own checks (reported like commander's: `error Usage: …`). */
export function usageError(message: string): CommanderError {
  return new CommanderError(EXIT_USAGE, "tablekit.usage", message);
}

/** Writes `error <Code>: <message>` and returns the exit status for `err`. */
export function reportError(err: unknown, stderr: Channel, env: NodeJS.ProcessEnv = process.env): number {
  const label = (code: string) =>
    `${stderr.style.red(stderr.style.bold("error"))} ${stderr.style.bold(code)}`;
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return EXIT_OK; // --help, --version
    if (err.code !== "commander.help") {
      // Commander's "(Did you mean --filter?)" comes on a line of its own: one line, and no "--"
      // hint, which is for values that begin with "-", not for a misspelt option.
      const message = err.message.replace(/^error: /, "");
      const meant = /\s*\(Did you mean (\S+)\?\)\s*$/.exec(message);
      const text = meant ? `${message.slice(0, meant.index)}: did you mean ${meant[1]}?` : message;
      const hint = err.code === "commander.unknownOption" && !meant ? `; ${DASH_HINT}` : "";
      stderr.line(`${label("Usage")}: ${text}${hint} (see --help)`);
    }
    return EXIT_USAGE;
  }
  if (err instanceof TableKitError) {
    stderr.line(`${label(err.code)}: ${err.message}`);
    if (env.TABLEKIT_DEBUG && err.cause) stderr.line(String((err.cause as Error).stack ?? err.cause));
    return USAGE_CODES.has(err.code) ? EXIT_USAGE : EXIT_FAILED;
  }
  const e = err as Error;
  stderr.line(`${label(e?.name ?? "Error")}: ${e?.message ?? String(err)}`);
  if (env.TABLEKIT_DEBUG) stderr.line(String(e?.stack));
  return EXIT_FAILED;
}

/** Reports a failure found by a command that otherwise ran to its end (`error CountMismatch: …`). */
export function reportFailure(code: string, message: string, stderr: Channel): void {
  stderr.line(`${stderr.style.red(stderr.style.bold("error"))} ${stderr.style.bold(code)}: ${message}`);
  process.exitCode = EXIT_FAILED;
}
