/**
 * Runs Azurite's own black-box table tests against `tablekit serve` and prints how many pass.
 *
 *   npx tsx scripts/azurite-table-suite.ts <azurite-checkout> [--grep <text>] [--keep-log <file>]
 *                                          [--rest-helper-signed] [--spec]
 *
 * The checkout's dev dependencies must be installed (`npm ci` there). The script builds tablekit,
 * replaces the checkout's tests/table/utils/TableTestServerFactory.ts for the run by one that
 * spawns `tablekit serve` on 127.0.0.1:11002 (the port Azurite's tests use) with the flags the test
 * asks for, runs the table suites with mocha, restores the original factory, and prints the count
 * and every failing test. Nothing of Azurite is part of this repository; CI does not run this.
 * Typechecked with the tests (tsconfig.json). See docs/server.md for the expected result.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The suites the result counts (tests/table less its unit tests and environment test). */
const SUITES = [
  "tests/table/apis/*.test.ts",
  "tests/table/auth/sas.test.ts",
  "tests/table/auth/oauth.test.ts",
  "tests/table/auth/tableCorsRequest.test.ts",
  "tests/table/KeepAlive/*.test.ts",
];
const FACTORY = "tests/table/utils/TableTestServerFactory.ts";
/** A change made in the checkout for one run and undone after it: `find` (every occurrence) becomes `replace`. */
interface LocalEdit {
  readonly file: string;
  readonly find: string;
  readonly replace: string;
}

const SIGNING_LINE =
  "const stringToSign = createStringToSignForSharedKeyLite(url, path, headersIn, productionStyle);";
/**
 * The REST helper's SharedKeyLite requests break two Shared Key rules: they carry no date (the
 * Date slot is signed empty), and its POSTs are sent to `<path>/` but signed for `<path>`.
 * `--rest-helper-signed` fixes both for the run (an x-ms-date, and no trailing slash), to see
 * what its tests check beyond their signatures.
 */
const REST_HELPER_EDITS: readonly LocalEdit[] = [
  {
    file: "tests/table/utils/table.entity.tests.utils.for.rest.ts",
    find: SIGNING_LINE,
    replace: `if (!headersIn["x-ms-date"] && !headersIn["Date"]) headersIn["x-ms-date"] = new Date().toUTCString();\n  ${SIGNING_LINE}`,
  },
  {
    file: "tests/table/utils/table.entity.tests.rest.submitter.ts",
    // The submitter's template text `}/?${generateSas()}` (the "$" kept apart so it reads as text here).
    find: "}/?$" + "{generateSas()}",
    replace: "}?$" + "{generateSas()}",
  },
];

/**
 * The factory the tests get instead of Azurite's: the same parameters, and a server whose start()
 * spawns `tablekit serve` and waits for it to listen, and whose close() stops it and waits for the
 * port to be free.
 */
function factorySource(cli: string, debugLog: string | undefined): string {
  return `// Written by tablekit's scripts/azurite-table-suite.ts for one run; the original is restored after it.
import { ChildProcess, spawn } from "child_process";
import { resolve } from "path";

export interface ITableTestServerFactoryParams {
  metadataDBPath: string;
  enableDebugLog: boolean;
  debugLogFilePath: string;
  loose: boolean;
  skipApiVersionCheck: boolean;
  https: boolean;
  oauth?: string;
}

class TablekitServe {
  public readonly config = { host: "127.0.0.1", port: 11002 };
  private child?: ChildProcess;
  constructor(private readonly args: string[]) {}

  start(): Promise<void> {
    const child = spawn(process.execPath, [${JSON.stringify(cli)}, "serve", ...this.args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    return new Promise((ready, fail) => {
      let output = "";
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("successfully listening")) ready();
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(chunk));
      child.once("exit", (code) => fail(new Error("tablekit serve exited (" + code + "): " + output)));
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

export default class TableTestServerFactory {
  public static inMemoryPersistence(): boolean {
    return true;
  }

  public createServer(params: ITableTestServerFactoryParams): any {
    const args = ["--tableHost", "127.0.0.1", "--tablePort", "11002", "--inMemoryPersistence", "--no-explorer"];
    if (params.skipApiVersionCheck) args.push("--skipApiVersionCheck");
    if (params.loose) args.push("--loose");
    if (params.https) args.push("--cert", resolve("tests/server.cert"), "--key", resolve("tests/server.key"));
    if (params.oauth) args.push("--oauth", params.oauth);
    ${debugLog ? `args.push("--debug", ${JSON.stringify(debugLog)});` : ""}
    return new TablekitServe(args);
  }
}
`;
}

/**
 * A mocha reporter that counts every test the run was asked for (a test under a failing hook never
 * runs: it counts as not passed) and writes passes and failures as JSON. Mocha's own json reporter
 * stops writing when an assertion carries a BigInt, which several of these tests compare.
 */
