import { describe, expect, it } from "vitest";
import { DateTime, type ErrorCode, type Page, type Table } from "../../src/index.js";
import { invertedTicks } from "../../src/keys/index.js";
import { defineModel, field } from "../../src/patterns/index.js";
import { listAll } from "../conformance/helpers.js";
import { expectCode } from "../support/expect-code.js";
import { Employee, Location, Sample } from "./models.js";
import type { PatternsRef } from "./target.js";

const ann = {
  department: "Sales",
  id: 223,
  email: "jonesj@contoso.com",
  firstName: "John",
  lastName: "Jones",
  age: 34,
};

/** `pk/rk` of every entity in the table. */
async function keysIn(table: Table): Promise<string[]> {
  return (await listAll(table)).map((e) => `${e.partitionKey}/${e.rowKey}`);
}

/** Entity models: typed reads and writes, validation before sending, keys from fields, prefix queries. */
export function modelSuite(target: PatternsRef): void {
  describe("entity models", () => {
    it("writes the seed's keys and reads back a typed record", async () => {
      const repo = Employee.on(await target().freshTable());
      const created = await repo.create(ann);
      expect(created).toMatchObject({ ...ann, entityType: "Employee" });
      expect(await keysIn(repo.table)).toEqual([
        "Sales/email_jonesj@contoso.com",
        "Sales/empid_000223",
        "Sales/name_Jones!000223!",
      ]);
      const read = await repo.get({ department: "Sales", id: 223 });
      expect(read).toEqual({
        ...ann,
        entityType: "Employee",
        etag: created.etag,
        timestamp: created.timestamp,
      });
      const stored = await repo.table.getEntity("Sales", "empid_000223");
      expect(stored.EntityType).toBe("Employee");
      expect(await repo.find({ department: "Sales", id: 224 })).toBeUndefined();
      await expectCode(repo.get({ department: "Sales", id: 224 }), "ResourceNotFound");
    });

    it("keeps every EDM type, including integral doubles, Int64 and 100 ns DateTimes", async () => {
      const repo = Sample.on(await target().freshTable());
      const at = DateTime.parse("2010-05-28T12:34:56.1234567Z");
      const input = {
        group: "g",
        n: -5,
        big: 2n ** 62n,
        ratio: 5,
        flag: false,
        at,
        uid: "0F8FAD5B-D9CB-469F-A165-70867728950E",
        bytes: new Uint8Array([0, 1, 255]),
      };
      await repo.create(input);
      const read = await repo.get({ group: "g", n: -5 });
      expect(read.ratio).toBe(5);
      expect(read.big).toBe(2n ** 62n);
      expect(read.at.toISOString()).toBe("2010-05-28T12:34:56.1234567Z");
      expect(read.uid).toBe("0f8fad5b-d9cb-469f-a165-70867728950e");
      expect([...read.bytes]).toEqual([0, 1, 255]);
      expect(read.flag).toBe(false);
      expect("note" in read).toBe(false);
      const raw = await repo.table.getEntity("g", Sample.keys(input).rowKey);
      expect(raw.ratio).toEqual({ value: 5, type: "Double" });
      // A Date is accepted for a DateTime field and read back as a DateTime.
      await repo.create({ ...input, n: 6, at: new Date("2020-01-02T03:04:05.678Z") });
      expect((await repo.get({ group: "g", n: 6 })).at.toISOString()).toBe("2020-01-02T03:04:05.6780000Z");
    });

    it("validates presence and type of every field before anything is sent", async () => {
      const repo = Employee.on(await target().freshTable());
      const { age: _, ...withoutAge } = ann;
      const cases: [unknown, ErrorCode][] = [
        [{ ...ann, email: undefined }, "InvalidInput"],
        [{ ...ann, email: null }, "InvalidInput"],
        [{ ...ann, id: "223" }, "InvalidValueType"],
        [{ ...ann, id: 1.5 }, "InvalidValueType"],
        [{ ...ann, id: 2147483648 }, "OutOfRangeInput"],
        [{ ...ann, age: 2 ** 31 }, "OutOfRangeInput"],
        [{ ...ann, id: 1_000_000 }, "OutOfRangeInput"], // past the padded key's max
        [{ ...ann, extra: 1 }, "InvalidInput"],
        [{ ...ann, department: "a/b" }, "OutOfRangeInput"], // a forbidden key character, as the service answers
        ["not an object", "InvalidInput"],
      ];
      for (const [input, code] of cases) {
        await expectCode(repo.create(input as typeof ann), code);
      }
      expect(await listAll(repo.table)).toEqual([]);
      await repo.create({ ...withoutAge, id: 1 }); // an optional field may be absent
      await repo.create({ ...ann, id: 999999, email: "max@contoso.com" }); // the padded key's max
      expect((await repo.get({ department: "Sales", id: 1 })).age).toBeUndefined();
    });

    it("refuses a write that would exceed the store's limits, writing nothing", async () => {
      const repo = Sample.on(await target().freshTable());
      const base = {
        group: "g",
        big: 1n,
        ratio: 1,
        flag: true,
        at: new Date(),
        uid: "0f8fad5b-d9cb-469f-a165-70867728950e",
        bytes: new Uint8Array(0),
      };
      const maxChars = target().capabilities.limits.maxStringBytes / 2;
      await repo.create({ ...base, n: 1, note: "x".repeat(maxChars) });
      await expectCode(
        repo.create({ ...base, n: 2, note: "x".repeat(maxChars + 1) }),
        "PropertyValueTooLarge",
      );
      expect((await listAll(repo.table)).length).toBe(1);
    });

    it("queries a hierarchical key at any level, by starts-with and between", async () => {
      const repo = Location.on(await target().freshTable());
      const rows: [string, string, string, string, bigint][] = [
        ["us", "west", "wa", "seattle", 737000n],
        ["us", "west", "wa", "spokane", 228000n],
        ["us", "west", "washington-dc-is-not-here", "x", 1n],
        ["us", "west", "or", "portland", 652000n],
        ["us", "east", "ny", "new york", 8336000n],
        ["usa", "misc", "x", "y", 2n],
        ["uk", "england", "london", "london", 8982000n],
      ];
      for (const [country, region, state, city, population] of rows) {
        await repo.create({ kind: "city", country, region, state, city, population });
      }
      const cities = async (q: AsyncIterable<{ city: string }>) => {
        const out: string[] = [];
        for await (const e of q) out.push(e.city);
        return out;
      };
      expect(await cities(repo.list({ kind: "city" }))).toHaveLength(7);
      expect(await cities(repo.list({ kind: "city", country: "us" }))).toEqual([
        "new york",
        "portland",
        "seattle",
        "spokane",
        "x",
      ]);
      expect(await cities(repo.list({ kind: "city", country: "us", region: "west", state: "wa" }))).toEqual([
        "seattle",
        "spokane",
      ]);
      expect(
        await cities(
          repo.list({ kind: "city", country: "us", region: "west", state: "wa", city: "seattle" }),
        ),
      ).toEqual(["seattle"]);
      expect(
        await cities(repo.list({ kind: "city", country: "us", region: "west" }, { startsWith: "wa" })),
      ).toEqual(["seattle", "spokane", "x"]);
      expect(await cities(repo.list({ kind: "city" }, { startsWith: "us" }))).toHaveLength(6);
      expect(await cities(repo.list({ kind: "city", country: "us" }, { limit: 2 }))).toEqual([
        "new york",
        "portland",
      ]);
      expect(
        await cities(
          repo.between({ kind: "city", country: "uk" }, { kind: "city", country: "us", region: "east" }),
        ),
      ).toEqual(["london", "new york"]);
      await expectCode(
        repo.list({ kind: "city", country: "us", state: "wa" } as never).toArray(),
        "InvalidInput",
      );
      await expectCode(
        repo.list({ kind: "city", country: "us" }, { startsWith: 5 as never }).toArray(),
        "InvalidInput",
      );
    });

    it("builds time-ordered keys from a DateTime field (newest first with inverted ticks)", async () => {
      const Reading = defineModel({
        table: "Readings",
        fields: { device: field.string(), at: field.dateTime(), celsius: field.double() },
        partitionKey: (k) => k.field("device"),
        rowKey: (k) => k.field("at", invertedTicks()),
      });
      const repo = Reading.on(await target().freshTable());
      const hour = (h: number) => DateTime.fromEpochMilliseconds(Date.UTC(2024, 0, 1, h));
      for (let h = 0; h < 10; h++) await repo.create({ device: "d1", at: hour(h), celsius: h + 0.5 });
      expect(
        Reading.keys({ device: "d1", at: DateTime.parse("2010-05-28T00:00:00Z"), celsius: 0 }).rowKey,
      ).toBe("2521272959999999999");
      const newest = await repo.list({ device: "d1" }, { limit: 3 }).toArray();
      expect(newest.map((r) => r.celsius)).toEqual([9.5, 8.5, 7.5]);
      // Newest first, so the later instant is the lower key: between runs from 5 h back to 3 h.
      const window = await repo
        .between({ device: "d1", at: hour(5) }, { device: "d1", at: hour(3) })
        .toArray();
      expect(window.map((r) => r.celsius)).toEqual([5.5, 4.5, 3.5]);
      await expect(repo.create({ device: "d1", at: hour(5), celsius: 0 })).rejects.toMatchObject({
        code: "EntityAlreadyExists",
      });
    });

    it("pages a prefix query with continuation tokens", async () => {
      const repo = Employee.on(await target().freshTable());
      for (let id = 1; id <= 7; id++) {
        await repo.create({ ...ann, id, email: `e${id}@x`, lastName: `L${id}` });
      }
      const ids: number[] = [];
      let continuationToken: string | undefined;
      do {
        const result = await repo
          .list({ department: "Sales" })
          .byPage({ maxPageSize: 3, continuationToken })
          .next();
        const page = result.value as Page<{ id: number }>;
        ids.push(...page.map((e) => e.id));
        continuationToken = page.continuationToken;
      } while (continuationToken);
      expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect((await repo.list({ department: "Sales" }).first())?.id).toBe(1);
      await expectCode(repo.list({ department: "Sales" }, { limit: 0 }).toArray(), "InvalidInput");
    });

    it("updates, patches and deletes with optimistic concurrency", async () => {
      const repo = Location.on(await target().freshTable());
      const key = { kind: "city", country: "us", region: "west", state: "wa", city: "seattle" };
      const v1 = await repo.create({ ...key, population: 1n });
      const v2 = await repo.update({ ...key, population: 2n }, { etag: v1.etag });
      await expectCode(
        repo.update({ ...key, population: 3n }, { etag: v1.etag }),
        "UpdateConditionNotSatisfied",
      );
      const v3 = await repo.patch(key, { population: 3n }, { etag: v2.etag });
      expect(v3.population).toBe(3n);
      await expectCode(repo.patch(key, { population: 4n }, { etag: v2.etag }), "UpdateConditionNotSatisfied");
      await expectCode(repo.patch(key, { city: "tacoma" }), "InvalidInput");
      await expectCode(repo.patch(key, { population: "many" as never }), "InvalidValueType");
      expect((await repo.get(key)).population).toBe(3n);
      await expectCode(repo.delete(key, { etag: v2.etag }), "UpdateConditionNotSatisfied");
      await repo.delete(key, { etag: v3.etag });
      await expectCode(repo.delete(key), "ResourceNotFound");
      await expectCode(repo.update({ ...key, population: 5n }), "ResourceNotFound");
      await expectCode(repo.patch(key, { population: 5n }), "ResourceNotFound");
    });

    it("patch removes an optional field with null", async () => {
      const repo = Employee.on(await target().freshTable());
      await repo.create(ann);
      const patched = await repo.patch({ department: "Sales", id: 223 }, { age: null });
      expect("age" in patched).toBe(false);
      expect("age" in (await repo.get({ department: "Sales", id: 223 }))).toBe(false);
      await expectCode(
        repo.patch({ department: "Sales", id: 223 }, { email: null as never }),
        "InvalidInput",
      );
    });
  });
}
