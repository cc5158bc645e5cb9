/**
 * Runs Azurite's own black-box queue and blob tests against `tablekit serve` and prints the counts.
 *
 *   npx tsx scripts/azurite-services-suite.ts <azurite-checkout> [queue|blob] [--grep <text>] [--spec]
 *
 * The checkout's dev dependencies must be installed (`npm ci` there). The script builds tablekit,
 * replaces the checkout's test-server factories for the run (tests/queue/utils/
 * QueueTestServerFactory.ts, tests/BlobTestServerFactory.ts) by ones that spawn `tablekit serve`
 * with only that service on the port Azurite's tests use (11001, 11000), runs the suites with
 * mocha, restores the original factories, and prints each count and every failing test. Nothing
 * of Azurite is part of this repository; CI does not run this. See docs/server.md for the result.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

interface Part {
  readonly name: "queue" | "blob";
  readonly factory: string;
  readonly suites: readonly string[];
  readonly source: (cli: string) => string;
}

/** The class both factories hand out: start() spawns serve and waits until it listens. */
function serveClass(cli: string, port: number, args: string[]): string {
  return `import { ChildProcess, spawn } from "child_process";
import { resolve } from "path";

export class TablekitServe {
  public readonly config = { host: "127.0.0.1", port: ${port} };
  private child?: ChildProcess;
  constructor(private readonly extra: string[]) {}

  start(): Promise<void> {
    const args = [${JSON.stringify(cli)}, "serve", ${args.map((a) => JSON.stringify(a)).join(", ")}, "--inMemoryPersistence", "--no-explorer", "--silent", ...this.extra];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
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
      // --silent prints nothing: poll the port instead.
      const net = require("net");
      const poll = () => {
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

export function extraArgs(https?: boolean, skipApiVersionCheck?: boolean, loose?: boolean): string[] {
  const extra: string[] = [];
  if (skipApiVersionCheck) extra.push("--skipApiVersionCheck");
  if (loose) extra.push("--loose");
  if (https) extra.push("--cert", resolve("tests/server.cert"), "--key", resolve("tests/server.key"));
  return extra;
}
`;
}

const HEADER =
  "// Written by tablekit's scripts/azurite-services-suite.ts for one run; the original is restored after it.\n";

const PARTS: readonly Part[] = [
  {
    name: "queue",
    factory: "tests/queue/utils/QueueTestServerFactory.ts",
    suites: [
      "tests/queue/apis/*.test.ts",
      "tests/queue/queueSas.test.ts",
      "tests/queue/queueAuthentication.test.ts",
      "tests/queue/queueSpecialnaming.test.ts",
    ],
    source: (cli) =>
      `${HEADER}${serveClass(cli, 11001, ["--no-table", "--no-blob", "--queueHost", "127.0.0.1", "--queuePort", "11001"])}
export interface IQueueTestServerFactoryParams {
  metadataDBPath: string;
  extentDBPath: string;
  persistencePathArray: any;
  enableDebugLog?: boolean;
  debugLogFilePath?: string;
  loose?: boolean;
  skipApiVersionCheck?: boolean;
  https?: boolean;
  oauth?: string;
}

export default class QueueTestServerFactory {
  public createServer(params: IQueueTestServerFactoryParams): any {
    return new TablekitServe(extraArgs(params.https, params.skipApiVersionCheck, params.loose));
  }
}
`,
  },
  {
    name: "blob",
    factory: "tests/BlobTestServerFactory.ts",
    suites: [
      "tests/blob/apis/container.test.ts",
      "tests/blob/apis/blockblob.test.ts",
      "tests/blob/apis/appendblob.test.ts",
    ],
    source: (cli) =>
      `${HEADER}${serveClass(cli, 11000, ["--no-table", "--no-queue", "--blobHost", "127.0.0.1", "--blobPort", "11000"])}
export class LiveModeStubServer extends TablekitServe {}

export default class BlobTestServerFactory {
  public createServer(loose = false, skipApiVersionCheck = false, https = false, _oauth?: string): any {
    return new TablekitServe(extraArgs(https, skipApiVersionCheck, loose));
  }
}
`,
  },
];

/**
 * A mocha reporter that counts every test the run was asked for (a test under a failing hook
 * never runs and counts as not passed) and writes passes and failures as JSON.
 */
const REPORTER = `"use strict";
const { writeFileSync } = require("fs");
module.exports = function Tally(runner) {
  const c = runner.constructor.constants;
  const grep = process.env.TALLY_GREP ? new RegExp(process.env.TALLY_GREP) : undefined;
  // Tests by object, not title: two of Azurite's tests share a title.
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

interface Tally {
  total: number;
  passes: number;
  pending: number;
  failures: { title: string; message: string }[];
  notRun: string[];
}

function runPart(checkout: string, part: Part, cli: string, grep: string | undefined, spec: boolean): void {
  const factory = join(checkout, part.factory);
  const original = readFileSync(factory, "utf8");
  const work = mkdtempSync(join(tmpdir(), `azurite-${part.name}-suite-`));
  const reportFile = join(work, "report.json");
  const reporterFile = join(work, "tally.js");
  writeFileSync(reporterFile, REPORTER);
  writeFileSync(factory, part.source(cli));
  let exit = "";
  try {
    const run = spawnSync(
      join(checkout, "node_modules", ".bin", "mocha"),
      [
        "--require",
        "ts-node/register",
        "--no-timeouts",
        "--exit",
        ...(spec ? [] : ["--reporter", reporterFile]),
        ...(grep ? ["--grep", grep] : []),
        ...part.suites,
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
          TS_NODE_COMPILER_OPTIONS: JSON.stringify({ rootDir: "." }),
        },
      },
    );
    exit = `status ${run.status}, signal ${run.signal}, ${run.error ?? ""}`;
  } finally {
    writeFileSync(factory, original);
  }
  if (!existsSync(reportFile)) {
    console.log(`${part.name}: mocha wrote no report (${exit})`);
    return;
  }
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as Tally;
  rmSync(work, { recursive: true, force: true });
  for (const f of report.failures) console.log(`FAIL ${f.title}\n     ${f.message}`);
  for (const title of report.notRun) console.log(`NOT RUN ${title}`);
  console.log(
    `tablekit serve passes ${report.passes}/${report.total} of Azurite's ${part.name} tests ` +
      `(${report.failures.length} failures, ${report.notRun.length} not run, ${report.pending} pending)`,
  );
}

function main(): void {
  const args = process.argv.slice(2);
  const checkout = args[0];
  if (!checkout || !PARTS.every((p) => existsSync(join(checkout, p.factory)))) {
    console.error(
      "usage: npx tsx scripts/azurite-services-suite.ts <azurite-checkout> [queue|blob] [--grep <text>] [--spec]",
    );
    process.exit(2);
  }
  const i = args.indexOf("--grep");
  const grep = i > 0 ? args[i + 1] : undefined;
  const chosen = PARTS.filter(
    (p) => (!args.includes("queue") && !args.includes("blob")) || args.includes(p.name),
  );
  const root = resolve(fileURLToPath(import.meta.url), "..", "..");
  const built = spawnSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(1);
  const cli = join(root, "dist", "cli", "main.js");
  for (const part of chosen) runPart(checkout, part, cli, grep, args.includes("--spec"));
}

main();
