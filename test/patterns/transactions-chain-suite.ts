/**
 * Chained transfers under worker crashes (docs/patterns/eventually-consistent-transactions.md):
 * money moves among a few accounts through the transaction queue; each transfer is built by one
 * of several concurrent producers on the accounts as they are visible — so on the in-between
 * states of earlier transfers — while a depositor writes the accounts through their model and a
 * raw writer merges another property of them through `Table` (outside tablekit: it keeps the
 * evidence, moves the ETag). The first delivery of every other transfer dies at a planned step
 * boundary (a SIGKILLed worker process where the store can be shared, a halted worker otherwise),
 * every boundary in turn; one transfer in ten also writes a table that is missing until the end
 * (an injected permanent failure) and dies at a planned boundary of its first delivery after the
 * replay too, one replay having crashed after sending it back. Invariants: the total balance,
 * every transfer applied exactly once (each account's balance is what its transfers and deposits
 * make it), poison only for the injected failures.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/model/index.js";
import {
  type BoundaryInfo,
  defineModel,
  field,
  step,
  type TransactionQueue,
  type TransactionStep,
  type TransactionWorker,
} from "../../src/patterns/index.js";
import { listAll } from "../conformance/helpers.js";
import { queueOptions } from "./crashing-workers.js";
import { type PatternsRef, seededRandom } from "./target.js";
import { runWorkerProcess } from "./tx-worker-process.js";
import { freshTransactions } from "./world-helpers.js";

const Account = defineModel({
  table: "Accounts",
  fields: { bank: field.string(), id: field.string(), balance: field.int32() },
  partitionKey: (k) => k.field("bank"),
  rowKey: (k) => k.field("id"),
});

const ACCOUNTS = 12;
const OPENING = 100_000;
const PRODUCERS = 3;
/** Deliveries a transfer gets: a planned death, then failures of the injected ones only. */
const MAX_DEQUEUE_COUNT = 6;
const VISIBILITY = 2;

interface Transfer {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly amount: number;
  readonly injected: boolean;
}

function boundaryIndex(info: Pick<BoundaryInfo, "point" | "step" | "steps">): number {
  return info.point === "step"
    ? 2 * info.step
    : info.point === "applied"
      ? 2 * info.step + 1
      : 2 * info.steps;
}

/**
 * Workers of this process (for a store no other process can open), one delivery each, so halting
 * one at a planned boundary stops nothing else; each halted worker is replaced.
 */
function haltingWorkers(transactions: TransactionQueue, kills: string[]): { stop(): Promise<void> } {
  const running = new Set<TransactionWorker>();
  let stopping = false;
  const start = (): void => {
    const w: TransactionWorker = transactions.worker({
      concurrency: 1,
      visibilityTimeout: VISIBILITY,
      maxDequeueCount: MAX_DEQUEUE_COUNT,
      retryDelay: 0,
      pollIntervalMs: 20,
      onBoundary: (info) => {
        const planned = /-b(\d+)$/.exec(info.transactionId);
        if (!planned || info.dequeueCount !== 1 || boundaryIndex(info) !== Number(planned[1])) return;
        kills.push(`${info.transactionId} ${info.point} ${info.step}`);
        w.halt();
        running.delete(w);
        if (!stopping) start();
      },
    });
    running.add(w);
    w.start();
  };
  for (let i = 0; i < 8; i++) start();
  return {
    stop: async () => {
      stopping = true;
      await Promise.all([...running].map((w) => w.stop()));
    },
  };
}

/** Worker processes one after another (each SIGKILLed at the planned boundaries it meets) until `done`. */
function killedProcesses(
  url: string,
  transactions: TransactionQueue,
  killLog: string,
  done: () => boolean,
): { stop(): Promise<number> } {
  let kills = 0;
  const loop = (async () => {
    while (!done()) {
      const ended = await runWorkerProcess(
        url,
        {
          queue: queueOptions(transactions),
          maxDequeueCount: MAX_DEQUEUE_COUNT,
          visibilityTimeout: VISIBILITY,
          kill: "planned",
        },
        killLog,
      );
      if (ended === "killed") kills++;
    }
  })();
  return {
    stop: async () => {
      await loop;
      return kills;
    },
  };
}

