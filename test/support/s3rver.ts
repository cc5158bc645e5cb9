import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stopper } from "./child-stop.js";

/** A running s3rver: its endpoint, and how to stop it. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  /** Stops the process (idempotent); resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * The server, run in a child process on a leash (it exits when our end of its stdin closes). It
 * also accepts the fixed loopback credentials tablekit uses (`tablekit`/`tablekit`) beside its own.
 */
const SCRIPT = `
process.stdin.on("end", () => process.exit(0)).resume();
const [, entry, accountModule, directory] = process.argv;
const S3rver = require(entry);
require(accountModule).DUMMY_ACCOUNT.createKeyPair("tablekit", "tablekit");
new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory })
  .run()
  .then((info) => console.log("S3RVER_PORT " + info.port));
`;

/** Starts s3rver from node_modules on 127.0.0.1 with a free port and a scratch directory. */
export async function startS3rver(options: { timeoutMs?: number } = {}): Promise<S3Server> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve("s3rver");
  const accountModule = join(entry, "..", "models", "account.js");
  const directory = mkdtempSync(join(tmpdir(), "tablekit-s3rver-"));
  // Its continuation tokens are DES-encrypted, which OpenSSL 3 allows only with the legacy provider.
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "-e", SCRIPT, "--", entry, accountModule, directory],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const cleanup = () => rmSync(directory, { recursive: true, force: true });
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(
        () => reject(new Error(`s3rver did not start:\n${output}`)),
        options.timeoutMs ?? 30_000,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        const m = /S3RVER_PORT (\d+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          child.stdout!.removeListener("data", onData).resume();
          child.stderr!.resume();
          resolve(Number(m[1]));
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited with code ${code}:\n${output}`));
      });
    });
  } catch (err) {
    child.kill("SIGKILL");
    await exited;
    cleanup();
    throw err;
  }
  return { endpoint: `http://127.0.0.1:${port}`, stop: stopper(child, exited, cleanup) };
}
