/**
 * Python's `azure.storage.queue` and `azure.storage.blob` (Debian's python3-azure, installed by
 * .ci/run) against tablekit serve's Queue and Blob services: test/server/python/storage_clients.py
 * asserts each behaviour and prints `ok <check>` lines. Skipped where no Python can import the
 * SDKs, except in CI (CI=true), where that fails.
 */
import { execFile, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";

const script = join(dirname(fileURLToPath(import.meta.url)), "python", "storage_clients.py");
/** Debian's interpreter first: a Python on PATH (pyenv, venv) may not see Debian's packages. */
const python = ["/usr/bin/python3", "python3"].find(
  (exe) =>
    spawnSync(exe, ["-c", "import azure.storage.queue, azure.storage.blob"], { stdio: "ignore" }).status ===
    0,
);
// Skipped only outside CI (a developer machine without the packages); CI must run it.
if (!python && process.env["CI"] === "true") {
  throw new Error(
    "No Python imports azure.storage.queue and azure.storage.blob, and CI must not skip this test: apt-get install python3-azure",
  );
}

let server: RunningServer;
beforeAll(async () => {
  if (python) server = await startServer({ port: 0, services: ["queue", "blob"] });
});
afterAll(() => server?.stop());

describe("Python azure.storage.queue and azure.storage.blob against tablekit serve", () => {
  // Skipped only without python3-azure outside CI (the check above throws in CI and prints how to install it).
  it.skipIf(!python)(
    "queues, messages, containers, ranges, block lists, append blobs, listings, conditions, page blobs, seal, batches, soft delete, leases, snapshots, copies, tags and tiers",
    { timeout: 90_000 },
    async () => {
      const { stdout } = await promisify(execFile)(python!, [script], {
        env: { ...process.env, TABLEKIT_CONNECTION_STRING: server.connectionString },
      });
      expect(stdout.trim().split("\n")).toEqual([
        "ok queues",
        "ok messages",
        "ok upload and download",
        "ok block list",
        "ok append blob",
        "ok listing",
        "ok conditions",
        "ok containers",
        "ok page blobs",
        "ok seal",
        "ok batch",
        "ok soft delete",
        "ok leases",
        "ok snapshots",
        "ok copy",
        "ok tags",
        "ok tiers",
      ]);
    },
  );
});