export function transactionsChainSuite(target: PatternsRef): void {
  describe("eventually consistent transactions: chained transfers under crashes", () => {
    it("transfers built on in-between states by concurrent writers, workers killed at every step boundary: each applied exactly once", async () => {
      const seed = Number(process.env.TABLEKIT_SEED ?? Date.now() % 2 ** 31);
      const random = seededRandom(seed);
      const size = Number(process.env.TABLEKIT_CHAIN_TRANSFERS ?? (target().randomOperations ? 300 : 40));
      const { store } = target();
      if (!store.queueCapabilities) return; // a table-only world has no queue to run the pattern on
      const table = await target().freshTable();
      const accounts = Account.on(table);
      const transactions = await freshTransactions(target());
      const audit = target().freshTableName(); // missing until the end: the injected permanent failure
      const keys = Array.from({ length: ACCOUNTS }, (_, i) => ({ bank: `bank${i % 2}`, id: `a${i}` }));
      const name = (k: { bank: string; id: string }) => `${k.bank}/${k.id}`;
      for (const k of keys) await accounts.create({ ...k, balance: OPENING });

      // An account is busy from the moment a writer reads it until its write is visible: a
      // transfer's step applied (its ETag moved), or a deposit returned. Then it is free again.
      const busy = new Map<string, string | undefined>();
      const transfers: Transfer[] = [];
      const deposits = new Map<string, number>();
      let producing = true;
      let drained = false;
      const take = (n: number) => {
        const free = keys.filter((k) => !busy.has(name(k)));
        if (free.length < n) return undefined;
        const chosen: typeof keys = [];
        while (chosen.length < n) {
          const k = free.splice(Math.floor(random() * free.length), 1)[0]!;
          chosen.push(k);
          busy.set(name(k), undefined);
        }
        return chosen;
      };
      const release = (async () => {
        while (!drained) {
          for (const [key, etag] of busy) {
            if (etag === undefined) continue;
            const [bank, id] = key.split("/") as [string, string];
            if ((await table.getEntity(bank, id)).etag !== etag) busy.delete(key);
          }
          await sleep(20);
        }
      })();
      const produce = async () => {
        let waitingSince = Date.now();
        while (transfers.length < size) {
          const pair = take(2);
          if (!pair) {
            // Accounts stay busy only while a transfer is on its way: a parked one holds them for good.
            if (Date.now() - waitingSince > 120_000)
              throw new Error(`seed ${seed}: no two accounts free for 2 minutes (a transfer parked?)`);
            await sleep(10);
            continue;
          }
          waitingSince = Date.now();
          const [from, to] = pair as [(typeof keys)[0], (typeof keys)[0]];
          const [a, b] = [await table.getEntity(from.bank, from.id), await table.getEntity(to.bank, to.id)];
          const amount = 1 + Math.floor(random() * 100);
          const n = transfers.length;
          const injected = n % 10 === 9;
          const steps: TransactionStep[] = [
            step.updateIfMatch(
              table.tableName,
              { partitionKey: from.bank, rowKey: from.id, balance: (a.balance as number) - amount },
              a.etag,
              "Merge",
            ),
            step.updateIfMatch(
              table.tableName,
              { partitionKey: to.bank, rowKey: to.id, balance: (b.balance as number) + amount },
              b.etag,
              "Merge",
            ),
          ];
          if (random() < 0.5) steps.reverse();
          // The injected failure comes last: the money moves, the audit row waits for its table.
          if (injected) steps.push(step.upsert(audit, { partitionKey: "x", rowKey: `t${n}` }));
          // Every other transfer's first delivery dies at a planned boundary, each in turn; an
          // injected one's too, from its last boundary down (past the failing step, only the first
          // delivery after the replay reaches it; at `step 2` both do).
          const boundaries = 2 * steps.length + 1;
          const plan = injected
            ? `-b${boundaries - 1 - (((n - 9) / 10) % boundaries)}`
            : n % 2 === 0
              ? `-b${(n / 2) % boundaries}`
              : "";
          const id = `xfer-${n}${plan}`;
          transfers.push({ id, from: name(from), to: name(to), amount, injected });
          await transactions.enqueue(steps, { id });
          busy.set(name(from), a.etag);
          busy.set(name(to), b.etag);
        }
      };
      const deposit = async () => {
        while (producing) {
          const [k] = take(1) ?? [];
          if (k) {
            try {
              const current = await accounts.get(k);
              await accounts.patch(k, { balance: current.balance + 1 }, { etag: current.etag });
              deposits.set(name(k), (deposits.get(name(k)) ?? 0) + 1);
            } finally {
              busy.delete(name(k));
            }
          }
          await sleep(5 + Math.floor(random() * 20));
        }
      };

      // A writer outside tablekit: a merge of another property (it keeps the evidence, moves the ETag).
      let rawWrites = 0;
      const rawWrite = async () => {
        while (producing) {
          const [k] = take(1) ?? [];
          if (k) {
            try {
              await table.updateEntity(
                { partitionKey: k.bank, rowKey: k.id, note: `raw ${rawWrites}` },
                "Merge",
              );
              rawWrites++;
            } finally {
              busy.delete(name(k));
            }
          }
          await sleep(5 + Math.floor(random() * 20));
        }
      };

      const dir = mkdtempSync(join(tmpdir(), "tablekit-tx-chain-"));
      const killLog = join(dir, "kills.log");
      writeFileSync(killLog, "");
      const kills: string[] = [];
      const queueEmpty = async () =>
        (await transactions.queue.getProperties()).approximateMessagesCount === 0;
      const sharedUrl = target().sharedUrl;
      const shared = sharedUrl !== undefined && store.capabilities.multiProcess;
      /** Killing workers until the queue is empty; the kills they logged. */
      const killingRun = async (during: () => Promise<void>): Promise<string[]> => {
        let done = false;
        const logged: string[] = [];
        writeFileSync(killLog, "");
        const workers = shared
          ? killedProcesses(sharedUrl!, transactions, killLog, () => done)
          : haltingWorkers(transactions, logged);
        try {
          await during();
          const deadline = Date.now() + 600_000;
          while (!(await queueEmpty())) {
            if (Date.now() > deadline) throw new Error(`seed ${seed}: the queue did not drain`);
            await sleep(100);
          }
        } finally {
          done = true;
          await workers.stop();
        }
        logged.push(
          ...readFileSync(killLog, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => line.split(" ").slice(0, 3).join(" ")),
        );
        return logged;
      };
      const injected: string[] = [];
      let replayKills: string[] = [];
      try {
        kills.push(
          ...(await killingRun(async () => {
            const writers = [deposit(), rawWrite()];
            try {
              await Promise.all(Array.from({ length: PRODUCERS }, produce));
            } finally {
              producing = false;
              await Promise.all(writers);
            }
          })),
        );
        drained = true;
        await release;
        injected.push(...transfers.filter((t) => t.injected).map((t) => t.id));

        // Poison holds the injected failures, and only them.
        const parked = await transactions.poison.list();
        expect(parked.map((p) => p.id).sort(), `seed ${seed}`).toEqual([...injected].sort());
        expect(new Set(parked.map((p) => p.reason)), `seed ${seed}`).toEqual(new Set(["dequeue-count"]));
        // The fix, then the replay under kills: one replay crashed after sending its transfer back
        // (before removing it from the poison queue), so that one is in the queue twice.
        await store.createTable(audit);
        await transactions.queue.sendMessage(parked[0]!.messageText);
        replayKills = await killingRun(async () => {
          expect(await transactions.poison.replay()).toBe(injected.length);
        });
        kills.push(...replayKills);
      } finally {
        drained = true;
        rmSync(dir, { recursive: true, force: true });
      }
      expect(await transactions.poison.list()).toEqual([]);
      // A replay continues after the steps done (the two transfers'), so its first delivery reaches
      // the boundaries from `step 2` on: each injected transfer planned there died there again.
      const pastDone = injected.filter((id) => Number(/-b(\d+)$/.exec(id)![1]) >= 4);
      expect(pastDone.length, `seed ${seed}`).toBeGreaterThanOrEqual(Math.min(3, injected.length));
      expect(new Set(replayKills.map((k) => k.split(" ")[0])), `seed ${seed}`).toEqual(new Set(pastDone));

      // Every boundary of a two-step transfer was a kill point, and every planned death happened.
      const planned = transfers.filter((t) => t.id.includes("-b")).map((t) => t.id);
      const killed = new Map(kills.map((k) => [k.split(" ")[0]!, k.split(" ").slice(1).join(" ")]));
      expect(
        planned.filter((id) => !killed.has(id)),
        `seed ${seed}`,
      ).toEqual([]);
      const twoStep = planned.filter((id) => !transfers.find((t) => t.id === id)!.injected);
      expect(new Set(twoStep.map((id) => killed.get(id)))).toEqual(
        new Set(["step 0", "applied 0", "step 1", "applied 1", "completed 2"]),
      );

      // Exactly once: each account holds its opening balance, its transfers and its deposits.
      const expected = new Map(keys.map((k) => [name(k), OPENING + (deposits.get(name(k)) ?? 0)]));
      for (const t of transfers) {
        expected.set(t.from, expected.get(t.from)! - t.amount);
        expected.set(t.to, expected.get(t.to)! + t.amount);
      }
      const actual = new Map(
        (await listAll(table)).map((e) => [`${e.partitionKey}/${e.rowKey}`, e.balance as number] as const),
      );
      expect(actual, `seed ${seed}`).toEqual(expected);
      const total = [...actual.values()].reduce((s, v) => s + v, 0);
      const depositsMade = [...deposits.values()].reduce((s, v) => s + v, 0);
      expect(total, `seed ${seed}`).toBe(ACCOUNTS * OPENING + depositsMade);
      for (const t of transfers) expect(await transactions.status(t.id)).toMatchObject({ completed: true });
      console.log(
        `chained transfers (seed ${seed}): ${transfers.length} transfers, ${depositsMade} deposits, ${rawWrites} raw writes, ${kills.length} kills (${replayKills.length} after the replay), ${injected.length} injected failures`,
      );
    }, 900_000);
  });
}
