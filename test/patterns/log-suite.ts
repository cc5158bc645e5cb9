import { describe, expect, it } from "vitest";
import { DateTime } from "../../src/index.js";
import { defineLog, field } from "../../src/patterns/index.js";
import { listAll } from "../conformance/helpers.js";
import { expectCode } from "../support/expect-code.js";
import type { PatternsRef } from "./target.js";

const fields = { employee: field.string(), amount: field.double(), note: field.string().optional() };
const Expenses = defineLog({ table: "EmployeeExpense", fields, partitionKey: (k) => k.field("employee") });
const ExpensesOldestFirst = defineLog({
  table: "EmployeeExpense",
  fields,
  partitionKey: (k) => k.field("employee"),
  order: "oldest-first",
  prefix: "exp_",
});

/** Day `d` of May 2010 at `ms` milliseconds past midnight. */
const may = (d: number, ms = 0) => DateTime.fromEpochMilliseconds(Date.UTC(2010, 4, d) + ms);

/** Chronological keys and the log tail (seeds 000, 002; "log tail" in seed 001). */
export function logSuite(target: PatternsRef): void {
  describe("chronological log", () => {
    it("writes the seed's inverted-tick keys plus a uniqueness suffix, and recovers the instant", async () => {
      const log = Expenses.on(await target().freshTable());
      const entry = await log.append(
        { employee: "000223", amount: 12.5 },
        { at: DateTime.parse("2010-05-28T00:00:00Z") },
      );
      // The seed's worked example: 2010-05-28 -> 2521272959999999999.
      expect(entry.rowKey).toMatch(/^2521272959999999999_[0-9a-f]{12}[0-9A-Za-z_-]+$/);
      expect(entry.at.toISOString()).toBe("2010-05-28T00:00:00.0000000Z");
      expect(Expenses.instantOf(entry.rowKey).toISOString()).toBe("2010-05-28T00:00:00.0000000Z");
      expect(entry).toMatchObject({ employee: "000223", amount: 12.5 });
      const stored = await listAll(log.table);
      expect(stored.map((e) => e.rowKey)).toEqual([entry.rowKey]);
      await expectCode(log.append({ employee: "000223", amount: "12" as never }), "InvalidValueType");
      expect(() => Expenses.instantOf("garbage")).toThrow();
    });

    it("reads the newest n with one query, the oldest n by reading to the end, and a time range", async () => {
      const log = Expenses.on(await target().freshTable());
      // 30 entries over days 1..10, three in each millisecond: the suffix keeps them apart.
      for (let d = 1; d <= 10; d++) {
        for (let i = 0; i < 3; i++) await log.append({ employee: "e", amount: d * 10 + i }, { at: may(d) });
      }
      await log.append({ employee: "other", amount: -1 }, { at: may(20) });
      const amounts = (entries: { amount: number }[]) => entries.map((e) => e.amount);
      expect(amounts(await log.newest({ employee: "e" }, 4))).toEqual([102, 101, 100, 92]);
      expect(amounts(await log.oldest({ employee: "e" }, 4))).toEqual([10, 11, 12, 20]);
      expect(amounts(await log.between({ employee: "e" }, may(3), may(5)).toArray())).toEqual([
        42, 41, 40, 32, 31, 30,
      ]);
      expect(amounts(await log.between({ employee: "e" }, may(3), may(5), { limit: 2 }).toArray())).toEqual([
        42, 41,
      ]);
      expect(await log.all({ employee: "e" }).toArray()).toHaveLength(30);
      expect(amounts(await log.newest({ employee: "e" }, 100))).toHaveLength(30);
      expect(await log.newest({ employee: "nobody" }, 3)).toEqual([]);
      await expectCode(log.newest({ employee: "e" }, 0), "InvalidInput");
      const times = (await log.all({ employee: "e" }).toArray()).map((e) => e.at.ticks);
      expect(times).toEqual([...times].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    });

    it("the chronological variant keeps the oldest first, under a literal prefix", async () => {
      const table = await target().freshTable();
      const log = ExpensesOldestFirst.on(table);
      for (let d = 1; d <= 6; d++) await log.append({ employee: "e", amount: d }, { at: may(d) });
      await table.createEntity({ partitionKey: "e", rowKey: "profile", name: "someone" }); // not part of the log
      const entry = (await log.oldest({ employee: "e" }, 1))[0]!;
      expect(entry.rowKey.startsWith("exp_")).toBe(true);
      expect(entry.rowKey.slice(4, 23)).toBe(String(may(1).ticks).padStart(19, "0"));
      expect((await log.oldest({ employee: "e" }, 2)).map((e) => e.amount)).toEqual([1, 2]);
      expect((await log.newest({ employee: "e" }, 2)).map((e) => e.amount)).toEqual([6, 5]);
      expect((await log.between({ employee: "e" }, may(2), may(4)).toArray()).map((e) => e.amount)).toEqual([
        2, 3,
      ]);
      expect(await log.all({ employee: "e" }).toArray()).toHaveLength(6);
    });

    it("keys made in the same instant by concurrent writers never collide", async () => {
      const log = Expenses.on(await target().freshTable());
      const at = may(28, 123);
      const entries = await Promise.all(
        Array.from({ length: 50 }, (_, i) => log.append({ employee: "e", amount: i }, { at })),
      );
      expect(new Set(entries.map((e) => e.rowKey)).size).toBe(50);
      // Within one instant, a newest-first log puts the later entry first.
      expect((await log.newest({ employee: "e" }, 1))[0]!.amount).toBe(49);
      expect((await log.all({ employee: "e" }).toArray()).every((e) => e.at.equals(at))).toBe(true);
    });
  });
}