const REPORTER_SOURCE = `"use strict";
const { writeFileSync } = require("fs");
module.exports = function TallyReporter(runner) {
  const { EVENT_RUN_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = runner.constructor.constants;
  const grep = process.env.TALLY_GREP ? new RegExp(process.env.TALLY_GREP) : undefined;
  const passed = new Set();
  const pending = new Set();
  const failures = [];
  runner.on(EVENT_TEST_PASS, (test) => passed.add(test.fullTitle()));
  runner.on(EVENT_TEST_PENDING, (test) => pending.add(test.fullTitle()));
  runner.on(EVENT_TEST_FAIL, (test, err) => {
    failures.push({ title: test.fullTitle(), message: String((err && err.message) || err).split("\\n")[0] });
  });
  runner.once(EVENT_RUN_END, () => {
    const all = [];
    const walk = (suite) => {
      for (const test of suite.tests) if (!grep || grep.test(test.fullTitle())) all.push(test.fullTitle());
      for (const child of suite.suites) walk(child);
    };
    walk(runner.suite);
    const notRun = all.filter((t) => !passed.has(t) && !pending.has(t) && !failures.some((f) => f.title === t));
    writeFileSync(process.env.TALLY_OUTPUT, JSON.stringify({ total: all.length, passes: passed.size, pending: pending.size, failures, notRun }));
  });
};
`;

interface Tally {
  total: number;
  passes: number;
  pending: number;
  failures: { title: string; message: string }[];
  notRun: string[];
}

function main(): void {
  const args = process.argv.slice(2);
  const checkout = args[0];
  if (!checkout || !existsSync(join(checkout, FACTORY))) {
    console.error(
      "usage: npx tsx scripts/azurite-table-suite.ts <azurite-checkout> [--grep <text>] [--keep-log <file>]",
    );
    process.exit(2);
  }
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i > 0 ? args[i + 1] : undefined;
  };
  const root = resolve(fileURLToPath(import.meta.url), "..", "..");
  const built = spawnSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(1);
  const cli = join(root, "dist", "cli", "main.js");
  const debugLog = option("--keep-log");

  const factory = join(checkout, FACTORY);
  const originals = new Map<string, string>([[factory, readFileSync(factory, "utf8")]]);
  const work = mkdtempSync(join(tmpdir(), "azurite-table-suite-"));
  const reportFile = join(work, "report.json");
  const reporterFile = join(work, "tally-reporter.js");
  writeFileSync(reporterFile, REPORTER_SOURCE);
  writeFileSync(factory, factorySource(cli, debugLog ? resolve(debugLog) : undefined));
  if (args.includes("--rest-helper-signed")) {
    for (const edit of REST_HELPER_EDITS) {
      const file = join(checkout, edit.file);
      const text = originals.get(file) ?? readFileSync(file, "utf8");
      if (!text.includes(edit.find)) {
        for (const [path, original] of originals) writeFileSync(path, original);
        console.error(`--rest-helper-signed: ${edit.file} no longer has what this script changes`);
        process.exit(2);
      }
      originals.set(file, text);
      writeFileSync(file, text.replaceAll(edit.find, edit.replace));
    }
  }
  let mochaExit = "";
  try {
    const grep = option("--grep");
    const run = spawnSync(
      join(checkout, "node_modules", ".bin", "mocha"),
      [
        "--require",
        "ts-node/register",
        "--no-timeouts",
        "--exit",
        ...(args.includes("--spec") ? [] : ["--reporter", reporterFile]),
        ...(grep ? ["--grep", grep] : []),
        ...SUITES,
      ],
      {
        cwd: checkout,
        stdio: "inherit",
        env: {
          ...process.env,
          NODE_TLS_REJECT_UNAUTHORIZED: "0",
          AZURITE_TEST_INMEMORYPERSISTENCE: "1",
          TS_NODE_TRANSPILE_ONLY: "true",
          TALLY_OUTPUT: reportFile,
          ...(grep ? { TALLY_GREP: grep } : {}),
          // TypeScript 6 (Azurite's current dev dependency) wants a rootDir for the tests' layout.
          TS_NODE_COMPILER_OPTIONS: JSON.stringify({ rootDir: "." }),
        },
      },
    );
    mochaExit = `status ${run.status}, signal ${run.signal}, ${run.error ?? ""}`;
  } finally {
    for (const [path, original] of originals) writeFileSync(path, original);
  }
  if (!existsSync(reportFile)) {
    console.error(`mocha wrote no report (${mochaExit})`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as Tally;
  rmSync(work, { recursive: true, force: true });
  for (const failure of report.failures) console.log(`FAIL ${failure.title}\n     ${failure.message}`);
  for (const title of report.notRun) console.log(`NOT RUN ${title}`);
  console.log(
    `tablekit serve passes ${report.passes}/${report.total} of Azurite's table tests ` +
      `(${report.failures.length} failures, ${report.notRun.length} not run, ${report.pending} pending)`,
  );
}

main();
