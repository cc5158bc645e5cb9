/**
 * Runs Azurite's own black-box table tests against `tablekit serve` and prints how many pass.
 *
 *   npx tsx scripts/azurite-table-suite.ts <azurite-checkout> [--grep <text>] [--keep-log <file>]
 *                                          [--rest-helper-signed] [--spec]
 *
 * The checkout's dev dependencies must be installed (`npm ci` there). The script builds tablekit,
 * replaces the checkout's tests/table/utils/TableTestServerFactory.ts for the run by one that
 * spawns `tablekit serve` (the Table service alone) on 127.0.0.1:11002, the port Azurite's tests
 * use, with the flags each test asks for, runs the table suites with mocha, restores the
 * original factory, and prints every failing test and the count. Nothing of Azurite is part of
 * this repository; CI does not run this. docs/server.md gives the result and explains each failure.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  buildTablekit,
  type LocalEdit,
  printTally,
  REPLACED_HEADER,
  runMocha,
  serveClassSource,
  withLocalEdits,
} from "./azurite-suite-runner.js";

/** The suites the count covers (tests/table less its unit tests and its environment test). */
const SUITES = [
  "tests/table/apis/*.test.ts",
  "tests/table/auth/sas.test.ts",
  "tests/table/auth/oauth.test.ts",
  "tests/table/auth/tableCorsRequest.test.ts",
  "tests/table/KeepAlive/*.test.ts",
];
const FACTORY = "tests/table/utils/TableTestServerFactory.ts";
const PORT = 11002;

/** The factory the tests get instead of Azurite's: the same parameters, a `tablekit serve` for each server. */
function factorySource(cli: string, debugLog: string | undefined): string {
  const args = ["--no-queue", "--no-blob", "--tableHost", "127.0.0.1", "--tablePort", String(PORT)];
  if (debugLog) args.push("--debug", debugLog);
  return `${REPLACED_HEADER}${serveClassSource(cli, PORT, args)}
export interface ITableTestServerFactoryParams {
  metadataDBPath: string;
  enableDebugLog: boolean;
  debugLogFilePath: string;
  loose: boolean;
  skipApiVersionCheck: boolean;
  https: boolean;
  oauth?: string;
}

export default class TableTestServerFactory {
  public static inMemoryPersistence(): boolean {
    return true;
  }

  public createServer(params: ITableTestServerFactoryParams): any {
    return new TablekitServe(extraArgs(params.https, params.skipApiVersionCheck, params.loose, params.oauth));
  }
}
`;
}

const SIGNING_LINE =
  "const stringToSign = createStringToSignForSharedKeyLite(url, path, headersIn, productionStyle);";
/**
 * The REST helper's SharedKeyLite requests break two Shared Key rules: they carry no date (the
 * Date slot is signed empty), and its POSTs are sent to `<path>/` but signed for `<path>`.
 * `--rest-helper-signed` mends both for the run (an x-ms-date, and no trailing slash), to see
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

function main(): void {
  const args = process.argv.slice(2);
  const checkout = args[0];
  if (!checkout || !existsSync(join(checkout, FACTORY))) {
    console.error(
      "usage: npx tsx scripts/azurite-table-suite.ts <azurite-checkout> [--grep <text>] [--keep-log <file>] [--rest-helper-signed] [--spec]",
    );
    process.exit(2);
  }
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i > 0 ? args[i + 1] : undefined;
  };
  const cli = buildTablekit();
  const debugLog = option("--keep-log");
  const edits: LocalEdit[] = [{ file: FACTORY, text: factorySource(cli, debugLog && resolve(debugLog)) }];
  if (args.includes("--rest-helper-signed")) edits.push(...REST_HELPER_EDITS);
  const tally = withLocalEdits(checkout, edits, () =>
    runMocha({ checkout, suites: SUITES, grep: option("--grep"), spec: args.includes("--spec") }),
  );
  if (tally) printTally("table", tally);
}

main();
