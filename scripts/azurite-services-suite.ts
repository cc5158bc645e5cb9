/**
 * Runs Azurite's own black-box queue and blob tests against `tablekit serve` and prints the counts.
 *
 *   npx tsx scripts/azurite-services-suite.ts <azurite-checkout> [queue|blob] [--all] [--grep <text>] [--spec]
 *
 * The checkout's dev dependencies must be installed (`npm ci` there). The script builds tablekit,
 * replaces the checkout's test-server factories for the run (tests/queue/utils/
 * QueueTestServerFactory.ts, tests/BlobTestServerFactory.ts) by ones that spawn `tablekit serve`
 * with only that service on the port Azurite's tests use (11001, 11000), runs the suites with
 * mocha, restores the original factories, and prints each count and every failing test. Nothing
 * of Azurite is part of this repository; CI does not run this. See docs/server.md for the result.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  buildTablekit,
  printTally,
  REPLACED_HEADER,
  runMocha,
  serveClassSource,
  withLocalEdits,
} from "./azurite-suite-runner.js";

interface Part {
  readonly name: "queue" | "blob";
  readonly factory: string;
  readonly suites: readonly string[];
  /** Every file of the service's tests that calls a server (`--all`). */
  readonly allSuites: readonly string[];
  readonly source: (cli: string) => string;
}

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
    allSuites: [
      "tests/queue/apis/*.test.ts",
      "tests/queue/https.test.ts",
      "tests/queue/oauth.test.ts",
      "tests/queue/queueAuthentication.test.ts",
      "tests/queue/queueCorsRequest.test.ts",
      "tests/queue/queueEnvironment.test.ts",
      "tests/queue/queueKeepAliveTimeout.test.ts",
      "tests/queue/queueSas.test.ts",
      "tests/queue/queueSpecialnaming.test.ts",
      "tests/queue/startupErrorRecovery.test.ts",
      "tests/queue/unit/QueueTokenAuthenticator.unit.test.ts",
    ],
    source: (cli) =>
      `${REPLACED_HEADER}${serveClassSource(cli, 11001, ["--no-table", "--no-blob", "--queueHost", "127.0.0.1", "--queuePort", "11001"])}
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
    return new TablekitServe(extraArgs(params.https, params.skipApiVersionCheck, params.loose, params.oauth));
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
    allSuites: [
      "tests/blob/apis/*.test.ts",
      "tests/blob/authentication.test.ts",
      "tests/blob/blobCorsRequest.test.ts",
      "tests/blob/blobKeepAliveTimeout.test.ts",
      "tests/blob/blockblob.highlevel.test.ts",
      "tests/blob/https.test.ts",
      "tests/blob/oauth.test.ts",
      "tests/blob/sas.test.ts",
      "tests/blob/specialnaming.test.ts",
    ],
    source: (cli) =>
      `${REPLACED_HEADER}${serveClassSource(cli, 11000, ["--no-table", "--no-queue", "--blobHost", "127.0.0.1", "--blobPort", "11000"])}
export class LiveModeStubServer extends TablekitServe {}

export default class BlobTestServerFactory {
  public createServer(loose = false, skipApiVersionCheck = false, https = false, oauth?: string): any {
    return new TablekitServe(extraArgs(https, skipApiVersionCheck, loose, oauth));
  }
}
`,
  },
];

function runPart(
  checkout: string,
  part: Part,
  cli: string,
  options: { grep: string | undefined; spec: boolean; all: boolean },
): void {
  const suites = options.all ? part.allSuites : part.suites;
  const tally = withLocalEdits(checkout, [{ file: part.factory, text: part.source(cli) }], () =>
    runMocha({ checkout, suites, grep: options.grep, spec: options.spec }),
  );
  if (tally) printTally(part.name, tally);
}

function main(): void {
  const args = process.argv.slice(2);
  const checkout = args[0];
  if (!checkout || !PARTS.every((p) => existsSync(join(checkout, p.factory)))) {
    console.error(
      "usage: npx tsx scripts/azurite-services-suite.ts <azurite-checkout> [queue|blob] [--all] [--grep <text>] [--spec]",
    );
    process.exit(2);
  }
  const i = args.indexOf("--grep");
  const grep = i > 0 ? args[i + 1] : undefined;
  const chosen = PARTS.filter(
    (p) => (!args.includes("queue") && !args.includes("blob")) || args.includes(p.name),
  );
  const cli = buildTablekit();
  for (const part of chosen)
    runPart(checkout, part, cli, { grep, spec: args.includes("--spec"), all: args.includes("--all") });
}

main();
