import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { odata } from "../../src/index.js";
import { HashPartitionedTable } from "../../src/patterns/index.js";
import { caught, expectCode, expectEmpty, listAll } from "../conformance/helpers.js";
import { keyText, readAllPages, writeAll } from "./query-helpers.js";
import type { PatternsRef } from "./target.js";

const HOUR = "2014-07-31T18";

const logicalArb = fc.uniqueArray(
  fc.record({
    pk: fc.constantFrom("h1", "h2", "h3", "h4"),
    rk: fc.stringMatching(/^[a-z0-9]{1,4}$/),
  }),
  { maxLength: 40, selector: (e) => `${e.pk}/${e.rk}` },
);

const queryArb = fc.record({
  buckets: fc.integer({ min: 1, max: 8 }),
  order: fc.constantFrom("key" as const, "arrival" as const),
  pageSize: fc.integer({ min: 1, max: 30 }),
  concurrency: fc.integer({ min: 1, max: 8 }),
  resumeEvery: fc.constantFrom(1, 2, 1000),
  select: fc.constantFrom("h2", "all", "h2..h4"),
});

/** Hash partitioning against hot partitions (seed 001's prepend/append anti-pattern; seed 002). */
export function hashSuite(target: PatternsRef): void {
  describe("hash partitioning", () => {
    it("spreads one logical partition over the buckets its hash picks, and reads an entity back with one point read", async () => {
      const table = await target().freshTable();
      const hashed = new HashPartitionedTable(target().store, table, { buckets: 8 });
      const rows = Array.from({ length: 24 }, (_, i) => `event${String(i).padStart(3, "0")}`);
      for (const rk of rows) await hashed.create({ partitionKey: HOUR, rowKey: rk, n: rk.length });
      const stored = await listAll(table);
      expect(stored).toHaveLength(24);
      for (const e of stored) {
        const rk = e.rowKey as string;
        expect(e.partitionKey).toBe(`${hashed.codec.bucketOf(rk)}_${HOUR}`);
        expect(hashed.split(e.partitionKey as string)).toEqual({
          partitionKey: HOUR,
          bucket: hashed.codec.bucketOf(rk),
        });
      }
      expect(new Set(stored.map((e) => e.partitionKey)).size).toBeGreaterThan(4);
      expect(await hashed.get(HOUR, "event007")).toMatchObject({ rowKey: "event007", n: 8 });
      await expectCode(hashed.get(HOUR, "missing"), "ResourceNotFound");
      // Entities come back as stored: an ETag-guarded update through the table works unchanged.
      const read = await hashed.get(HOUR, "event007");
      await table.updateEntity({ partitionKey: read.partitionKey!, rowKey: "event007", n: 99 }, "Merge", {
        etag: read.etag,
      });
      expect((await hashed.get(HOUR, "event007")).n).toBe(99);
      // Another hash input keeps an employee's events together; reading one needs that input.
      const byEmployee = new HashPartitionedTable(target().store, table, {
        buckets: 8,
        hashInput: (e) => e.rowKey.split("_")[0]!,
      });
      await byEmployee.create({ partitionKey: "access", rowKey: "emp42_0001" });
      await byEmployee.create({ partitionKey: "access", rowKey: "emp42_0002" });
      const pks = (await listAll(table, odata`RowKey ge ${"emp42_"} and RowKey lt ${"emp42`"}`)).map(
        (e) => e.partitionKey,
      );
      expect(new Set(pks)).toEqual(new Set([byEmployee.codec.encode("access", "emp42")]));
      expect(await byEmployee.get("access", "emp42_0002", { hashInput: "emp42" })).toMatchObject({
        rowKey: "emp42_0002",
      });
    });

    it("fans out writes: one transaction per bucket chunk, every entity checked before the first write", async () => {
      const table = await target().freshTable();
      const hashed = new HashPartitionedTable(target().store, table, { buckets: 4 });
      const entities = Array.from({ length: 230 }, (_, i) => ({
        partitionKey: HOUR,
        rowKey: `r${String(i).padStart(4, "0")}`,
        i,
      }));
      const perBucket = new Map<number, number>();
      for (const e of entities)
        perBucket.set(
          hashed.codec.bucketOf(e.rowKey),
          (perBucket.get(hashed.codec.bucketOf(e.rowKey)) ?? 0) + 1,
        );
      const chunks = [...perBucket.values()].reduce((n, count) => n + Math.ceil(count / 100), 0);
      const bad = [...entities.slice(0, 10), { partitionKey: HOUR, rowKey: "bad", "not a name": 1 }];
      await expectCode(hashed.writeMany(bad), "PropertyNameInvalid");
      await expectEmpty(table);
      const result = await hashed.writeMany(entities, { concurrency: 3 });
      expect(result).toEqual({ entities: 230, transactions: chunks, busy: 0 });
      expect((await hashed.query(HOUR).toArray()).map((e) => e.rowKey)).toEqual(
        entities.map((e) => e.rowKey),
      );
      // A chunk that fails names its partition; "upsert" replaces.
      const clash = await caught(() => hashed.writeMany([{ partitionKey: HOUR, rowKey: "r0000" }]));
      expect(clash).toMatchObject({
        code: "EntityAlreadyExists",
        details: { partitionKey: hashed.partitionKeyOf({ partitionKey: HOUR, rowKey: "r0000" }) },
      });
      await hashed.writeMany([{ partitionKey: HOUR, rowKey: "r0000", i: -1 }], { mode: "upsert" });
      expect((await hashed.get(HOUR, "r0000")).i).toBe(-1);
      await expectCode(hashed.writeMany(entities, { concurrency: 0 }), "InvalidInput");
    });

    it("a query over every bucket equals one ordered scan of the same data unbucketed, for random data, pages and limits (seeded)", async () => {
      await fc.assert(
        fc.asyncProperty(
          logicalArb,
          fc.array(queryArb, { minLength: 2, maxLength: 2 }),
          async (data, runs) => {
            const plain = await target().freshTable();
            const entities = data.map((e) => ({ partitionKey: e.pk, rowKey: e.rk, v: `${e.pk}:${e.rk}` }));
            await writeAll(plain, entities);
            for (const run of runs) {
              const bucketed = await target().freshTable();
              const hashed = new HashPartitionedTable(target().store, bucketed, { buckets: run.buckets });
              await hashed.writeMany(entities);
              const [selector, filter] =
                run.select === "h2"
                  ? ["h2", odata`PartitionKey eq ${"h2"}`]
                  : run.select === "all"
                    ? [{}, undefined]
                    : [{ from: "h2", to: "h4" }, odata`PartitionKey ge ${"h2"} and PartitionKey lt ${"h4"}`];
              const expected = (await listAll(plain, filter)).map(keyText);
              const query = hashed.query(selector, { order: run.order, concurrency: run.concurrency });
              const got = (await readAllPages(query, run.pageSize, run.resumeEvery)).map(
                (e) => `${hashed.split(e.partitionKey).partitionKey}/${e.rowKey}`,
              );
              if (run.order === "key") expect(got).toEqual(expected);
              else expect([...got].sort()).toEqual([...expected].sort());
            }
          },
        ),
        { seed: 2_002, numRuns: 4 },
      );
    }, 120_000);

    it("refuses bad options and an aborted signal before any request", async () => {
      const table = await target().freshTable();
      expect(() => new HashPartitionedTable(target().store, table, { buckets: 0 })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      const hashed = new HashPartitionedTable(target().store, table, { buckets: 10_000 });
      expect(hashed.partitionKeyOf({ partitionKey: "p", rowKey: "r" })).toMatch(/^\d{4}_p$/);
      await expectCode(hashed.query(HOUR, { concurrency: 0 }).toArray(), "InvalidInput");
      await expectCode(hashed.query(null as never).toArray(), "InvalidInput");
      await expectCode(
        hashed.create({ partitionKey: "p", rowKey: "r" }, { abortSignal: AbortSignal.abort() }),
        "Aborted",
      );
      await expectCode(hashed.query("p", { abortSignal: AbortSignal.abort() }).toArray(), "Aborted");
      await expectEmpty(table);
    });
  });
}
