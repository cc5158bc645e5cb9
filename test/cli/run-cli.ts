/**
 * Runs the real `tablekit` binary as a user would: a child process in a directory. `npm test` builds
 * first, so this is the built `dist/cli/main.js`; when the build is older than the sources (a
 * developer running vitest directly), the sources run through tsx instead.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { newestMtime } from "../support/newest-mtime.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SOURCE_MAIN = join(root, "src", "cli", "main.ts");
const BUILT_MAIN = join(root, "dist", "cli", "main.js");
const TSX = import.meta.resolve("tsx");

/** The command line that starts the binary: built when the build is current, else via tsx. */
export const LAUNCH: string[] =
  existsSync(BUILT_MAIN) && statSync(BUILT_MAIN).mtimeMs >= newestMtime(join(root, "src"))
    ? [BUILT_MAIN]
    : ["--import", TSX, SOURCE_MAIN];

/** Where a module the CLI imports (a `--models` file) finds tablekit's patterns: the build the CLI runs, or the sources. */
export const PATTERNS_ENTRY =
  LAUNCH[0] === BUILT_MAIN
    ? join(root, "dist", "patterns", "index.js")
    : join(root, "src", "patterns", "index.ts");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  /** Written to stdin, which is then closed (stdin is always a pipe, never a TTY). */
  input?: string;
  env?: Record<string, string | undefined>;
}

/** The variables that can choose a command's store when --store does not. */
export const STORE_VARIABLES = [
  "TABLEKIT_STORE",
  "AZURE_STORAGE_CONNECTION_STRING",
  "AWS_ENDPOINT_URL_DYNAMODB",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AWS_ACCESS_KEY_ID",
  "AWS_PROFILE",
] as const;

/** Starts the binary; the caller waits with `finished`. */
export function startCli(args: readonly string[], options: CliOptions): ChildProcess {
  const env: Record<string, string | undefined> = {
    ...process.env,
    // A developer's own store variables must not choose the store a test uses (store-choice.ts).
    ...Object.fromEntries(STORE_VARIABLES.map((name) => [name, undefined])),
    ...options.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const child = spawn(process.execPath, [...LAUNCH, ...args], {
    cwd: options.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin!.end(options.input ?? "");
  return child;
}

/** Collects a started child's output and exit. */
export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

/**
 * Starts `tablekit serve …` and resolves once it prints its connection string (rejects if it exits
 * first, with its exit code and stderr); `done` settles when it exits. `onStart` gets the child at
 * once, so a test can kill it even if it never gets that far.
 */
export async function startServe(
  args: readonly string[],
  options: CliOptions,
  onStart?: (child: ChildProcess) => void,
): Promise<{ child: ChildProcess; connectionString: string; done: Promise<CliResult> }> {
  const child = startCli(["serve", ...args], options);
  onStart?.(child);
  const done = finished(child);
  const connectionString = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer | string) => {
      out += d.toString();
      const match = /Connection string: (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    void done.then((r) => reject(new Error(`serve exited early: ${r.code} ${r.stderr}`)));
  });
  return { child, connectionString, done };
}

/** Runs `tablekit …` to completion. */
export function cli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return finished(startCli(args, options));
}

/** A fresh temporary directory, and a function that removes it. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "tablekit-cli-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The lines of NDJSON output, parsed. */
export function ndjson(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
