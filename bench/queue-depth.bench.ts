/**
 * Does a queue slow down as it grows? The embedded queue (openStore("file:…")) with 1,000 and then
 * 100,000 messages waiting: the cost of one receive of 32 and of deleting those 32, measured with
 * the same number of waiting messages in every round (32 new ones are sent, untimed, after each).
 * The baseline is the 1,000-message queue of the same run; the target is a ratio near 1 (receive
 * reads `(queue, visible, seq)` in order and delete finds a message by its id, both index searches).
 * Run: npx tsx bench/queue-depth.bench.ts (or npm run bench -- queue-depth; --smoke for tiny sizes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Queue } from "../src/index.js";
import { rounds, SMOKE, sized } from "./support/bench-mode.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-queue-depth-"));
const TEXT = "x".repeat(200);

async function fill(queue: Queue, n: number): Promise<void> {
  for (let i = 0; i < n; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => queue.sendMessage(TEXT)));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Depth {
  receive: number;
  delete: number;
}

/** Median milliseconds of one receive of 32 and of deleting them, with `waiting` messages queued. */
async function atDepth(waiting: number, batches: number): Promise<Depth> {
  const store = await openStore(`file:${join(dir, `depth-${waiting}.db`)}`);
  try {
    const queue = await store.createQueue("depth");
    await fill(queue, waiting);
    const receives: number[] = [];
    const deletes: number[] = [];
    for (let b = 0; b < batches; b++) {
      const start = performance.now();
      const { receivedMessageItems } = await queue.receiveMessages({
        numberOfMessages: 32,
        visibilityTimeout: 300,
      });
      const received = performance.now();
      if (receivedMessageItems.length !== 32)
        throw new Error(`received ${receivedMessageItems.length}, not 32`);
      for (const m of receivedMessageItems) await queue.deleteMessage(m.messageId, m.popReceipt);
      deletes.push(performance.now() - received);
      receives.push(received - start);
      await fill(queue, 32);
    }
    return { receive: median(receives), delete: median(deletes) };
  } finally {
    await store.close();
  }
}

try {
  const small = sized(1_000, 100);
  const large = sized(100_000, 1_000);
  const batches = rounds(200);
  const base = await atDepth(small, batches);
  const deep = await atDepth(large, batches);
  const ms = (x: number) => x.toFixed(2);
  console.log(
    `\nembedded queue (file, WAL): median of ${batches} rounds, baseline ${small.toLocaleString("en-US")} waiting`,
  );
  console.table([
    {
      step: "receive 32",
      [`ms, ${small.toLocaleString("en-US")} waiting`]: ms(base.receive),
      [`ms, ${large.toLocaleString("en-US")} waiting`]: ms(deep.receive),
      ratio: `${(deep.receive / base.receive).toFixed(2)}x`,
    },
    {
      step: "delete those 32",
      [`ms, ${small.toLocaleString("en-US")} waiting`]: ms(base.delete),
      [`ms, ${large.toLocaleString("en-US")} waiting`]: ms(deep.delete),
      ratio: `${(deep.delete / base.delete).toFixed(2)}x`,
    },
  ]);
  if (SMOKE) console.log("(smoke run: the numbers mean nothing)");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
