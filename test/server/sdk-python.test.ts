/**
 * Python's `azure.data.tables` (Debian's python3-azure, installed by .ci/run) against tablekit
 * serve: the script test/server/python/data_tables_client.py asserts each behaviour and prints
 * `ok <check>` lines. Skipped where no Python can import the SDK, except in CI (CI=true), where that fails.
 */
import { execFile, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";

const script = join(dirname(fileURLToPath(import.meta.url)), "python", "data_tables_client.py");
/** Debian's interpreter first: a Python on PATH (pyenv, venv) may not see Debian's packages. */
const python = ["/usr/bin/python3", "python3"].find(
  (exe) => spawnSync(exe, ["-c", "import azure.data.tables"], { stdio: "ignore" }).status === 0,
);
// Skipped only outside CI (a developer machine without the package); CI must run it.
const install = "sudo apt-get install -y python3-azure (Debian's package; .ci/run installs it)";
if (!python && process.env["CI"] === "true") {
  throw new Error(`No Python imports azure.data.tables, and CI must not skip this test: ${install}`);
}
if (!python)
  console.warn(`Skipping the Python SDK test: no Python imports azure.data.tables. To run it: ${install}.`);

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  if (python) server = await startServer({ port: 0 });
});
afterAll(() => server?.stop());

describe("Python azure.data.tables against tablekit serve", () => {
  // Skipped only without python3-azure outside CI (the check above throws in CI and prints how to install it).
  it.skipIf(!python)(
    "tables, EDM types, CRUD, paging, a failing batch and a SAS key range",
    { timeout: 60_000 },
    async () => {
      const { stdout } = await promisify(execFile)(python!, [script], {
        env: {
          ...process.env,
          TABLEKIT_CONNECTION_STRING: server.connectionString,
          TABLEKIT_TABLE_URL: server.url,
        },
      });
      expect(stdout.trim().split("\n")).toEqual([
        "ok tables",
        "ok edm types",
        "ok crud",
        "ok paging",
        "ok batch",
        "ok sas",
      ]);
    },
  );
});
