/**
 * A server in a node child process, for the server benchmarks: started, its connection string read
 * from what it prints when it listens, stopped with SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../../test/support/azurite.js";

export interface Served {
  readonly connectionString: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Runs `node <nodeArgs>` and resolves once it prints `Connection string: …` (tablekit serve) or
 * `PORT <n>` (a bare server, given the development account's Table endpoint on that port).
 */
export async function startServed(nodeArgs: readonly string[]): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, nodeArgs, { stdio: ["ignore", "pipe", "inherit"] });
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
