import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { Table } from "../../src/index.js";
import {
  BlockIdAllocator,
  GaplessSequence,
  type IdRange,
  SequenceCounter,
  sequentialIdKey,
} from "../../src/patterns/index.js";
import { listAll } from "../conformance/helpers.js";
import { expectCode } from "../support/expect-code.js";
import { itWhen, type PatternsRef } from "./target.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

const COUNTER = { partitionKey: "App1", rowKey: "sorteditem" } as const;

/** 1..n */
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const expand = (ranges: IdRange[]) =>
  ranges.flatMap((r) => upTo(r.last - r.first + 1).map((i) => r.first + i - 1));

/**
 * The table, with `interfere` run right after each `getEntity` resolves (while `armed()` holds):
 * another writer slipping in between a read and the conditional write that follows it.
 */
function interleaved(table: Table, interfere: () => Promise<unknown>, armed: () => boolean): Table {
  return new Proxy(table, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t);
      if (prop !== "getEntity") return typeof value === "function" ? value.bind(t) : value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(t, args);
        } finally {
          // Also after a read that found nothing (ResourceNotFound): the insert path races too.
          if (armed()) await interfere();
        }
      };
    },
  });
}

/** Sequential ids (seed 003): the article's counter, block allocation, gapless sequences, padded keys. */
export function idsSuite(target: PatternsRef): void {
  describe("sequential ids", () => {
    it("hands out 1, 2, 3 from the article's Identities entity, as padded keys forward and reversed", async () => {
      const table = await target().freshTable();
      const counter = new SequenceCounter(table, COUNTER);
      expect(await counter.current()).toBe(0);
      expect([await counter.next(), await counter.next(), await counter.next()]).toEqual([1, 2, 3]);
      const stored = await table.getEntity("App1", "sorteditem");
      expect(stored.Value).toBe(3n);
      expect(await counter.current()).toBe(3);
      expect(sequentialIdKey().encode(42)).toBe("0000000042");
      expect(sequentialIdKey({ newestFirst: true }).encode(42)).toBe(
        String(2147483647 - 42).padStart(10, "0"),
      );
      expect(sequentialIdKey({ newestFirst: true }).decode("2147483605")).toBe(42);
      // An Int32 counter, as the article's `int Value` stores it, keeps working and keeps its type.
      await table.createEntity({ partitionKey: "App1", rowKey: "legacy", Value: 41 });
      const legacy = new SequenceCounter(table, {
        partitionKey: "App1",
        rowKey: "legacy",
        valueType: "Int32",
      });
      expect(await legacy.next()).toBe(42);
      expect((await table.getEntity("App1", "legacy")).Value).toBe(42);
      await table.updateEntity({ partitionKey: "App1", rowKey: "legacy", Value: 2147483647 }, "Replace");
      await expectCode(legacy.next(), "OutOfRangeInput");
      expect((await table.getEntity("App1", "legacy")).Value).toBe(2147483647);
    });

    it("retries with the ETag of the read it incremented when another writer slips in", async () => {
      const table = await target().freshTable();
      const rival = new SequenceCounter(table, COUNTER);
      let interferences = 1;
      const counter = new SequenceCounter(
        interleaved(
          table,
          () => rival.next(),
          () => interferences-- > 0,
        ),
        { ...COUNTER, baseDelayMs: 0 },
      );
      // The rival inserts the counter between our read (absent) and our insert: 409, then a retry.
      expect(await counter.next()).toBe(2);
      expect(counter.stats).toEqual({ writes: 1, conflicts: 1 });
      // The rival updates it between our read and our If-Match merge: 412, then a retry.
      interferences = 1;
      expect(await counter.next()).toBe(4);
      expect(counter.stats).toEqual({ writes: 2, conflicts: 2 });
      expect(await rival.current()).toBe(4);
    });

    it("gives up after maxAttempts with ConcurrencyRetriesExhausted, having handed out nothing", async () => {
      const table = await target().freshTable();
      const rival = new SequenceCounter(table, COUNTER);
      const counter = new SequenceCounter(
        interleaved(
          table,
          () => rival.next(),
          () => true,
        ),
        { ...COUNTER, maxAttempts: 3, baseDelayMs: 0 },
      );
      await expectCode(counter.next(), "ConcurrencyRetriesExhausted");
      expect(counter.stats).toEqual({ writes: 0, conflicts: 3 });
      expect(await rival.current()).toBe(3); // only the rival's ids were taken
    });

    it("8 concurrent writers on one counter: no duplicate, nothing lost", async () => {
      const table = await target().freshTable();
      const perWriter = 15;
      const writers = Array.from(
        { length: 8 },
        () => new SequenceCounter(table, { ...COUNTER, maxAttempts: 500 }),
      );
      const ids = (
        await Promise.all(
          writers.map(async (w) => {
            const mine: number[] = [];
            for (let i = 0; i < perWriter; i++) mine.push(await w.next());
            expect(mine).toEqual(sorted(mine)); // one writer's ids increase
            return mine;
          }),
        )
      ).flat();
      expect(sorted(ids)).toEqual(upTo(8 * perWriter));
      expect(await writers[0]!.current()).toBe(8 * perWriter);
    });

    it("block allocation: one write per block, shared by concurrent callers, no duplicate across allocators", async () => {
      const table = await target().freshTable();
      const allocators = Array.from(
        { length: 8 },
        () =>
          new BlockIdAllocator(new SequenceCounter(table, { ...COUNTER, maxAttempts: 500 }), {
            blockSize: 10,
          }),
      );
      const ids = (
        await Promise.all(
          allocators.map((a, i) => Promise.all(Array.from({ length: 15 + i }, () => a.next()))),
        )
      ).flat();
      expect(new Set(ids).size).toBe(ids.length);
      const last = await new SequenceCounter(table, COUNTER).current();
      const unused = allocators.flatMap((a) => expand(a.unused()));
      expect(sorted([...ids, ...unused])).toEqual(upTo(last)); // handed out + still held = every id reserved
      for (const [i, a] of allocators.entries()) {
        expect(a.blocks).toBe(Math.ceil((15 + i) / 10)); // concurrent callers shared each reservation
        expect(a.counter.stats.writes).toBe(a.blocks);
      }
    });

    it("adapts the block size to demand within its bounds", async () => {
      const table = await target().freshTable();
      let clock = 0;
      const allocator = new BlockIdAllocator(new SequenceCounter(table, COUNTER), {
        blockSize: { initial: 4, min: 2, max: 300, targetRefillMs: 1000 },
        now: () => clock,
      });
      let held = 0; // ids left in the current block
      const drainAndRefill = async () => {
        for (let i = 0; i <= held; i++) await allocator.next();
        held = allocator.blockSize - 1;
      };
      await allocator.next(); // block 1: the initial size
      held = 3;
      expect(allocator.blockSize).toBe(4);
      await drainAndRefill(); // used up at once: 8x (the most per block)
      expect(allocator.blockSize).toBe(32);
      clock += 250; // lasted a quarter of the target: 4x
      await drainAndRefill();
      expect(allocator.blockSize).toBe(128);
      clock += 400; // lasted 0.4 of the target: 2x, capped at max
      await drainAndRefill();
      expect(allocator.blockSize).toBe(256);
      clock += 100;
      await drainAndRefill();
      expect(allocator.blockSize).toBe(300);
      clock += 1000; // within [target / 2, 2 x target]: unchanged
      await drainAndRefill();
      expect(allocator.blockSize).toBe(300);
      for (const size of [150, 75, 37, 18, 9, 4, 2, 2]) {
        clock += 5000; // lasted long: halves, down to min
        await drainAndRefill();
        expect(allocator.blockSize).toBe(size);
      }
      expect(allocator.counter.stats.writes).toBe(allocator.blocks); // one conditional write per block
      expect(
        () =>
          new BlockIdAllocator(new SequenceCounter(table, COUNTER), { blockSize: { initial: 1, min: 2 } }),
      ).toThrow();
      expect(() => new BlockIdAllocator(new SequenceCounter(table, COUNTER), { blockSize: 0 })).toThrow();
    });

    it("gapless mode: the counter and the row in one transaction, ids 1..n with no gap under 8 writers", async () => {
      const table = await target().freshTable();
      const key = sequentialIdKey();
      const sequence = new GaplessSequence(table, { counterRowKey: "~seq", maxAttempts: 500 });
      const results = await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          const mine: number[] = [];
          for (let i = 0; i < 5; i++) {
            const { id } = await sequence.insert("orders", (n) => ({
              partitionKey: "orders",
              rowKey: key.encode(n),
              writer: w,
            }));
            mine.push(id);
          }
          return mine;
        }),
      );
      expect(sorted(results.flat())).toEqual(upTo(40));
      const rows = await listAll(table);
      expect(rows.map((r) => r.rowKey)).toEqual([...upTo(40).map((n) => key.encode(n)), "~seq"]);
      expect(await sequence.current("orders")).toBe(40);
      // A row written behind the counter's back is reported, not retried forever.
      await table.createEntity({ partitionKey: "orders", rowKey: key.encode(41) });
      await expectCode(
        sequence.insert("orders", (n) => ({ partitionKey: "orders", rowKey: key.encode(n) })),
        "EntityAlreadyExists",
      );
      expect(await sequence.current("orders")).toBe(40);
      await expectCode(
        sequence.insert("orders", () => ({ partitionKey: "elsewhere", rowKey: "x" })),
        "InvalidInput",
      );
    });

    itWhen(
      target,
      (c, t) => c.multiProcess && t.sharedUrl !== undefined,
      "the store cannot be shared between processes",
      "4 processes on one store: no duplicate, nothing lost (article algorithm and blocks)",
      async () => {
        const table = await target().freshTable();
        const run = promisify(execFile);
        const worker = join(root, "test", "patterns", "counter-worker.ts");
        const spawn = (mode: string) =>
          run(
            process.execPath,
            ["--import", "tsx", worker, target().sharedUrl!, table.tableName, "20", mode],
            { cwd: root },
          ).then(({ stdout }) => JSON.parse(stdout) as { ids: number[]; unused: IdRange[] });
        const single = await Promise.all([1, 2, 3, 4].map(() => spawn("single")));
        expect(sorted(single.flatMap((r) => r.ids))).toEqual(upTo(80));
        const blocks = await Promise.all([1, 2, 3, 4].map(() => spawn("block")));
        const handed = blocks.flatMap((r) => r.ids);
        const held = blocks.flatMap((r) => expand(r.unused));
        const last = await new SequenceCounter(table, COUNTER).current();
        expect(new Set(handed).size).toBe(80);
        expect(sorted([...handed, ...held])).toEqual(upTo(last).slice(80));
      },
      120_000,
    );
  });
}
