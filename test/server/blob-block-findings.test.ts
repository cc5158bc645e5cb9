/**
 * What an outside probe tried against Put Block, Put Block List and Get Block List (issue 32,
 * findings 7, 10 and 13), tried again: an anonymous caller of a public container sees committed
 * blocks only; a Put Block declaring more than 4000 MiB is 413 before a byte of its body is read;
 * two concurrent Put Blocks with ids of different lengths are never both accepted.
 */
import { request } from "node:http";
import {
  AnonymousCredential,
  BlobSASPermissions,
  BlobServiceClient,
  ContainerClient as Container,
  type ContainerClient,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { patternBytes } from "../conformance/blobs/factory.js";

let server: RunningServer;
let container: ContainerClient;
beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"] });
  container = BlobServiceClient.fromConnectionString(server.connectionString).getContainerClient("probe");
  await container.create();
});
afterAll(async () => {
  await server?.stop();
});

const id = (n: number, bytes = 8) => Buffer.from(String(n).padStart(bytes, "0")).toString("base64");

async function status(promise: Promise<unknown>): Promise<{ status: number; code?: string } | "ok"> {
  try {
    await promise;
    return "ok";
  } catch (err) {
    const e = err as { statusCode: number; code?: string };
    return { status: e.statusCode, ...(e.code ? { code: e.code } : {}) };
  }
}

/** A raw request: the status, headers and body text. */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => (body += d));
      res.on("end", () => done({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", fail);
    // A body is announced but never sent: an answer proves the server did not wait for it.
    if (method === "GET") req.end();
    else req.flushHeaders();
  });
}

describe("Get Block List by an anonymous caller of a public container (finding 7)", () => {
  it("shows committed blocks only, whatever list it asks for, and nothing of a blob with only staged blocks", async () => {
    const blob = container.getBlockBlobClient("public.bin");
    await blob.stageBlock(id(0), "committed", 9);
    await blob.commitBlockList([id(0)]);
    await blob.stageBlock(id(1), "secret", 6);
    await container.getBlockBlobClient("staged-only").stageBlock(id(2), "secret", 6);
    await container.setAccessPolicy("blob");
    const anonymous = new Container(container.url, new AnonymousCredential());
    const seen = await anonymous.getBlockBlobClient("public.bin").getBlockList("all");
    expect(seen.committedBlocks).toEqual([{ name: id(0), size: 9 }]);
    expect(seen.uncommittedBlocks ?? []).toEqual([]);
    for (const type of ["uncommitted", "all"]) {
      const answer = await raw(`${blob.url}?comp=blocklist&blocklisttype=${type}`, "GET", {});
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain(id(1));
    }
    expect(await status(anonymous.getBlockBlobClient("staged-only").getBlockList("all"))).toMatchObject({
      status: 404,
    });
    // The owner still sees both.
    const owner = await blob.getBlockList("all");
    expect(owner.uncommittedBlocks).toEqual([{ name: id(1), size: 6 }]);
    await container.setAccessPolicy();
  });
});

describe("Put Block declaring more than a block may hold (finding 10)", () => {
  it("answers 413 RequestBodyTooLarge from the declared Content-Length, before the body is sent", async () => {
    const blob = container.getBlockBlobClient("huge.bin");
    const sas = await blob.generateSasUrl({
      permissions: BlobSASPermissions.parse("rcw"),
      expiresOn: new Date(Date.now() + 3600_000),
    });
    const answer = await raw(`${sas}&comp=block&blockid=${encodeURIComponent(id(0))}`, "PUT", {
      "content-length": String(5 * 1024 ** 3),
    });
    expect(answer.status).toBe(413);
    expect(answer.headers["x-ms-error-code"]).toBe("RequestBodyTooLarge");
    expect(await status(blob.getBlockList("all"))).toMatchObject({ status: 404 });
  });
});

describe("concurrent Put Blocks with ids of different lengths (finding 13)", () => {
  it("accepts one of the two and refuses the other with InvalidBlobOrBlock, every time", async () => {
    for (let round = 0; round < 5; round++) {
      const blob = container.getBlockBlobClient(`race-${round}`);
      const bytes = patternBytes(300_000, round);
      const results = await Promise.all([
        status(blob.stageBlock(id(1, 4), bytes, bytes.length)),
        status(blob.stageBlock(id(2, 16), bytes, bytes.length)),
      ]);
      expect(results).toContainEqual("ok");
      expect(results).toContainEqual({ status: 400, code: "InvalidBlobOrBlock" });
      expect((await blob.getBlockList("uncommitted")).uncommittedBlocks).toHaveLength(1);
    }
  });
});
