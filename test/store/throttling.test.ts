/** The throttling emulator (docs/throttling.md): the services' scalability targets on the embedded engine. */
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store, type ThrottleEvent, type ThrottleOptions } from "../../src/index.js";
import { caught, expectCode, listAll } from "../conformance/helpers.js";

let opened: Store[] = [];
afterEach(async () => {
  for (const s of opened) await s.close();
  opened = [];
});

/** A throttled memory: store with a clock the test moves, and the refusals it saw. */
async function throttled(options: ThrottleOptions) {
  let ms = 0;
  const events: ThrottleEvent[] = [];
  const store = await openStore("memory:", {
    throttle: { now: () => ms, onThrottle: (e) => events.push(e), ...options },
  });
  opened.push(store);
  // Table creation counts against the account: give it a moment to refill before each test's writes.
  const table = store.table("Hot");
  await table.createTable();
  ms += 1000;
  return { store, table, events, advance: (by: number) => (ms += by) };
}

const entity = (pk: string, i: number, extra: Record<string, unknown> = {}) => ({
  partitionKey: pk,
  rowKey: String(i).padStart(5, "0"),
  ...extra,
});

describe("throttling emulator", () => {
  it("Azure: a partition takes 2,000 entities a second (scaled), then ServerBusy with nothing written, until it refills", async () => {
    const { table, events, advance } = await throttled({ profile: "azure", scale: 0.01 }); // 20/s a partition
    for (let i = 0; i < 20; i++) await table.createEntity(entity("hour18", i));
    const err = await caught(() => table.createEntity(entity("hour18", 20)));
    expect(err).toMatchObject({
      code: "ServerBusy",
      status: 503,
      details: {
        scope: "partition",
        partitionKey: "hour18",
        kind: "write",
        retryAfterMs: 50,
        profile: "azure",
      },
    });
    expect(events).toHaveLength(1);
    // Another partition is a separate budget.
    await table.createEntity(entity("hour19", 0));
    advance(49);
    await expectCode(table.createEntity(entity("hour18", 20)), "ServerBusy");
    advance(1); // 50 ms: one entity's worth at 20/s
    await table.createEntity(entity("hour18", 20)); // the refused insert wrote nothing: no EntityAlreadyExists
    await expectCode(table.getEntity("hour18", "00020"), "ServerBusy"); // reads share Azure's budget
    advance(1000);
    expect((await listAll(table, "PartitionKey eq 'hour18'")).map((e) => e.rowKey)).toHaveLength(21);
  });

  it("Azure: the account takes 20,000 entities a second over all partitions; a transaction counts each entity", async () => {
    const { table, advance } = await throttled({ profile: "azure", scale: 0.01 }); // account 200/s, partition 20/s
    for (let p = 0; p < 10; p++) {
      await table.submitTransaction(
        Array.from({ length: 20 }, (_, i) => ["create", entity(`p${p}`, i)] as const),
      );
    }
    const err = await caught(() => table.createEntity(entity("p10", 0)));
    expect(err).toMatchObject({ code: "ServerBusy", details: { scope: "account" } });
    advance(1000);
    // A transaction larger than a partition's budget goes through on a full budget, leaving it in debt.
    await table.submitTransaction(Array.from({ length: 25 }, (_, i) => ["create", entity("q", i)] as const));
    const err2 = await caught(() => table.submitTransaction([["create", entity("q", 100)]]));
    expect(err2).toMatchObject({ code: "ServerBusy", details: { scope: "partition", retryAfterMs: 300 } });
  });

  it("Azure: a query is charged the entities it read, to their partitions", async () => {
    const { table, advance } = await throttled({ profile: "azure", scale: 0.01 });
    await table.submitTransaction(Array.from({ length: 15 }, (_, i) => ["create", entity("p", i)] as const));
    advance(1000);
    expect(await listAll(table, "PartitionKey eq 'p'")).toHaveLength(15); // 20 - 15: 5 left
    // A page is admitted with any budget left; what it read is charged after, so the budget goes below 0.
    expect(await listAll(table, "PartitionKey eq 'p'")).toHaveLength(15);
    const err = await caught(() => table.createEntity(entity("p", 99)));
    expect(err).toMatchObject({ code: "ServerBusy", details: { scope: "partition", retryAfterMs: 550 } });
    await table.createEntity(entity("other", 0));
  });

  it("DynamoDB: write units per started KiB (double in a transaction), reads from a separate budget", async () => {
    const { table, events } = await throttled({ profile: "dynamodb", scale: 0.01 }); // 10 WCU/s, 30 RCU/s a partition
    const kib = (n: number) => "x".repeat(n * 1024 - 40); // an item of n started KiB (keys and names included)
    await table.createEntity(entity("p", 0, { s: kib(3) })); // 3 WCU
    await table.submitTransaction([["create", entity("p", 1, { s: kib(2) })]]); // 2 KiB, doubled: 4 WCU
    await table.createEntity(entity("p", 2, { s: kib(3) })); // 3 WCU: 10 in all
    await expectCode(table.createEntity(entity("p", 3)), "ServerBusy");
    expect(events.at(-1)).toMatchObject({ scope: "partition", kind: "write" });
    expect((await table.getEntity("p", "00000")).s).toHaveLength(3 * 1024 - 40); // reads have their own budget
  });

  it("opens from a URL parameter on file: and memory:, and refuses bad settings and other schemes", async () => {
    const store = await openStore("memory:?throttle=azure&scale=0.001&burst=2");
    opened.push(store);
    const t = store.table("Url");
    await t.createTable();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => t.createEntity(entity("p", i))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4); // 2/s a partition, 2 s of burst
    await expectCode(openStore("memory:?throttle=gcp"), "InvalidStoreUrl");
    await expectCode(openStore("memory:?throttle=azure&scale=-1"), "InvalidStoreUrl");
    await expectCode(openStore("memory:?throttle=azure&rate=5"), "InvalidStoreUrl");
    await expectCode(openStore("memory:", { throttle: { scale: 0 } }), "InvalidInput");
    // Only the embedded engine takes it: a type error for other schemes, and InvalidInput at run time.
    const azureOptions = { throttle: "azure" } as never;
    await expectCode(openStore("azure:UseDevelopmentStorage=true", azureOptions), "InvalidInput");
    const plain = await openStore("memory:", { throttle: "azure" });
    opened.push(plain);
    expect(plain.capabilities.backend).toBe("embedded");
  });
});
