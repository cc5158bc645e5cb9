/**
 * tablekit/storage-queue against the store's own queue port on the embedded engine (issue 36):
 * CPU per operation of the SDK-shaped QueueClient over the `Queue` it wraps, for a send, and a
 * receive followed by the delete of the message received, on `memory:` and on `file:`. Goal: the
 * entry point adds at most 10% (ratio ≤ 1.10). Both sides alternate, each on its own store; a
 * side's cost is the least CPU of its rounds. Run: npx tsx bench/storage-queue.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeStorageQueueStores, QueueServiceClient } from "../src/storage-queue/index.js";
import { openStore } from "../src/store/index.js";
import { rounds, SMOKE, sized, verdict } from "./support/bench-mode.js";

const OPS = sized(5_000, 50);
const ROUNDS = rounds(5);
const GOAL = 1.1;
const TEXT = JSON.stringify({ job: "resize", photo: 7, sizes: [64, 256, 1024] });

/** What both sides do, each through its own client. */
interface Side {
  send(): Promise<unknown>;
  receiveAndDelete(): Promise<unknown>;
}

const scratch = mkdtempSync(join(tmpdir(), "tablekit-bench-storage-queue-"));

async function sides(url: (side: string) => string) {
  const store = await openStore(url("ours"));
  const queue = store.queue("jobs");
  await queue.create();
  const ours: Side = {
    send: () => queue.sendMessage(TEXT),
    receiveAndDelete: async () => {
      const [m] = (await queue.receiveMessages()).receivedMessageItems;
      if (m) await queue.deleteMessage(m.messageId, m.popReceipt);
    },
  };
  const client = QueueServiceClient.fromConnectionString(url("shim")).getQueueClient("jobs");
  await client.create();
  const shim: Side = {
    send: () => client.sendMessage(TEXT),
    receiveAndDelete: async () => {
      const [m] = (await client.receiveMessages()).receivedMessageItems;
      if (m) await client.deleteMessage(m.messageId, m.popReceipt);
    },
  };
  return { ours, shim, close: () => store.close() };
}

/** CPU microseconds (user + system) of `n` operations. */
async function cpuPerOp(n: number, op: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await op();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

// A round sends OPS messages, then receives and deletes them: the queue is empty after each round.
const rows: Record<string, (side: Side) => Promise<number>> = {
  sendMessage: (side) => cpuPerOp(OPS, () => side.send()),
  "receiveMessages + deleteMessage": (side) => cpuPerOp(OPS, () => side.receiveAndDelete()),
};

const results: Record<string, string | number>[] = [];
const targets: [string, (side: string) => string][] = [
  ["memory:", () => "memory:"],
  ["file:", (side) => `file:${join(scratch, `${side}.db`)}`],
];
for (const [engine, url] of targets) {
  const { ours, shim, close } = await sides(url);
  const best: Record<string, { ours: number; shim: number }> = {};
  for (const name of Object.keys(rows)) best[name] = { ours: Infinity, shim: Infinity };
  // One warm-up round, then measured rounds; the sides take turns going first.
  for (let round = 0; round <= ROUNDS; round++) {
    const order: ["ours" | "shim", Side][] = [
      ["ours", ours],
      ["shim", shim],
    ];
    if (round % 2 === 1) order.reverse();
    for (const [label, side] of order) {
      for (const [name, run] of Object.entries(rows)) {
        const cost = await run(side);
        if (round > 0 || SMOKE) best[name]![label] = Math.min(best[name]![label], cost);
      }
    }
  }
  for (const [operation, { ours: a, shim: b }] of Object.entries(best)) {
    results.push({
      engine,
      operation,
      "queue port µs CPU/op": Number(a.toFixed(2)),
      "storage-queue µs CPU/op": Number(b.toFixed(2)),
      ratio: Number((b / a).toFixed(3)),
      [`goal ≤ ${GOAL}`]: verdict(b / a <= GOAL),
    });
  }
  await closeStorageQueueStores();
  await close();
}
console.log(
  `tablekit/storage-queue vs the store's Queue on the embedded engine (least CPU of ${ROUNDS} rounds)`,
);
console.table(results);
rmSync(scratch, { recursive: true, force: true });
