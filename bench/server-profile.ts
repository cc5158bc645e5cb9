/**
 * The server's CPU per single insert, through the official SDK (`@azure/data-tables`), for one
 * server at a time: `tablekit` (serve, from the sources), `azurite`, or `bare` — a Node `http`
 * server that reads each request and answers it as serve would (a fixed 201 or 204 with the same
 * headers), checking nothing and storing nothing: the floor that Node's HTTP machinery sets.
 *
 *   npx tsx bench/server-profile.ts tablekit 5000 [--top 30] [--dist]
 *
 * With `--top N` (tablekit and bare) the server runs under `node --cpu-prof`, and the N functions
 * with the most self time over the whole run are printed (the start-up is in it: run thousands).
 * `--dist` runs serve from the build (dist/, `npm run build` first), as users run it, instead of
 * the sources through tsx (whose transform wraps every function made at run time in a naming call).
 *
 *   npx tsx bench/server-profile.ts tablekit 10000 --queue [--top 30]
 *
 * `--queue` (tablekit on a `--location` store, or azurite) profiles the queue round of
 * bench/server.bench.ts instead, through @azure/storage-queue: N messages sent, then received 32 at
 * a time and deleted, 8 requests in flight; it prints the server's and this client's CPU per
 * message beside the wall time (on a busy machine the wall time is mostly waiting for a core).
 *
 *   npx tsx bench/server-profile.ts tablekit 5000 --blob [--top 30]
 *
 * `--blob` (tablekit on a `--location` store, or azurite) profiles the small-blob rows instead,
 * through @azure/storage-blob: N uploads of 4 KiB, then N downloads, 8 requests in flight.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TableClient } from "@azure/data-tables";
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueClient } from "@azure/storage-queue";
import { startAzurite } from "../test/support/azurite.js";
import { type CpuProfile, printTop } from "./support/cpu-profile.js";
import { mainThreadCpuMicros, processTreeCpuMicros } from "./support/process-cpu.js";
import { type Served, startServed } from "./support/served-process.js";

const args = process.argv.slice(2);
const queueAt = args.indexOf("--queue");
const queueRound = queueAt >= 0;
if (queueRound) args.splice(queueAt, 1);
const blobAt = args.indexOf("--blob");
const blobRound = blobAt >= 0;
if (blobRound) args.splice(blobAt, 1);
const storageRound = queueRound || blobRound;
const topAt = args.indexOf("--top");
const top = topAt < 0 ? 0 : Number(args.splice(topAt, 2)[1]);
const distAt = args.indexOf("--dist");
const dist = distAt >= 0 && args.splice(distAt, 1).length > 0;
const [target = "", countText = "2000"] = args;
const count = Number(countText);
if (
  !["tablekit", "azurite", "bare"].includes(target) ||
  !(count > 0) ||
  (storageRound && target === "bare")
) {
  console.error(
    "usage: server-profile.ts <tablekit|azurite|bare> [count] [--top N] | <tablekit|azurite> [count] --queue|--blob [--top N]",
  );
  process.exit(2);
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const WARM_UP = 300;

/** The server's CPU time so far (every thread, nanosecond accounting), in µs. */
function cpuMicros(pid: number): number {
  const micros = processTreeCpuMicros(pid);
  if (micros === undefined) throw new Error("this system does not report per-thread CPU time in /proc");
  return micros;
}

/** A server in a node child process (under the profiler when `profileDir` is given). */
function startNode(nodeArgs: string[], profileDir: string | undefined): Promise<Served> {
  const flags = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  return startServed([...flags, ...nodeArgs]);
}

/**
 * The bare server: answers `POST /account/Tables` with 201 and the table's JSON, and any other
 * request, once its body is read, with serve's 204 to an insert (same headers, no checks).
 */
const BARE_SERVER = `
const http = require("node:http");
const { randomUUID } = require("node:crypto");
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const headers = {
      "x-ms-request-id": randomUUID(),
      "x-ms-version": req.headers["x-ms-version"] || "2019-02-02",
      date: new Date().toUTCString(),
    };
    if (req.url.endsWith("/Tables")) {
      res.writeHead(201, { ...headers, "content-type": "application/json;odata=nometadata" });
      res.end(JSON.stringify({ TableName: JSON.parse(Buffer.concat(chunks).toString()).TableName }));
      return;
    }
    const location = "http://" + req.headers.host + req.url + "(PartitionKey='p',RowKey='r')";
    res.writeHead(204, {
      ...headers,
      etag: 'W/"datetime\\'2026-11-22T02%3A49%3A12.9327936Z\\'"',
      location,
      dataserviceid: location,
      "preference-applied": "return-no-content",
    });
    res.end();
  });
});
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
server.keepAliveTimeout = 60000;
`;

const profileDir =
  top > 0 && target !== "azurite" ? mkdtempSync(join(tmpdir(), "tablekit-server-profile-")) : undefined;
