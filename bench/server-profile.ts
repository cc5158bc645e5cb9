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
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TableClient } from "@azure/data-tables";
import { AZURITE_ACCOUNT, AZURITE_KEY, startAzurite } from "../test/support/azurite.js";
import { type CpuProfile, printTop } from "./support/cpu-profile.js";
import { processTreeCpuMicros } from "./support/process-cpu.js";

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt < 0 ? 0 : Number(args.splice(topAt, 2)[1]);
const distAt = args.indexOf("--dist");
const dist = distAt >= 0 && args.splice(distAt, 1).length > 0;
const [target = "", countText = "2000"] = args;
const count = Number(countText);
if (!["tablekit", "azurite", "bare"].includes(target) || !(count > 0)) {
  console.error("usage: server-profile.ts <tablekit|azurite|bare> [count] [--top N]");
  process.exit(2);
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const WARM_UP = 300;

interface Served {
  readonly connectionString: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** The server's CPU time so far (every thread, nanosecond accounting), in µs. */
function cpuMicros(pid: number): number {
  const micros = processTreeCpuMicros(pid);
  if (micros === undefined) throw new Error("this system does not report per-thread CPU time in /proc");
  return micros;
}

/** A server in a node child process that prints `PORT <n>` or a connection string when it listens. */
async function startNode(nodeArgs: string[], profileDir: string | undefined): Promise<Served> {
  const flags = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const child: ChildProcess = spawn(process.execPath, [...flags, ...nodeArgs], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const connectionString = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const served = /Connection string: (\S+)/.exec(out);
      if (served) resolve(served[1]!);
      const port = /PORT (\d+)/.exec(out);
      if (port) {
        const endpoint = `http://127.0.0.1:${port[1]}/${AZURITE_ACCOUNT}`;
        resolve(
          `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};TableEndpoint=${endpoint};`,
        );
      }
    });
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
  child.stdout!.resume();
  return {
    connectionString,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
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
let served: Served;
if (target === "azurite") {
  const azurite = await startAzurite();
  served = { connectionString: azurite.tableConnectionString, pid: azurite.pid, stop: azurite.stop };
} else if (target === "bare") {
  served = await startNode(["-e", BARE_SERVER], profileDir);
} else {
  // --dist: the built CLI (npm run build first), as users run it; else the sources through tsx.
  const serveArgs = ["serve", "--inMemoryPersistence", "--tablePort", "0"];
  served = await startNode(
    dist
      ? [join(root, "dist", "cli", "main.js"), ...serveArgs]
      : ["--import", "tsx", join(root, "src", "cli", "main.ts"), ...serveArgs],
    profileDir,
  );
}

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
const started = performance.now();
for (let i = 0; i < count; i++) await table.createEntity(entity(WARM_UP + i));
const wallUs = ((performance.now() - started) * 1000) / count;
const cpuUs = (cpuMicros(served.pid) - cpu0) / count;
await served.stop();
console.log(
  `${target}: ${count} single inserts, server CPU ${cpuUs.toFixed(0)} µs each, ${wallUs.toFixed(0)} µs end to end`,
);
if (profileDir) {
  const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
  // Per insert: the measured ones and the warm-up (start-up is in the profile too).
  if (file)
    printTop(JSON.parse(readFileSync(join(profileDir, file), "utf8")) as CpuProfile, top, count + WARM_UP);
  rmSync(profileDir, { recursive: true, force: true });
}
