/**
 * The deleted-name hold through `tablekit serve`, with the official clients: a queue or container
 * deleted less than 30 s ago answers 409 QueueBeingDeleted / ContainerBeingDeleted to a create, as
 * Azure does; the time is kept in the store (it survives a restart); `--deleted-name-hold 0` turns it off.
 */
import type { ChildProcess } from "node:child_process";
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueServiceClient } from "@azure/storage-queue";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { cli, startServe, tempDir } from "../cli/run-cli.js";

const { dir, cleanup } = tempDir();
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  cleanup();
});

async function failure(work: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await work;
  } catch (err) {
    const e = err as { statusCode: number; code: string };
    return { status: e.statusCode, code: e.code };
  }
  throw new Error("expected a failure");
}

let unique = 0;
const nameOf = (kind: string) => `${kind}${Date.now().toString(36)}x${unique++}`;

describe("deleted-name hold on tablekit serve", { timeout: 60_000 }, () => {
  it("a queue deleted moments ago is 409 QueueBeingDeleted to create and createIfNotExists", async () => {
    const server = await startServer({ port: 0, services: ["queue"] });
    try {
      const service = QueueServiceClient.fromConnectionString(server.connectionString);
      const name = nameOf("q");
      const queue = service.getQueueClient(name);
      await queue.create();
      await queue.sendMessage("first life");
      await queue.delete();
      expect(await failure(queue.create())).toEqual({ status: 409, code: "QueueBeingDeleted" });
      expect(await failure(queue.createIfNotExists())).toEqual({ status: 409, code: "QueueBeingDeleted" });
      expect(await failure(service.createQueue(name, { metadata: { a: "b" } }))).toEqual({
        status: 409,
        code: "QueueBeingDeleted",
      });
      expect(await queue.exists()).toBe(false);
      // Another name is not held.
      await service.getQueueClient(nameOf("q")).create();
    } finally {
      await server.stop();
    }
  });

  it("a container deleted moments ago is 409 ContainerBeingDeleted, also after a restart", async () => {
    const location = `${dir}/kept`;
    const name = nameOf("c");
    const first = await startServer({ port: 0, services: ["blob"], location });
    try {
      const container = BlobServiceClient.fromConnectionString(first.connectionString).getContainerClient(
        name,
      );
      await container.create();
      await container.getBlockBlobClient("b").upload("x", 1);
      await container.delete();
      expect(await failure(container.create())).toEqual({ status: 409, code: "ContainerBeingDeleted" });
      expect(await failure(container.createIfNotExists())).toEqual({
        status: 409,
        code: "ContainerBeingDeleted",
      });
    } finally {
      await first.stop();
    }
    const again = await startServer({ port: 0, services: ["blob"], location });
    try {
      const container = BlobServiceClient.fromConnectionString(again.connectionString).getContainerClient(
        name,
      );
      expect(await failure(container.create())).toEqual({ status: 409, code: "ContainerBeingDeleted" });
    } finally {
      await again.stop();
    }
  });

  it("--deleted-name-hold 0 turns it off; outside 0..3600 whole seconds the flag is refused", async () => {
    const { child, connectionString } = await startServe(
      ["--tablePort", "0", "--inMemoryPersistence", "--deleted-name-hold", "0"],
      { cwd: dir },
      (c) => children.add(c),
    );
    const queue = QueueServiceClient.fromConnectionString(connectionString).getQueueClient(nameOf("q"));
    await queue.create();
    await queue.delete();
    await queue.create();
    const container = BlobServiceClient.fromConnectionString(connectionString).getContainerClient(
      nameOf("c"),
    );
    await container.create();
    await container.delete();
    await container.create();
    child.kill("SIGINT");
    for (const bad of ["3601", "1.5", "x"]) {
      const result = await cli(["serve", "--tablePort", "0", "--deleted-name-hold", bad], { cwd: dir });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("0 to 3600");
    }
  });
});
