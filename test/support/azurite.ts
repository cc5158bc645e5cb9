import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stopper } from "./child-stop.js";

/** Azurite's fixed development account (public, documented; not a secret). */
export const AZURITE_ACCOUNT = "devstoreaccount1";
export const AZURITE_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

type Service = "blob" | "queue" | "table";

/** A running Azurite: its endpoints, connection strings, and how to stop it. */
export interface Azurite {
  /** `http://127.0.0.1:<port>/devstoreaccount1` for each service. */
  readonly endpoints: Readonly<Record<Service, string>>;
  /** An account-key connection string naming all three endpoints. */
  readonly connectionString: string;
  /** The same, naming only the table endpoint. */
  readonly tableConnectionString: string;
  /** `azure:<tableConnectionString>`, for `openStore`. */
  readonly storeUrl: string;
  /** The Azurite process (benchmarks read its CPU time and memory). */
  readonly pid: number;
  /** Stops the process (idempotent); resolves once it has exited. */
  stop(): Promise<void>;
}

const READY = /Azurite (Blob|Queue|Table) service is successfully listening at (http:\/\/[\d.]+:\d+)/g;

/**
 * Starts Azurite from node_modules on 127.0.0.1 with free ports, in memory, without telemetry,
 * and resolves once all three services listen. Call `stop()` in `afterAll` (also on failure).
 */
export async function startAzurite(options: { timeoutMs?: number } = {}): Promise<Azurite> {
  const entry = createRequire(import.meta.url).resolve("azurite/dist/src/azurite.js");
  // Azurite writes nothing with --inMemoryPersistence, but run it in a scratch directory anyway.
  const cwd = mkdtempSync(join(tmpdir(), "tablekit-azurite-"));
  const args = [
    // Azurite runs on a leash: it exits when this process's end of its stdin closes, so a test run
    // that is killed leaves no server behind. `require` sees Azurite's own argv (script, options).
    "-e",
    'process.stdin.on("end", () => process.exit(0)).resume(); require(process.argv[1]);',
    "--",
    entry,
    "--inMemoryPersistence",
    "--silent",
    "--skipApiVersionCheck",
    "--loose",
    "--disableTelemetry",
    ...(["blob", "queue", "table"] as const).flatMap((s) => [`--${s}Host`, "127.0.0.1", `--${s}Port`, "0"]),
  ];
  const child = spawn(process.execPath, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const cleanup = () => rmSync(cwd, { recursive: true, force: true });
  let endpoints: Record<Service, string>;
  try {
    endpoints = await waitForEndpoints(child, options.timeoutMs ?? 30_000);
  } catch (err) {
    child.kill("SIGKILL");
    await exited;
    cleanup();
    throw err;
  }
  const stop = stopper(child, exited, cleanup);
  const credentials = `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY}`;
  return {
    endpoints,
    connectionString: `${credentials};BlobEndpoint=${endpoints.blob};QueueEndpoint=${endpoints.queue};TableEndpoint=${endpoints.table};`,
    tableConnectionString: `${credentials};TableEndpoint=${endpoints.table};`,
    storeUrl: `azure:${credentials};TableEndpoint=${endpoints.table};`,
    pid: child.pid!,
    stop,
  };
}

function waitForEndpoints(child: ChildProcess, timeoutMs: number): Promise<Record<Service, string>> {
  return new Promise((resolve, reject) => {
    const found: Partial<Record<Service, string>> = {};
    let output = "";
    const timer = setTimeout(
      () => fail(new Error(`Azurite did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      for (const m of output.matchAll(READY)) {
        found[m[1]!.toLowerCase() as Service] = `${m[2]}/${AZURITE_ACCOUNT}`;
      }
      if (found.blob && found.queue && found.table) {
        clearTimeout(timer);
        // Keep draining the pipes so a chatty Azurite never blocks on a full buffer.
        child.stdout?.removeListener("data", onData).resume();
        child.stderr?.removeListener("data", onData).resume();
        resolve(found as Record<Service, string>);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) =>
      fail(new Error(`Azurite exited with code ${code} before it was ready:\n${output}`)),
    );
  });
}
