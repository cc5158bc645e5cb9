/**
 * Runs the legacy azure-storage-node SDK's own live tests (its test/services/{table,queue,blob})
 * against `tablekit serve` and prints each count and every failing test.
 *
 *   npx tsx scripts/legacy-storage-suite.ts <azure-storage-node-checkout> [table|queue|blob] [--grep <text>] [--spec] [--no-build]
 *
 * The checkout needs its test dependencies (mocha, should, nock, batchflow and the library's own;
 * `npm install` there). The script builds tablekit, starts `tablekit serve` in memory on free ports
 * of 127.0.0.1 (`--no-build`: the dist/ already built), and runs the suites live (NOCK_OFF=true) with a connection string naming it. Nothing
 * of that SDK is part of this repository; CI does not run this. See docs/server.md for the result.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { buildTablekit, printTally, runMocha } from "./azurite-suite-runner.js";

const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

const PARTS = {
  table: [
    "tablebatch-tests.js",
    "tabledatatype-tests.js",
    "tablepayload-tests.js",
    "tablequery-tests.js",
    "tableservice-gb-tests.js",
    "tableservice-tests.js",
  ],
  queue: ["queueservice-tests.js"],
  blob: [
    "blobservice-archive-tests.js",
    "blobservice-container-tests.js",
    "blobservice-lease-tests.js",
    "blobservice-sse-tests.js",
    "blobservice-tests.js",
    "blobservice-uploaddownload-tests.js",
  ],
} as const;
type Part = keyof typeof PARTS;

/** A port of 127.0.0.1 nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Resolves once `port` accepts a connection (tries for 30 s). */
async function accepting(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => done(socket.destroy() !== undefined));
      socket.once("error", () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`tablekit serve did not accept connections on ${port}`);
}

async function startServe(cli: string): Promise<{ child: ChildProcess; connection: string }> {
  const [table, queue, blob] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [cli, "serve", "--silent", "--tablePort", `${table}`, "--queuePort", `${queue}`, "--blobPort", `${blob}`],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  await Promise.all([accepting(table), accepting(queue), accepting(blob)]);
  const endpoint = (port: number) => `http://127.0.0.1:${port}/devstoreaccount1`;
  const connection =
    `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${DEV_KEY};` +
    `BlobEndpoint=${endpoint(blob)};QueueEndpoint=${endpoint(queue)};TableEndpoint=${endpoint(table)};`;
  return { child, connection };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const checkout = args[0];
  if (!checkout || !existsSync(join(checkout, "test", "services", "table", "tableservice-tests.js"))) {
    console.error(
      "usage: npx tsx scripts/legacy-storage-suite.ts <azure-storage-node-checkout> [table|queue|blob] [--grep <text>] [--spec] [--no-build]",
    );
    process.exit(2);
  }
  const i = args.indexOf("--grep");
  const grep = i > 0 ? args[i + 1] : undefined;
  const parts = (Object.keys(PARTS) as Part[]).filter(
    (p) => !Object.keys(PARTS).some((q) => args.includes(q)) || args.includes(p),
  );
  const cli = args.includes("--no-build")
    ? join(import.meta.dirname, "..", "dist", "cli", "main.js")
    : buildTablekit();
  for (const part of parts) {
    // A fresh server per part: one part's leftovers never count against another.
    const { child, connection } = await startServe(cli);
    try {
      const tally = runMocha({
        checkout,
        suites: PARTS[part].map((file) => join("test", "services", part, file)),
        grep,
        spec: args.includes("--spec"),
        typescript: false,
        // AZURE_SAS: one listing test appends it to a copy source when `testutil.isBrowser` (a
        // function, so always truthy) holds; empty, the source URL stays the blob's own.
        env: { NOCK_OFF: "true", AZURE_STORAGE_CONNECTION_STRING: connection, AZURE_SAS: "" },
      });
      if (tally) printTally(part, tally, "the legacy azure-storage-node SDK's");
    } finally {
      child.kill();
    }
  }
}

await main();
