/**
 * The Queue and Blob halves of bench/server.bench.ts: the same client work, through the official
 * SDKs (`@azure/storage-queue`, `@azure/storage-blob`), on `tablekit serve` and on Azurite.
 * Queues: send N messages, then receive (32 at a time) and delete them all, at two sizes.
 * Blobs: 1,000 uploads and 1,000 downloads of 4 KiB, then one large blob streamed up (blocks of
 * 4 MiB, 4 in flight) and down. Each server's CPU comes from /proc (its whole process tree), and
 * its RSS is sampled every 20 ms while the large blob streams (peak over the baseline before).
 */
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueClient } from "@azure/storage-queue";
import { processTreeCpuMicros } from "./process-cpu.js";

export interface StorageServer {
  readonly name: string;
  readonly connectionString: string;
  readonly pid: number;
}

export interface StorageSizes {
  readonly queueSizes: readonly number[];
  readonly blobs: number;
  readonly bigBytes: number;
  /** Requests in flight at once, the same on both sides. */
  readonly concurrency: number;
}

export interface Cost {
  readonly seconds: number;
  /** Server CPU, seconds. */
  readonly cpu: number;
}

export interface StorageMeasured {
  readonly queues: Record<number, Cost>;
  readonly uploads: Cost;
  readonly downloads: Cost;
  readonly bigUp: Cost;
  readonly bigDown: Cost;
  /** RSS before the large blob, and its peak while streaming, MiB. */
  readonly rssBefore: number;
  readonly rssPeak: number;
}

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

async function cost(pid: number, work: () => Promise<void>): Promise<Cost> {
  const cpu0 = processTreeCpuMicros(pid) ?? 0;
  const started = performance.now();
  await work();
  return {
    seconds: (performance.now() - started) / 1000,
    cpu: ((processTreeCpuMicros(pid) ?? 0) - cpu0) / 1e6,
  };
}

/** Runs `op(0..count-1)` with `concurrency` in flight. */
async function parallel(count: number, concurrency: number, op: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await op(next++);
    }),
  );
}

async function queueRound(server: StorageServer, n: number, concurrency: number): Promise<Cost> {
  const queue = new QueueClient(server.connectionString, `bench-${n}`);
  await queue.create();
  const result = await cost(server.pid, async () => {
    await parallel(n, concurrency, (i) => queue.sendMessage(`message ${i}`));
    let received = 0;
    while (received < n) {
      // Receivers in parallel, each taking up to 32 and deleting them.
      const batches = await Promise.all(
        Array.from({ length: concurrency }, () =>
          queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 300 }),
        ),
      );
      const messages = batches.flatMap((b) => b.receivedMessageItems);
      if (messages.length === 0) throw new Error(`${server.name}: queue empty after ${received} of ${n}`);
      await parallel(messages.length, concurrency, (i) =>
        queue.deleteMessage(messages[i]!.messageId, messages[i]!.popReceipt),
      );
      received += messages.length;
    }
  });
  await queue.delete();
  return result;
}

/** A readable of `bytes` bytes in 1 MiB chunks, generated as it is read. */
function generated(bytes: number): Readable {
  const chunk = Buffer.alloc(1024 * 1024, 7);
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= part.length;
      this.push(part);
    },
  });
}

export async function measureStorage(server: StorageServer, sizes: StorageSizes): Promise<StorageMeasured> {
  const queues: Record<number, Cost> = {};
  for (const n of sizes.queueSizes) {
    queues[n] = await queueRound(server, n, sizes.concurrency);
    console.log(`${server.name}: ${n} messages in ${queues[n]!.seconds.toFixed(1)} s`);
  }
  const service = BlobServiceClient.fromConnectionString(server.connectionString);
  const container = service.getContainerClient("bench");
  await container.create();
  const body = Buffer.alloc(4096, 1);
  const uploads = await cost(server.pid, () =>
    parallel(sizes.blobs, sizes.concurrency, (i) =>
      container.getBlockBlobClient(`small/${i}`).upload(body, body.length),
    ),
  );
  const downloads = await cost(server.pid, () =>
    parallel(sizes.blobs, sizes.concurrency, async (i) => {
      const got = await container.getBlobClient(`small/${i}`).downloadToBuffer();
      if (got.length !== 4096) throw new Error(`${server.name}: small/${i} came back with ${got.length}`);
    }),
  );
  const rssBefore = rssMiB(server.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMiB(server.pid));
  }, 20);
  const big = container.getBlockBlobClient("big");
  const bigUp = await cost(server.pid, async () => {
    await big.uploadStream(generated(sizes.bigBytes), 4 * 1024 * 1024, 4);
  });
  const bigDown = await cost(server.pid, async () => {
    const download = await big.download();
    let n = 0;
    for await (const chunk of download.readableStreamBody!) n += (chunk as Buffer).length;
    if (n !== sizes.bigBytes) throw new Error(`${server.name}: big blob came back with ${n} bytes`);
  });
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssMiB(server.pid));
  console.log(`${server.name}: blobs done (RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MiB)`);
  return { queues, uploads, downloads, bigUp, bigDown, rssBefore, rssPeak };
}

/** Result rows: wall time and server CPU on each side; the ratio is Azurite's over ours. */
export function storageRows(
  ours: StorageMeasured,
  theirs: StorageMeasured,
  sizes: StorageSizes,
): Record<string, Record<string, string>> {
  const rows: Record<string, Record<string, string>> = {};
  const both = (label: string, a: Cost, b: Cost) => {
    rows[`${label}, s wall`] = {
      tablekit: a.seconds.toFixed(2),
      azurite: b.seconds.toFixed(2),
      ratio: `${(b.seconds / a.seconds).toFixed(1)}x`,
    };
    rows[`${label}, s server CPU`] = {
      tablekit: a.cpu.toFixed(2),
      azurite: b.cpu.toFixed(2),
      ratio: `${(b.cpu / a.cpu).toFixed(1)}x`,
    };
  };
  for (const n of sizes.queueSizes) {
    both(`queue: send, receive, delete ${n.toLocaleString("en")}`, ours.queues[n]!, theirs.queues[n]!);
  }
  const mib = sizes.bigBytes / 1024 / 1024;
  both(`blob: ${sizes.blobs.toLocaleString("en")} uploads of 4 KiB`, ours.uploads, theirs.uploads);
  both(`blob: ${sizes.blobs.toLocaleString("en")} downloads of 4 KiB`, ours.downloads, theirs.downloads);
  both(`blob: ${mib} MiB streamed up`, ours.bigUp, theirs.bigUp);
  both(`blob: ${mib} MiB streamed down`, ours.bigDown, theirs.bigDown);
  rows[`blob: RSS before → peak while streaming ${mib} MiB, MiB`] = {
    tablekit: `${ours.rssBefore.toFixed(0)} → ${ours.rssPeak.toFixed(0)}`,
    azurite: `${theirs.rssBefore.toFixed(0)} → ${theirs.rssPeak.toFixed(0)}`,
    ratio: "-",
  };
  return rows;
}
