/**
 * Fault injection for the transaction worker (docs/patterns/eventually-consistent-transactions.md): randomized
 * transactions carried out by worker processes that are SIGKILLed at every step boundary of every
 * transaction, each message also sent twice; the final state must equal a fault-free run's.
 * Poisoned transactions (a table missing at first) must land in the poison queue after the
 * configured dequeue count, and replaying them once the table exists must converge.
 *
 * It runs the full size, 1,000 transactions (TABLEKIT_TX_FAULT_COUNT changes it): the cost is
 * the number of worker processes (about the poison limit: one kill per boundary), not the count,
 * since each process holds every message at once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/index.js";
import { TransactionQueue, type TransactionQueueOptions } from "../../src/patterns/index.js";
import { seededRandom } from "./target.js";
import { CONTAINER, dumpState, layOut, MISSING_TABLE, planTransactions, TABLES } from "./tx-random.js";
import { runWorkerProcess } from "./tx-worker-process.js";

const COUNT = Number(process.env.TABLEKIT_TX_FAULT_COUNT ?? 1000);
const SEED = Number(process.env.TABLEKIT_SEED ?? 20_261_122);
const MAX_STEPS = 6; // five random steps plus the late one
/** Above the most kills one message sees (2·6+1 boundaries), so only real failures poison. */
const MAX_DEQUEUE_COUNT = 2 * MAX_STEPS + 3;
const QUEUE: TransactionQueueOptions = {
  queue: "faults",
  journalTable: "TxJournal",
  payloadContainer: "txpayloads",
};

const dir = mkdtempSync(join(tmpdir(), "tablekit-tx-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function prepare(store: Store, withLateTable: boolean): Promise<TransactionQueue> {
  for (const t of TABLES) await store.createTable(t);
  if (withLateTable) await store.createTable(MISSING_TABLE);
  await store.createContainer(CONTAINER);
  const transactions = new TransactionQueue(store, QUEUE);
  await transactions.ensure();
  return transactions;
}

/** Runs one worker process; resolves with how it ended. */
function runWorker(url: string, killLog: string, kill: boolean): Promise<"killed" | "idle"> {
  return runWorkerProcess(
    url,
    { queue: QUEUE, maxDequeueCount: MAX_DEQUEUE_COUNT, kill: kill ? "boundaries" : "" },
    killLog,
  );
}

/** Worker processes one after another until the queue is empty; how many were killed. */
async function runUntilEmpty(transactions: TransactionQueue, url: string, killLog: string, kill: boolean) {
  let kills = 0;
  for (let run = 0; run < 20 * MAX_STEPS + 50; run++) {
    if ((await transactions.queue.getProperties()).approximateMessagesCount === 0) return kills;
    if ((await runWorker(url, killLog, kill)) === "killed") kills++;
  }
  throw new Error(
    `the queue did not drain (${(await transactions.queue.getProperties()).approximateMessagesCount} left)`,
  );
}

describe("transaction worker under SIGKILL at every step boundary", () => {
  it(`${COUNT} randomized transactions, each sent twice, end as in a run without faults; poison, fix, replay converges`, async () => {
    const plans = planTransactions(seededRandom(SEED), COUNT, 8);
    const poisonIds = plans.filter((p) => p.steps.some((s) => s.kind === "late")).map((p) => p.id);

    // The reference: the same transactions, no faults, the late table there from the start.
    const reference = await openStore(`file:${join(dir, "reference.db")}`);
    const refQueue = await prepare(reference, true);
    const refSteps = await layOut(reference, plans);
    for (const [i, steps] of refSteps.entries()) await refQueue.enqueue(steps, { id: plans[i]!.id });
    expect(await refQueue.worker({ concurrency: 8 }).drain({ timeoutMs: 600_000 })).toMatchObject({
      processed: COUNT,
      poisoned: 0,
      retried: 0,
    });
    const expected = await dumpState(reference);
    await reference.close();

    const url = `file:${join(dir, "faults.db")}`;
    const store = await openStore(url);
    const transactions = await prepare(store, false);
    const steps = await layOut(store, plans);
    for (const [i, s] of steps.entries()) {
      await transactions.enqueue(s, { id: plans[i]!.id });
      await transactions.enqueue(s, { id: plans[i]!.id }); // the duplicate send
    }
    const killLog = join(dir, "kills.log");
    writeFileSync(killLog, "");
    const kills = await runUntilEmpty(transactions, url, killLog, true);

    // Every boundary of every transaction was a kill point at least once.
    const killed = new Set(
      readFileSync(killLog, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split(" ").slice(0, 3).join(" ")),
    );
    const missed: string[] = [];
    for (const [i, plan] of plans.entries()) {
      if (poisonIds.includes(plan.id)) continue;
      const n = steps[i]!.length;
      for (let k = 0; k < n; k++)
        for (const point of ["step", "applied"])
          if (!killed.has(`${plan.id} ${point} ${k}`)) missed.push(`${plan.id} ${point} ${k}`);
      if (!killed.has(`${plan.id} completed ${n}`)) missed.push(`${plan.id} completed ${n}`);
    }
    expect(missed).toEqual([]);

    // The poisoned ones (both copies of each) wait in the poison queue after MAX_DEQUEUE_COUNT deliveries.
    const parked = await transactions.poison.list();
    expect(parked.map((p) => p.id).sort()).toEqual([...poisonIds, ...poisonIds].sort());
    for (const p of parked) {
      expect(p).toMatchObject({ reason: "dequeue-count", dequeueCount: MAX_DEQUEUE_COUNT + 1 });
      expect((await transactions.status(p.id!)).lastError).toMatch(/^TableNotFound/);
    }
    // The fix, then replay (their kills were covered above, up to the step that failed).
    await store.createTable(MISSING_TABLE);
    expect(await transactions.poison.replay()).toBe(2 * poisonIds.length);
    await runUntilEmpty(transactions, url, killLog, false);
    expect(await transactions.poison.list()).toEqual([]);

    expect(await dumpState(store)).toEqual(expected);
    for (const plan of plans) expect(await transactions.status(plan.id)).toMatchObject({ completed: true });
    console.log(
      `fault injection: ${COUNT} transactions (${poisonIds.length} poisoned then replayed), ${kills} worker processes killed, ${killed.size} distinct boundaries killed`,
    );
    await store.close();
  }, 600_000);
});
