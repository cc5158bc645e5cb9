import { describe, expect, it } from "vitest";
import { PeriodTables } from "../../src/patterns/index.js";
import { expectCode, listAll } from "../conformance/helpers.js";
import { keyText, readAllPages } from "./query-helpers.js";
import type { PatternsRef } from "./target.js";

/** Day `d` of January 2024 at `h` o'clock (UTC). */
const jan = (d: number, h = 12) => new Date(Date.UTC(2024, 0, d, h));

/** The high-volume delete pattern (seed 001): a table per period, deleted whole. */
export function periodsSuite(target: PatternsRef): void {
  describe("table per period", () => {
    /** Period tables under a fresh prefix, and a clock the test sets; every table is deleted after. */
    async function periods(options: { retain?: number; period?: "hour" | "day" | "month" } = {}) {
      let now = jan(10);
      const logins = new PeriodTables(target().store, {
        prefix: target().freshTableName(12),
        now: () => now,
        ...options,
      });
      return {
        logins,
        setNow: (at: Date) => {
          now = at;
        },
        cleanUp: async () => {
          for (const t of await logins.tables()) await target().store.deleteTable(t.name);
        },
      };
    }

    it("writes each entity to the table of its day, created on first use", async () => {
      const { logins, cleanUp } = await periods();
      const prefix = logins.names.prefix;
      const a = await logins.write({ partitionKey: "alice", rowKey: "0930", ok: true }, { at: jan(3, 9) });
      expect(a.table).toBe(`${prefix}20240103`);
      await logins.write({ partitionKey: "alice", rowKey: "1015", ok: false }, { at: jan(3, 10) });
      await logins.write({ partitionKey: "bob", rowKey: "0800", ok: true }, { at: jan(4, 8) });
      await logins.write({ partitionKey: "carol", rowKey: "1200", ok: true }); // now: January 10
      const tables = await logins.tables();
      expect(tables.map((t) => t.name)).toEqual([
        `${prefix}20240103`,
        `${prefix}20240104`,
        `${prefix}20240110`,
      ]);
      expect(tables[0]!.start.toISOString()).toBe("2024-01-03T00:00:00.0000000Z");
      expect(tables[0]!.end.toISOString()).toBe("2024-01-04T00:00:00.0000000Z");
      expect((await listAll(logins.tableFor(jan(3)))).map(keyText)).toEqual(["alice/0930", "alice/1015"]);
      await expectCode(
        logins.write({ partitionKey: "alice", rowKey: "0930" }, { at: jan(3, 9) }),
        "EntityAlreadyExists",
      );
      await logins.write(
        { partitionKey: "alice", rowKey: "0930", ok: false },
        { at: jan(3, 9), mode: "upsert" },
      );
      expect((await logins.tableFor(jan(3)).getEntity("alice", "0930")).ok).toBe(false);
      // Another tool's table under the same prefix is not a period table.
      await target().store.createTable(`${prefix}x`);
      expect(await logins.tables()).toHaveLength(3);
      await target().store.deleteTable(`${prefix}x`);
      await cleanUp();
    });

    it("queries a time window across its tables, merged in key order, resumable across tables", async () => {
      const { logins, cleanUp } = await periods({ period: "hour" });
      const written: string[] = [];
      for (let h = 0; h < 4; h++) {
        for (const user of ["bob", "alice", "carol"]) {
          await logins.write({ partitionKey: user, rowKey: `h${h}`, hour: h }, { at: jan(2, h) });
          written.push(`${user}/h${h}`);
        }
      }
      await logins.write({ partitionKey: "alice", rowKey: "h1" }, { at: jan(2, 5) }); // same keys, a later table
      const window = logins.query({ from: jan(2, 1), to: jan(2, 3) }); // hours 1 and 2
      const expected = ["alice/h1", "alice/h2", "bob/h1", "bob/h2", "carol/h1", "carol/h2"];
      expect((await window.toArray()).map(keyText)).toEqual(expected);
      expect((await readAllPages(window, 2)).map(keyText)).toEqual(expected);
      const arrival = await logins.query({ from: jan(2, 1), to: jan(2, 3), order: "arrival" }).toArray();
      expect(arrival.map(keyText).sort()).toEqual(expected);
      // Every table, with a filter in each; equal keys in two tables come once each, older first.
      const everything = await logins.query({ filter: "PartitionKey eq 'alice'" }).toArray();
      expect(everything.map((e) => `${keyText(e)}:${e.hour ?? "-"}`)).toEqual([
        "alice/h0:0",
        "alice/h1:1",
        "alice/h1:-",
        "alice/h2:2",
        "alice/h3:3",
      ]);
      expect(await logins.query({ from: jan(5), to: jan(6) }).toArray()).toEqual([]);
      await cleanUp();
    });

    it("retention deletes whole tables, one call each, and refuses writes to periods past it", async () => {
      const { logins, setNow, cleanUp } = await periods({ retain: 3 });
      const prefix = logins.names.prefix;
      for (const d of [6, 7, 8, 9, 10]) {
        setNow(jan(d)); // each day's writes happen that day
        for (let i = 0; i < 3; i++) await logins.write({ partitionKey: `u${i}`, rowKey: String(d) });
      }
      expect(await logins.applyRetention()).toEqual([`${prefix}20240106`, `${prefix}20240107`]);
      expect((await logins.tables()).map((t) => t.name)).toEqual([
        `${prefix}20240108`,
        `${prefix}20240109`,
        `${prefix}20240110`,
      ]);
      await expectCode(
        logins.write({ partitionKey: "u0", rowKey: "late" }, { at: jan(7, 23) }),
        "OutOfRangeInput",
      );
      expect((await logins.tables()).map((t) => t.name)).not.toContain(`${prefix}20240107`);
      expect(await logins.applyRetention()).toEqual([]);
      setNow(jan(12));
      expect(await logins.prepare({ ahead: 1 })).toEqual([`${prefix}20240112`, `${prefix}20240113`]);
      expect(await logins.applyRetention()).toEqual([`${prefix}20240108`, `${prefix}20240109`]);
      expect((await logins.tables()).map((t) => t.name)).toEqual([
        `${prefix}20240110`,
        `${prefix}20240112`,
        `${prefix}20240113`,
      ]);
      await cleanUp();
    });

    it("refuses bad options", () => {
      const store = target().store;
      expect(() => new PeriodTables(store, { prefix: "1abc" })).toThrow(
        expect.objectContaining({ code: "InvalidResourceName" }),
      );
      expect(() => new PeriodTables(store, { prefix: "a".repeat(56) })).toThrow(
        expect.objectContaining({ code: "InvalidResourceName" }),
      );
      expect(new PeriodTables(store, { prefix: "a".repeat(55) }).names.nameOf(0)).toHaveLength(63);
      expect(() => new PeriodTables(store, { prefix: "Logins", retain: 0 })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      expect(() => new PeriodTables(store, { prefix: "Logins", period: "week" as never })).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      const months = new PeriodTables(store, { prefix: "Logins", period: "month" });
      expect(months.names.nameOf(months.names.periodOf(jan(31)))).toBe("Logins202401");
      expect(months.names.parse("Logins202413")).toBeUndefined();
      expect(new PeriodTables(store, { prefix: "Logins" }).names.parse("Logins20240231")).toBeUndefined();
    });
  });
}
