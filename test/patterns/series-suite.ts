import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DataSeries } from "../../src/patterns/index.js";
import { expectCode, expectEmpty } from "../conformance/helpers.js";
import { instrumented } from "./query-helpers.js";
import { itWhen, type PatternsRef } from "./target.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const KEY = { partitionKey: "Sales", rowKey: "000123" } as const;
/** Hour `h` of 2024-01-01 (UTC); past 23 it runs into the next days. */
const hour = (h: number) => new Date(Date.UTC(2024, 0, 1, h));

/** The data series pattern (seed 001): the seed's hourly message counts in one entity. */
export function seriesSuite(target: PatternsRef): void {
  describe("data series", () => {
    it("keeps the last 24 hourly counts in one entity: one point read returns them, one conditional merge updates them", async () => {
      const table = await target().freshTable();
      const series = new DataSeries(target().store, table, { points: 24, prefix: "H" });
      await series.add(KEY, 3, { at: hour(9) });
      await series.add(KEY, 2, { at: hour(10) });
      const added = await series.add(KEY, 1, { at: hour(10) });
      const entity = await table.getEntity(KEY.partitionKey, KEY.rowKey);
      expect(entity).toMatchObject({
        H09: 3,
        H10: 3,
        SeriesEnd: BigInt(Date.UTC(2024, 0, 1, 10) / 3_600_000),
      });
      const watched = instrumented(table);
      const read = await new DataSeries(target().store, watched.table, { points: 24, prefix: "H" }).read(
        KEY,
        {
          at: hour(10),
        },
      );
      expect(watched.requests).toMatchObject({ pointReads: 1, queries: 0 });
      expect(read.points).toHaveLength(24);
      expect(read.points.at(-1)).toEqual({ start: expect.anything(), value: 3 });
      expect(read.points.at(-1)!.start.toISOString()).toBe("2024-01-01T10:00:00.0000000Z");
      expect(read.points.map((p) => p.value)).toEqual([...Array(22).fill(0), 3, 3]);
      expect(read.etag).toBe(added.etag);
      expect(added.points.map((p) => p.value)).toEqual(read.points.map((p) => p.value));
      // An hour read later shows the same counts, the window moved on by an empty hour.
      expect((await series.read(KEY, { at: hour(11) })).points.slice(-3).map((p) => p.value)).toEqual([
        3, 3, 0,
      ]);
    });

    it("rolls: a new day clears the hours that left the window; older instants are refused", async () => {
      const table = await target().freshTable();
      const series = new DataSeries(target().store, table, { points: 24, prefix: "H" });
      for (let h = 0; h < 24; h++) await series.set(KEY, h + 1, { at: hour(h) });
      const moved = await series.add(KEY, 100, { at: hour(30) }); // 06:00 the next day
      expect(moved.points.map((p) => p.value)).toEqual([
        ...Array.from({ length: 17 }, (_, i) => i + 8), // hours 07..23 of the first day keep their counts
        0,
        0,
        0,
        0,
        0,
        0, // 00..05 of the second day: nothing recorded
        100,
      ]);
      await expectCode(series.add(KEY, 1, { at: hour(6) }), "OutOfRangeInput");
      expect((await series.read(KEY)).points.every((p) => p.value === 0)).toBe(true); // today: long after 2024
      const stale = (await series.read(KEY, { at: hour(30) })).etag!;
      await series.add(KEY, 1, { at: hour(30) });
      await expectCode(series.add(KEY, 1, { at: hour(30), etag: stale }), "UpdateConditionNotSatisfied");
      await expectCode(
        series.add({ ...KEY, rowKey: "new" }, 1, { etag: 'W/"x"' }),
        "UpdateConditionNotSatisfied",
      );
      await series.add({ ...KEY, rowKey: "new" }, 1, { at: hour(1), etag: null });
      await expectCode(
        series.add({ ...KEY, rowKey: "new" }, 1, { at: hour(1), etag: null }),
        "UpdateConditionNotSatisfied",
      );
    });

    it("concurrent increments lose nothing", async () => {
      const table = await target().freshTable();
      const writers = Array.from(
        { length: 6 },
        () => new DataSeries(target().store, table, { points: 24, baseDelayMs: 1 }),
      );
      await Promise.all(
        writers.map(async (s) => {
          for (let i = 0; i < 4; i++) await s.add(KEY, 1, { at: hour(5) });
        }),
      );
      const read = await writers[0]!.read(KEY, { at: hour(5) });
      expect(read.points.at(-1)!.value).toBe(24);
      expect(writers.reduce((n, w) => n + w.conflicts, 0)).toBeGreaterThan(0);
    });

    itWhen(
      target,
      (c, t) => c.multiProcess && t.sharedUrl !== undefined,
      "the store cannot be shared between processes",
      "2 processes adding to one series lose nothing",
      async () => {
        const table = await target().freshTable();
        const run = promisify(execFile);
        const worker = join(root, "test", "patterns", "series-worker.ts");
        await Promise.all(
          [1, 2].map(() =>
            run(process.execPath, ["--import", "tsx", worker, target().sharedUrl!, table.tableName, "12"], {
              cwd: root,
            }),
          ),
        );
        const series = new DataSeries(target().store, table, { points: 24, prefix: "H" });
        expect((await series.read(KEY, { at: hour(5) })).points.at(-1)!.value).toBe(24);
      },
      120_000,
    );

    it("refuses series that do not fit one entity and values outside their type, writing nothing", async () => {
      const table = await target().freshTable();
      const store = target().store;
      const max = store.capabilities.limits.maxProperties - 1;
      expect(new DataSeries(store, table, { points: max }).points).toBe(max);
      expect(() => new DataSeries(store, table, { points: max + 1 })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      expect(() => new DataSeries(store, table, { points: 24, prefix: "1x" })).toThrow(
        expect.objectContaining({ code: "PropertyNameInvalid" }),
      );
      const int32 = new DataSeries(store, table, { points: 4 });
      await expectCode(int32.set(KEY, 2 ** 31), "OutOfRangeInput");
      await expectCode(int32.add(KEY, Number.NaN), "InvalidInput");
      await expectEmpty(table);
      const int64 = new DataSeries(store, table, { points: 4, valueType: "Int64" });
      await int64.set(KEY, 2 ** 40, { at: hour(1) });
      expect((await table.getEntity(KEY.partitionKey, KEY.rowKey)).P1).toBe(2n ** 40n);
      const doubles = new DataSeries(store, table, { points: 4, valueType: "Double" });
      await doubles.set({ ...KEY, rowKey: "d" }, 2, { at: hour(1) });
      expect((await table.getEntity(KEY.partitionKey, "d")).P1).toEqual({ value: 2, type: "Double" });
      expect((await doubles.read({ ...KEY, rowKey: "d" }, { at: hour(1) })).points.at(-1)!.value).toBe(2);
    });
  });
}
