/**
 * A new user replaces Azurite with `tablekit serve`, changing nothing else: one program using
 * @azure/data-tables, @azure/storage-queue and @azure/storage-blob (test/server/apps/
 * three-services-app.ts) prints the same against Azurite and against the `tablekit` binary started
 * with no flag but a temporary `--location` — through `UseDevelopmentStorage=true` (so serve must
 * be on Azurite's default ports, 10000-10002, all three services) and through the connection string
 * serve prints. Then tablekit itself on that connection string: `openStore("azure:…")` with no
 * options, the large-entities pattern (blobs) and a queue.
 *
 * Serve takes the default ports, as a user's does: the test fails if something else holds them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/index.js";
import { LargeEntities } from "../../src/patterns/index.js";
import { finished, startServe, tempDir } from "../cli/run-cli.js";
import { startAzurite } from "../support/azurite.js";

const APP = join(dirname(fileURLToPath(import.meta.url)), "apps", "three-services-app.ts");
const TSX = import.meta.resolve("tsx");
const { dir, cleanup } = tempDir();
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  cleanup();
});

/** Runs the application (node + tsx, not the tablekit binary) and parses its one JSON line. */
async function app(connectionString: string, run: string): Promise<unknown> {
  const child = spawn(process.execPath, ["--import", TSX, APP], {
    cwd: dir,
    env: { ...process.env, AZURE_STORAGE_CONNECTION_STRING: connectionString, APP_RUN: run },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const result = await finished(child);
  children.delete(child);
  if (result.code !== 0) throw new Error(`the application failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!);
}

describe("replacing Azurite with tablekit serve", { timeout: 120_000 }, () => {
  it("one program on the three SDKs prints the same on Azurite and on `tablekit serve --location DIR`", async () => {
    const azurite = await startAzurite();
    let expected: unknown;
    try {
      expected = await app(azurite.connectionString, "azurite");
    } finally {
      await azurite.stop();
    }

    const { child, connectionString, done } = await startServe(
      ["--location", join(dir, "data")],
      { cwd: dir },
      (started) => children.add(started),
    );
    try {
      // Azurite's defaults: the three services on 127.0.0.1:10000-10002, the development account.
      expect(connectionString).toContain("BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;");
      expect(connectionString).toContain("QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;");
      expect(connectionString).toContain("TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;");
      expect(await app("UseDevelopmentStorage=true", "devstorage")).toEqual(expected);
      expect(await app(connectionString, "explicit")).toEqual(expected);

      // tablekit on the same connection string, as a user of Azurite opens it: no options.
      const store = await openStore(`azure:${connectionString}`);
      try {
        expect(store.queueCapabilities).toBeDefined();
        expect(store.blobCapabilities).toBeDefined();
        await store.createTable("Employees");
        const photos = store.container("photos");
        await photos.create();
        const large = new LargeEntities(store, store.table("Employees"), { container: photos });
        const photo = "x".repeat(200_000);
        const written = await large.create({ partitionKey: "staff", rowKey: "ada", photo });
        expect(Object.keys(written.blobs)).toEqual(["photo"]);
        expect(written.uploaded).toBe(1);
        expect((await large.get("staff", "ada")).photo).toBe(photo);
        const queue = store.queue("work");
        await queue.create();
        await queue.sendMessage("one");
        const [received] = (await queue.receiveMessages()).receivedMessageItems;
        expect(received?.messageText).toBe("one");
        await queue.deleteMessage(received!.messageId, received!.popReceipt);
        expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      child.kill("SIGTERM");
      expect((await done).code).toBe(0);
      children.delete(child);
    }
  });
});
