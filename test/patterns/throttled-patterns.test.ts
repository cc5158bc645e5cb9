/**
 * The throttling emulator shows the anti-pattern on a laptop: appends to one hot partition are
 * throttled, the same appends spread over hash buckets are not — and a parallel query over the
 * buckets reads what one partition's scan cannot. The clock is frozen, so budgets never refill
 * and each outcome is exact.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store, type ThrottleEvent } from "../../src/index.js";
import { HashPartitionedTable, parallelQuery, partitionParts } from "../../src/patterns/index.js";
import { caught } from "../conformance/helpers.js";

const HOUR = "2014-07-31T18";
const WRITES = 300;
let store: Store;
const events: ThrottleEvent[] = [];

beforeAll(async () => {
  // 100 entities a partition and 1,000 an account before any refill (Azure's targets at 5%).
  store = await openStore("memory:", {
    throttle: { profile: "azure", scale: 0.05, now: () => 0, onThrottle: (e) => events.push(e) },
  });
});
afterAll(() => store.close());

/** Appends `WRITES` log entries of one hour, one request each, 8 at a time; counts the refusals. */
async function append(hashed: HashPartitionedTable): Promise<{ written: number; busy: number }> {
  let written = 0;
  let busy = 0;
  for (let i = 0; i < WRITES; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, WRITES - i) }, async (_, j) => {
        try {
          await hashed.create({ partitionKey: HOUR, rowKey: `event${String(i + j).padStart(5, "0")}` });
          written++;
        } catch (err) {
          if ((err as { code?: string }).code !== "ServerBusy") throw err;
          busy++;
        }
      }),
    );
  }
  return { written, busy };
}

describe("the throttling emulator against the prepend/append anti-pattern", () => {
  it("throttles appends to one hot partition, and not the same appends over 16 hash buckets", async () => {
    const hot = store.table("HotLog");
    const spread = store.table("SpreadLog");
    await hot.createTable();
    await spread.createTable();
    const noRetry = { maxAttempts: 1 };
    const hotResult = await append(new HashPartitionedTable(store, hot, { buckets: 1, busyRetry: noRetry }));
    expect(hotResult).toEqual({ written: 100, busy: WRITES - 100 });
    expect(events.every((e) => e.scope === "partition" && e.partitionKey === `0_${HOUR}`)).toBe(true);
    const before = events.length;
    const spreadResult = await append(
      new HashPartitionedTable(store, spread, { buckets: 16, busyRetry: noRetry }),
    );
    expect(spreadResult).toEqual({ written: WRITES, busy: 0 });
    expect(events.length).toBe(before);
  });

  it("a parallel query over the buckets reads what one hot partition's paged scan cannot", async () => {
    const spread = new HashPartitionedTable(store, store.table("SpreadLog"), { buckets: 16 });
    expect(await spread.query(HOUR, { concurrency: 4 }).toArray()).toHaveLength(WRITES);
    // The hot partition spent its budget on the appends: a page of it is refused, named by the part.
    const hot = store.table("HotLog");
    const err = await caught(() => parallelQuery(store, partitionParts(hot, [`0_${HOUR}`])).toArray());
    expect(err).toMatchObject({ code: "ServerBusy", details: { part: `0_${HOUR}`, scope: "partition" } });
  });
});
