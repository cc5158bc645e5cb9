/**
 * What the scripts that run Azurite's own test suites against `tablekit serve` share
 * (scripts/azurite-table-suite.ts, scripts/azurite-services-suite.ts): building tablekit, the
 * server class a replaced test-server factory hands out, changes made in the checkout for one run
 * and undone after it, and a mocha run whose every test is counted. Typechecked with the tests.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Builds tablekit (`npm run build`) and returns its CLI's path (dist/cli/main.js); exits when the build fails. */
export function buildTablekit(): string {
  const root = resolve(fileURLToPath(import.meta.url), "..", "..");
  // `npm run build`, not tsc alone: the build script also keeps the CLI's exec bit.
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(1);
  return join(root, "dist", "cli", "main.js");
}

/** The first line of a replaced file, naming who wrote it. */
export const REPLACED_HEADER =
  "// Written by one of tablekit's scripts/azurite-*-suite.ts for one run; the original is restored after it.\n";

/**
 * TypeScript for the class a replaced factory hands out (`export class TablekitServe`): start()
 * spawns `tablekit serve` with `args` and resolves once `port` accepts connections; close() stops
 * it and waits for it to exit. `extraArgs(https, skipApiVersionCheck, loose, oauth)` turns a
 * factory's parameters into serve's flags (HTTPS with the checkout's test certificate).
 */
export function serveClassSource(cli: string, port: number, args: readonly string[]): string {
  const fixed = [...args, "--inMemoryPersistence", "--no-explorer", "--silent"].map((a) => JSON.stringify(a));
  return `import { ChildProcess, spawn } from "child_process";
import * as net from "net";
import { resolve } from "path";

export class TablekitServe {
  public readonly config = { host: "127.0.0.1", port: ${port} };
  private child?: ChildProcess;
  constructor(private readonly extra: string[]) {}

  start(): Promise<void> {
    const args = [${JSON.stringify(cli)}, "serve", ${fixed.join(", ")}, ...this.extra];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    this.child = child;
    return new Promise((ready, fail) => {
      let output = "";
      let exited = false;
      child.stderr!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        process.stderr.write(chunk);
      });
      child.once("exit", (code) => {
        exited = true;
        fail(new Error("tablekit serve exited (" + code + "): " + output));
      });
      const poll = () => {
        if (exited) return;
        const socket = net.connect(${port}, "127.0.0.1");
        socket.once("connect", () => { socket.destroy(); ready(); });
        socket.once("error", () => setTimeout(poll, 50));
      };
      poll();
    });
  }

  close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return Promise.resolve();
    return new Promise((done) => {
      child.once("exit", () => done());
      child.kill("SIGTERM");
    });
  }

  clean(): Promise<void> {
    return Promise.resolve();
  }
}

export function extraArgs(https?: boolean, skipApiVersionCheck?: boolean, loose?: boolean, oauth?: string): string[] {
  const extra: string[] = [];
  if (skipApiVersionCheck) extra.push("--skipApiVersionCheck");
  if (loose) extra.push("--loose");
  if (https) extra.push("--cert", resolve("tests/server.cert"), "--key", resolve("tests/server.key"));
  if (oauth) extra.push("--oauth", oauth);
  return extra;
}
`;
}

/** A change made in the checkout for one run: a whole file's text, or every `find` replaced. */
export type LocalEdit =
  | { readonly file: string; readonly text: string }
  | { readonly file: string; readonly find: string; readonly replace: string };

/**
 * Runs `body` with `edits` made in the checkout, and puts every file back afterwards, also when
 * `body` throws. An edit whose `find` the file no longer holds stops the run (exit 2).
 */
export function withLocalEdits<T>(checkout: string, edits: readonly LocalEdit[], body: () => T): T {
  const originals = new Map<string, string>();
  try {
    for (const edit of edits) {
      const path = join(checkout, edit.file);
      const text = originals.get(path) ?? readFileSync(path, "utf8");
      originals.set(path, text);
      if ("text" in edit) {
        writeFileSync(path, edit.text);
      } else {
        if (!text.includes(edit.find)) {
          console.error(`${edit.file} no longer holds what this script changes in it`);
          process.exitCode = 2;
          throw new Error("local edit does not apply");
        }
        writeFileSync(path, text.replaceAll(edit.find, edit.replace));
      }
    }
    return body();
  } finally {
    for (const [path, text] of originals) writeFileSync(path, text);
  }
}