const location = storageRound ? mkdtempSync(join(tmpdir(), "tablekit-server-profile-store-")) : undefined;
let served: Served;
if (target === "azurite") {
  const azurite = await startAzurite();
  served = {
    connectionString: storageRound ? azurite.connectionString : azurite.tableConnectionString,
    pid: azurite.pid,
    stop: azurite.stop,
  };
} else if (target === "bare") {
  served = await startNode(["-e", BARE_SERVER], profileDir);
} else {
  // --dist: the built CLI (npm run build first), as users run it; else the sources through tsx.
  const store = location ? ["--location", location] : ["--inMemoryPersistence"];
  const serveArgs = ["serve", ...store, "--tablePort", "0"];
  served = await startNode(
    dist
      ? [join(root, "dist", "cli", "main.js"), ...serveArgs]
      : ["--import", "tsx", join(root, "src", "cli", "main.ts"), ...serveArgs],
    profileDir,
  );
}

if (queueRound) {
  await profileQueueRound(served, count);
} else if (blobRound) {
  await profileBlobRound(served, count);
} else {
  const table = TableClient.fromConnectionString(served.connectionString, "Inserts", {
    allowInsecureConnection: true,
  });
  await table.createTable();
  const entity = (i: number) => ({
    partitionKey: "single",
    rowKey: String(i).padStart(10, "0"),
    name: `item ${i}`,
    n: i,
    d: i / 3,
  });
  for (let i = 0; i < WARM_UP; i++) await table.createEntity(entity(i));
  const cpu0 = cpuMicros(served.pid);
  const main0 = mainThreadCpuMicros(served.pid) ?? 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) await table.createEntity(entity(WARM_UP + i));
  const wallUs = ((performance.now() - started) * 1000) / count;
  const cpuUs = (cpuMicros(served.pid) - cpu0) / count;
  const mainUs = ((mainThreadCpuMicros(served.pid) ?? 0) - main0) / count;
  await served.stop();
  console.log(
    `${target}: ${count} single inserts, server CPU ${cpuUs.toFixed(0)} µs each (main thread ${mainUs.toFixed(0)}, helper threads ${(cpuUs - mainUs).toFixed(0)}: V8's optimizing compiler and GC), ${wallUs.toFixed(0)} µs end to end`,
  );
}
if (location) rmSync(location, { recursive: true, force: true });
if (profileDir) {
  const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
  // Per insert (the measured ones and the warm-up) or per message; start-up is in the profile too.
  if (file)
    printTop(
      JSON.parse(readFileSync(join(profileDir, file), "utf8")) as CpuProfile,
      top,
      storageRound ? count : count + WARM_UP,
    );
  rmSync(profileDir, { recursive: true, force: true });
}

/** Runs one phase of `n` operations; prints its wall time and the server's and this client's CPU per operation. */
async function phase(served: Served, name: string, n: number, work: () => Promise<void>): Promise<void> {
  const cpu0 = cpuMicros(served.pid);
  const client0 = process.cpuUsage();
  const started = performance.now();
  await work();
  const client = process.cpuUsage(client0);
  const per = (micros: number) => (micros / n).toFixed(0);
  console.log(
    `${target}: ${name} ${n}: ${((performance.now() - started) / 1000).toFixed(1)} s wall; per operation, server CPU ${per(cpuMicros(served.pid) - cpu0)} µs, client CPU ${per(client.user + client.system)} µs`,
  );
}

/** `n` uploads of 4 KiB, then `n` downloads, 8 requests in flight; stops the server. */
async function profileBlobRound(served: Served, n: number): Promise<void> {
  const container = BlobServiceClient.fromConnectionString(served.connectionString).getContainerClient(
    "profile",
  );
  await container.create();
  const body = Buffer.alloc(4096, 1);
  const eightAtOnce = async (op: (i: number) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < n) await op(next++);
      }),
    );
  };
  await phase(served, "4 KiB uploads", n, () =>
    eightAtOnce((i) => container.getBlockBlobClient(`small/${i}`).upload(body, body.length)),
  );
  await phase(served, "4 KiB downloads", n, () =>
    eightAtOnce((i) => container.getBlobClient(`small/${i}`).downloadToBuffer()),
  );
  await served.stop();
}

/** Sends `n` messages, then receives (32 at a time) and deletes them, 8 requests in flight; stops the server. */
async function profileQueueRound(served: Served, n: number): Promise<void> {
  const queue = new QueueClient(served.connectionString, "profile");
  await queue.create();
  const inFlight = 8;
  let next = 0;
  await phase(served, "send", n, async () => {
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < n) await queue.sendMessage(`message ${next++}`);
      }),
    );
  });
  await phase(served, "receive+delete", n, async () => {
    for (let left = n; left > 0; ) {
      const batches = await Promise.all(
        Array.from({ length: inFlight }, () =>
          queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 300 }),
        ),
      );
      const messages = batches.flatMap((b) => b.receivedMessageItems);
      if (messages.length === 0) throw new Error(`the queue came back empty with ${left} left`);
      let i = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (i < messages.length) {
            const m = messages[i++]!;
            await queue.deleteMessage(m.messageId, m.popReceipt);
          }
        }),
      );
      left -= messages.length;
    }
  });
  await served.stop();
}
