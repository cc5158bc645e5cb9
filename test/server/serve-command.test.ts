/**
 * `tablekit serve` as a user runs it: the real binary, Azurite's flags, the connection string it
 * prints; `--location` data survives a restart and a SIGKILL; SIGINT and SIGTERM stop it cleanly.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/index.js";
import { cli, finished, startCli, tempDir } from "../cli/run-cli.js";
import { entraToken } from "../support/entra-token.js";
import { rawRequest } from "../support/raw-table-client.js";
import { makeTestCertificate } from "../support/test-certificate.js";

const { dir, cleanup } = tempDir();
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  cleanup();
});

/** Starts the server and resolves with its connection string once it prints it. */
async function serve(
  args: string[],
): Promise<{ child: ChildProcess; connectionString: string; done: ReturnType<typeof finished> }> {
  const child = startCli(["serve", "--tablePort", "0", ...args], { cwd: dir });
  children.add(child);
  const done = finished(child);
  const connectionString = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer | string) => {
      out += d.toString();
      const match = /Connection string: (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    void done.then((r) => reject(new Error(`serve exited early: ${r.code} ${r.stderr}`)));
  });
  return { child, connectionString, done };
}

describe("tablekit serve (the binary)", { timeout: 60_000 }, () => {
  it("prints where it listens and a connection string the SDK-based backend uses", async () => {
    const { child, connectionString, done } = await serve(["--inMemoryPersistence"]);
    expect(connectionString).toMatch(
      /^DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=.+;TableEndpoint=http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1;$/,
    );
    const store = await openStore(`azure:${connectionString}`, { emulator: false });
    await store.createTable("Served");
    await store.table("Served").createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
    expect((await store.table("Served").getEntity("p", "r")).n).toBe(1);
    await store.close();
    child.kill("SIGINT");
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("stopped");
  });

  it("keeps --location data across a SIGTERM stop, a SIGKILL and two restarts", async () => {
    const location = `${dir}/data`;
    const first = await serve(["--location", location]);
    let store = await openStore(`azure:${first.connectionString}`, { emulator: false });
    await store.createTable("Durable");
    await store
      .table("Durable")
      .submitTransaction(
        Array.from(
          { length: 50 },
          (_, i) => ["create", { partitionKey: "p", rowKey: String(i).padStart(3, "0") }] as const,
        ),
      );
    await store.close();
    first.child.kill("SIGTERM");
    expect((await first.done).code).toBe(0);

    const second = await serve(["--location", location]);
    store = await openStore(`azure:${second.connectionString}`, { emulator: false });
    await store.table("Durable").createEntity({ partitionKey: "p", rowKey: "after-restart" });
    await store.close();
    second.child.kill("SIGKILL");
    expect((await second.done).signal).toBe("SIGKILL");

    const third = await serve(["--location", location]);
    store = await openStore(`azure:${third.connectionString}`, { emulator: false });
    let count = 0;
    for await (const _ of store.table("Durable").listEntities()) count++;
    expect(count).toBe(51);
    await store.close();
    third.child.kill("SIGTERM");
    expect((await third.done).code).toBe(0);
  });

  it("--pages: fill (the default) pages across partitions, partition ends a page at each; another value is refused", async () => {
    for (const [args, pages] of [
      [[], 1],
      [["--pages", "partition"], 3],
    ] as const) {
      const { child, connectionString, done } = await serve(["--no-queue", "--no-blob", ...args]);
      const store = await openStore(`azure:${connectionString}`, { emulator: false });
      await store.createTable("Paged");
      for (const pk of ["a", "b", "c"])
        await store.table("Paged").createEntity({ partitionKey: pk, rowKey: "1" });
      let seen = 0;
      for await (const _ of store.table("Paged").listEntities().byPage({ maxPageSize: 100 })) seen++;
      expect([args, seen]).toEqual([args, pages]);
      await store.close();
      child.kill("SIGTERM");
      expect((await done).code).toBe(0);
    }
    const refused = await cli(["serve", "--tablePort", "0", "--pages", "partitions"], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/fill or partition/);
  });

  it("--oauth basic with --cert/--key serves HTTPS and takes a bearer token; another level is refused", async () => {
    const certificate = makeTestCertificate();
    try {
      const { child, connectionString, done } = await serve([
        "--oauth",
        "basic",
        "--cert",
        certificate.cert,
        "--key",
        certificate.key,
      ]);
      const endpoint = /TableEndpoint=(\S+?);/.exec(connectionString)![1]!;
      expect(endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/devstoreaccount1$/);
      const bearer = entraToken();
      const r = await rawRequest(endpoint, { path: "Tables", auth: { bearer }, ca: certificate.pem });
      expect(r.status).toBe(200);
      child.kill("SIGTERM");
      expect((await done).code).toBe(0);
    } finally {
      certificate.cleanup();
    }
    const refused = await cli(["serve", "--tablePort", "0", "--oauth", "full"], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/basic/);
    const warned = await serve(["--oauth", "basic"]);
    warned.child.kill("SIGTERM");
    expect((await warned.done).stderr).toMatch(/HTTPS only/);
  });
});
