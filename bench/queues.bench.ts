/**
 * Queues, each against a baseline measured in the same run:
 * 1. the embedded queue (openStore("file:…")) vs raw better-sqlite3 doing the same work on the same
 *    schema (send one by one; receive batches of 32 in an IMMEDIATE transaction; delete each by id
 *    and receipt);
 * 2. the azure queue backend vs raw `@azure/storage-queue` calls on the same Azurite (target ≤ 1.1×);
 * 3. the table-backed queue's messages/s with 1, 4 and 16 consumers on the embedded engine and on
 *    DynamoDB Local.
 * Run: npx tsx bench/queues.bench.ts (or npm run bench -- queues; --smoke for tiny sizes).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueueServiceClient } from "@azure/storage-queue";
import Database from "better-sqlite3";
import { openStore, type Queue } from "../src/index.js";
import { startAzurite } from "../test/support/azurite.js";
import { startDynamoDbLocal } from "../test/support/dynamodb-local.js";
import { rounds, SMOKE, sized } from "./support/bench-mode.js";
import { versusSdk } from "./support/versus-sdk.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-queue-bench-"));
const TEXT = "x".repeat(200);

async function seconds(work: () => Promise<void> | void): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

const rate = (n: number, s: number) => Math.round(n / s).toLocaleString("en-US");

/** Receives batches of 32 and deletes each message until `total` are gone, with `consumers` in parallel. */
async function drain(queue: Queue, total: number, consumers: number): Promise<void> {
  let done = 0;
  await Promise.all(
    Array.from({ length: consumers }, async () => {
      while (done < total) {
        const { receivedMessageItems } = await queue.receiveMessages({
          numberOfMessages: 32,
          visibilityTimeout: 60,
        });
        if (receivedMessageItems.length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        for (const m of receivedMessageItems) {
          await queue.deleteMessage(m.messageId, m.popReceipt);
          done++;
        }
      }
    }),
  );
}

// 1. Embedded queue vs raw SQLite.
async function embeddedVsSqlite(): Promise<Record<string, string>[]> {
  const N = sized(20_000, 200);
  const store = await openStore(`file:${join(dir, "tablekit.db")}`);
  const queue = await store.createQueue("bench");
  const raw = new Database(join(dir, "raw.db"));
  raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = NORMAL");
  raw.exec(`CREATE TABLE m (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, text TEXT NOT NULL, inserted INTEGER NOT NULL,
    expires INTEGER NOT NULL, visible INTEGER NOT NULL, dequeues INTEGER NOT NULL, receipt TEXT NOT NULL);
    CREATE INDEX m_visible ON m (visible, seq); CREATE INDEX m_expires ON m (expires);`);
  const insert = raw.prepare(
    "INSERT INTO m (id, text, inserted, expires, visible, dequeues, receipt) VALUES (?, ?, ?, ?, ?, 0, ?)",
  );
  const purge = raw.prepare("DELETE FROM m WHERE expires <= ?");
  const select = raw.prepare(
    "SELECT seq, id, text, dequeues FROM m WHERE visible <= ? AND expires > ? ORDER BY visible, seq LIMIT 32",
  );
  const lease = raw.prepare("UPDATE m SET visible = ?, dequeues = dequeues + 1, receipt = ? WHERE seq = ?");
  const byId = raw.prepare("SELECT seq, receipt FROM m WHERE id = ?");
  const del = raw.prepare("DELETE FROM m WHERE seq = ?");
  const tx = raw.transaction((work: () => unknown) => work());
  const receipt = () => randomBytes(6).toString("base64url");

  const rawSend = await seconds(() => {
    for (let i = 0; i < N; i++) {
      const now = Date.now();
      tx.immediate(() => insert.run(randomUUID(), TEXT, now, now + 604_800_000, now, receipt()));
    }
  });
  const tkSend = await seconds(async () => {
    for (let i = 0; i < N; i++) await queue.sendMessage(TEXT);
  });
  const rawDrain = await seconds(() => {
    for (;;) {
      const batch = tx.immediate(() => {
        const now = Date.now();
        purge.run(now);
        const rows = select.all(now, now) as { seq: number; id: string }[];
        return rows.map((r) => {
          const r2 = receipt();
          lease.run(now + 60_000, r2, r.seq);
          return { id: r.id, receipt: r2 };
        });
      }) as { id: string; receipt: string }[];
      if (batch.length === 0) break;
      for (const m of batch) {
        tx.immediate(() => {
          const row = byId.get(m.id) as { seq: number; receipt: string } | undefined;
          if (!row || row.receipt !== m.receipt) throw new Error("lost");
          del.run(row.seq);
        });
      }
    }
  });
  const tkDrain = await seconds(() => drain(queue, N, 1));
  raw.close();
  await store.close();
  return [
    {
      case: `send ${N.toLocaleString("en-US")}`,
      "raw SQLite msg/s": rate(N, rawSend),
      "tablekit msg/s": rate(N, tkSend),
      overhead: `${(tkSend / rawSend).toFixed(2)}x`,
    },
    {
      case: `receive 32 + delete each, ${N.toLocaleString("en-US")}`,
      "raw SQLite msg/s": rate(N, rawDrain),
      "tablekit msg/s": rate(N, tkDrain),
      overhead: `${(tkDrain / rawDrain).toFixed(2)}x`,
    },
  ];
}

// 2. Azure queue adapter vs raw @azure/storage-queue on Azurite.
async function azureVsSdk(): Promise<Record<string, string | number>[]> {
  const server = await startAzurite();
  try {
    const store = await openStore(`azure:${server.connectionString}`);
    const service = QueueServiceClient.fromConnectionString(server.connectionString);
    const OPS = sized(100, 5);
    const rawSend = service.getQueueClient("rawsend");
    const rawCycle = service.getQueueClient("rawcycle");
    for (const q of [rawSend, rawCycle]) await q.create();
    const tkSend = await store.createQueue("tksend");
    const tkCycle = await store.createQueue("tkcycle");
    const rows = await versusSdk([
      {
        name: "sendMessage",
        ops: OPS,
        rounds: rounds(9),
        raw: async () => {
          for (let i = 0; i < OPS; i++) await rawSend.sendMessage(TEXT);
        },
        tablekit: async () => {
          for (let i = 0; i < OPS; i++) await tkSend.sendMessage(TEXT);
        },
      },
      {
        name: "send, receive (batches of 32), delete",
        ops: OPS,
        rounds: rounds(9),
        raw: async () => {
          for (let i = 0; i < OPS; i++) await rawCycle.sendMessage(TEXT);
          for (let left = OPS; left > 0; ) {
            const { receivedMessageItems } = await rawCycle.receiveMessages({
              numberOfMessages: 32,
              visibilityTimeout: 60,
            });
            for (const m of receivedMessageItems) await rawCycle.deleteMessage(m.messageId, m.popReceipt);
            left -= receivedMessageItems.length;
          }
        },
        tablekit: async () => {
          for (let i = 0; i < OPS; i++) await tkCycle.sendMessage(TEXT);
          await drain(tkCycle, OPS, 1);
        },
      },
    ]);
    await store.close();
    return rows;
  } finally {
    await server.stop();
  }
}

// 3. The table-backed queue with 1, 4 and 16 consumers.
async function tableQueueRates(
  name: string,
  url: string,
  messages: number,
): Promise<Record<string, string>[]> {
  const store = await openStore(url, { queues: "table" });
  const rows: Record<string, string>[] = [];
  try {
    for (const consumers of [1, 4, 16]) {
      const queue = await store.createQueue(`bench-${consumers}`);
      let next = 0;
      const send = await seconds(async () => {
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            while (next++ < messages) await queue.sendMessage(TEXT);
          }),
        );
      });
      const took = await seconds(() => drain(queue, messages, consumers));
      rows.push({
        backend: name,
        consumers: String(consumers),
        messages: messages.toLocaleString("en-US"),
        "send msg/s (16 senders)": rate(messages, send),
        "receive+delete msg/s": rate(messages, took),
      });
    }
  } finally {
    await store.close();
  }
  return rows;
}

try {
  console.log("\nembedded queue vs raw better-sqlite3, same schema and statements (file, WAL)");
  console.table(await embeddedVsSqlite());
  console.log(
    "\nazure queue backend vs raw @azure/storage-queue on Azurite (median of rounds; target overhead <= 1.10x)",
  );
  console.table(await azureVsSdk());
  const dynamo = await startDynamoDbLocal();
  try {
    const rows = [
      ...(await tableQueueRates("embedded (file)", `file:${join(dir, "table-queue.db")}`, sized(2000, 32))),
      ...(await tableQueueRates("DynamoDB Local", dynamo.storeUrl, sized(1000, 16))),
    ];
    console.log("\ntable-backed queue: messages/s by consumers (receive batches of 32, delete each)");
    console.table(rows);
  } finally {
    await dynamo.stop();
  }
  if (SMOKE) console.log("(smoke run: the numbers mean nothing)");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
