/**
 * Large downloads from serve --location, sent from file reads kept ahead of the socket: a blob
 * replaced while a stalled download has not reached its later block files ends that response early
 * (never with other bytes), and a client that leaves mid-download leaves no file open behind.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BlobServiceClient, type BlockBlobClient } from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { patternBytes } from "../conformance/blobs/factory.js";

const location = mkdtempSync(join(tmpdir(), "tablekit-download-stream-"));
let server: RunningServer;
let blob: BlockBlobClient;
// More block files than a read opens at its start (256), and more bytes before the later ones than
// the socket and the send buffers hold: a client that does not read stalls the server before them.
// Blocks one byte past 64 KiB: a smaller one stays in its row and is written out with its
// neighbours at commit, so the blob would have few files.
const BLOCKS = 300;
const BLOCK = 64 * 1024 + 1;
const blocks = Array.from({ length: BLOCKS }, (_, i) => patternBytes(BLOCK, i));
const whole = Buffer.concat(blocks);
const id = (n: number) => Buffer.from(`block-${String(n).padStart(4, "0")}`).toString("base64");

/** Files this process holds open under `location`. */
function openFiles(): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(location);
    } catch {
      return false; // closed while listing
    }
  }).length;
}

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["blob"], location });
  const service = BlobServiceClient.fromConnectionString(server.connectionString);
  await service.createContainer("streams");
  blob = service.getContainerClient("streams").getBlockBlobClient("big");
  await Promise.all(blocks.map((b, i) => blob.stageBlock(id(i), b, b.length)));
  await blob.commitBlockList(blocks.map((_, i) => id(i)));
});

afterAll(async () => {
  await server?.stop();
  rmSync(location, { recursive: true, force: true });
});

describe("large downloads from block files (serve --location)", () => {
  it("sends the whole blob and exact ranges across block files", async () => {
    expect((await blob.downloadToBuffer()).equals(whole)).toBe(true);
    const offset = 3 * BLOCK - 17;
    const count = 40 * BLOCK + 33;
    expect((await blob.downloadToBuffer(offset, count)).equals(whole.subarray(offset, offset + count))).toBe(
      true,
    );
  });

  it("a client that leaves mid-download leaves no file open", async () => {
    const before = openFiles();
    const download = await blob.download();
    const body = download.readableStreamBody as NodeJS.ReadableStream & { destroy(): void };
    await new Promise<void>((resolve) => body.once("data", () => resolve()));
    expect(openFiles()).toBeGreaterThan(before);
    body.destroy();
    for (let i = 0; i < 50 && openFiles() > before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(openFiles()).toBe(before);
  });

  // Last: it replaces the blob.
  it("a stalled download of a blob replaced before it reaches its later block files ends early, never with other bytes", async () => {
    const download = await blob.download();
    await new Promise((resolve) => setTimeout(resolve, 200)); // the server fills the socket, then waits
    await blob.upload("replaced", 8);
    const got: Buffer[] = [];
    const ended = await (async () => {
      for await (const chunk of download.readableStreamBody!) got.push(chunk as Buffer);
    })().then(
      () => "read to the end",
      () => "ended early",
    );
    const arrived = Buffer.concat(got);
    expect(ended).toBe("ended early");
    expect(arrived.length).toBeLessThan(whole.length);
    expect(arrived.equals(whole.subarray(0, arrived.length))).toBe(true);
  });
});