/**
 * A mocha reporter that counts every test the run was asked for (a test under a failing hook
 * never runs: it counts as not run) and writes passes and failures as JSON. Mocha's own json
 * reporter stops writing when an assertion carries a BigInt, which several of these tests compare.
 */
const TALLY_REPORTER = `"use strict";
const { writeFileSync } = require("fs");
module.exports = function Tally(runner) {
  const c = runner.constructor.constants;
  const grep = process.env.TALLY_GREP ? new RegExp(process.env.TALLY_GREP) : undefined;
  // Tests by object, not title: two of Azurite's tests may share a title.
  const passed = new Set(), pending = new Set(), failed = new Set(), failures = [];
  runner.on(c.EVENT_TEST_PASS, (t) => passed.add(t));
  runner.on(c.EVENT_TEST_PENDING, (t) => pending.add(t));
  runner.on(c.EVENT_TEST_FAIL, (t, err) => { failed.add(t); failures.push({ title: t.fullTitle(), message: String((err && err.message) || err).split("\\n")[0] }); });
  runner.once(c.EVENT_RUN_END, () => {
    const all = [];
    const walk = (s) => { for (const t of s.tests) if (!grep || grep.test(t.fullTitle())) all.push(t); s.suites.forEach(walk); };
    walk(runner.suite);
    const notRun = all.filter((t) => !passed.has(t) && !pending.has(t) && !failed.has(t)).map((t) => t.fullTitle());
    writeFileSync(process.env.TALLY_OUTPUT, JSON.stringify({ total: all.length, passes: passed.size, pending: pending.size, failures, notRun }));
  });
};
`;

/** What a run counted. */
export interface Tally {
  readonly total: number;
  readonly passes: number;
  readonly pending: number;
  readonly failures: readonly { title: string; message: string }[];
  readonly notRun: readonly string[];
}

export interface MochaRun {
  readonly checkout: string;
  readonly suites: readonly string[];
  readonly grep?: string | undefined;
  /** Mocha's spec reporter instead of the count (to watch a run; then nothing is counted). */
  readonly spec?: boolean;
  /** False for suites written in JavaScript (no ts-node); true by default, as Azurite's are. */
  readonly typescript?: boolean;
  /** More environment for the tests (a connection string, …). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs the suites with the checkout's mocha (TypeScript through ts-node) and returns the count. */
export function runMocha(run: MochaRun): Tally | undefined {
  const work = mkdtempSync(join(tmpdir(), "azurite-suite-"));
  const reportFile = join(work, "report.json");
  const reporterFile = join(work, "tally.js");
  writeFileSync(reporterFile, TALLY_REPORTER);
  try {
    const result = spawnSync(
      join(run.checkout, "node_modules", ".bin", "mocha"),
      [
        ...(run.typescript === false ? [] : ["--require", "ts-node/register"]),
        "--no-timeouts",
        "--exit",
        ...(run.spec ? [] : ["--reporter", reporterFile]),
        ...(run.grep ? ["--grep", run.grep] : []),
        ...run.suites,
      ],
      {
        cwd: run.checkout,
        stdio: "inherit",
        env: {
          ...process.env,
          NODE_TLS_REJECT_UNAUTHORIZED: "0",
          AZURITE_TEST_INMEMORYPERSISTENCE: "1",
          TS_NODE_TRANSPILE_ONLY: "true",
          // TypeScript 6 (Azurite's current dev dependency) wants a rootDir for the tests' layout.
          TS_NODE_COMPILER_OPTIONS: JSON.stringify({ rootDir: "." }),
          TALLY_OUTPUT: reportFile,
          ...(run.grep ? { TALLY_GREP: run.grep } : {}),
          ...run.env,
        },
      },
    );
    if (!existsSync(reportFile)) {
      if (!run.spec) {
        console.error(
          `mocha wrote no count (status ${result.status}, signal ${result.signal}, ${result.error ?? ""})`,
        );
      }
      return undefined;
    }
    return JSON.parse(readFileSync(reportFile, "utf8")) as Tally;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Prints every failure and test not run, then the count, for `what` ("table", "queue", …) of `owner`'s suite. */
export function printTally(what: string, tally: Tally, owner = "Azurite's"): void {
  for (const f of tally.failures) console.log(`FAIL ${f.title}\n     ${f.message}`);
  for (const title of tally.notRun) console.log(`NOT RUN ${title}`);
  console.log(
    `tablekit serve passes ${tally.passes}/${tally.total} of ${owner} ${what} tests ` +
      `(${tally.failures.length} failures, ${tally.notRun.length} not run, ${tally.pending} pending)`,
  );
}
