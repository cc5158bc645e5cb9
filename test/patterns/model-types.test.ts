/**
 * Type tests: what defineModel infers, checked by `tsc --noEmit` (this file is type-checked with
 * the project) and run by vitest so a broken assertion also fails at runtime where it can.
 * Definition-time checks that need no store are here too.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { type DateTime, openStore } from "../../src/index.js";
import { paddedInt } from "../../src/keys/index.js";
import {
  defineEntityTypes,
  defineLog,
  defineModel,
  defineVersioned,
  field,
  type ModelRecord,
} from "../../src/patterns/index.js";
import { Department, Employee, Location } from "./models.js";

describe("model types", () => {
  it("infers records, keys, prefixes and index records with no generic arguments", async () => {
    const store = await openStore("memory:");
    const repo = Employee.on(store);
    type Record = Awaited<ReturnType<typeof repo.get>>;
    expectTypeOf<Record>().toEqualTypeOf<{
      department: string;
      id: number;
      email: string;
      firstName: string;
      lastName: string;
      age?: number | undefined;
      readonly etag: string;
      readonly timestamp: string;
      readonly entityType: "Employee";
    }>();
    expectTypeOf<Parameters<typeof repo.get>[0]>().toEqualTypeOf<{ department: string; id: number }>();
    expectTypeOf<Parameters<typeof repo.list>[0]>().toEqualTypeOf<
      { department: string; id?: never } | { department: string; id: number }
    >();
    // The email copy holds a subset of the fields: its record says so.
    type ByEmail = Awaited<ReturnType<typeof repo.indexes.email.get>>;
    expectTypeOf<ByEmail>().toEqualTypeOf<{
      department: string;
      id: number;
      email: string;
      firstName: string;
      lastName: string;
      readonly etag: string;
      readonly timestamp: string;
      readonly entityType: "Employee";
    }>();
    // A non-unique index is keyed by its fields, then the entity's RowKey fields.
    expectTypeOf<Parameters<typeof repo.indexes.lastName.get>[0]>().toEqualTypeOf<{
      department: string;
      lastName: string;
      id: number;
    }>();

    // @ts-expect-error the RowKey field is missing
    await repo.get({ department: "Sales" }).catch(() => undefined);
    const wrongType = { department: "Sales", id: "1", email: "", firstName: "", lastName: "" };
    // @ts-expect-error a field of the wrong type
    await repo.create(wrongType).catch(() => undefined);
    // @ts-expect-error a required field is missing
    await repo.create({ department: "Sales", id: 1, email: "", firstName: "" }).catch(() => undefined);
    // @ts-expect-error no such index
    expect(repo.indexes.phone).toBeUndefined();
    await store.close();
  });

  it("types prefix queries of a hierarchical key level by level, without gaps", () => {
    type Where = Parameters<ReturnType<typeof Location.on>["list"]>[0];
    expectTypeOf<{ kind: string }>().toMatchTypeOf<Where>();
    expectTypeOf<{ kind: string; country: string; region: string }>().toMatchTypeOf<Where>();
    // A gap (state without region) is not a prefix.
    expectTypeOf<{ kind: string; country: string; state: string }>().not.toMatchTypeOf<Where>();
    type Population = ModelRecord<(typeof Location)["compiled"]["fields"]>;
    expectTypeOf<Population>().toHaveProperty("etag");
  });

  it("types field kinds, optional fields and DateTime inputs", () => {
    const M = defineModel({
      table: "T",
      fields: {
        p: field.string(),
        at: field.dateTime(),
        big: field.int64(),
        ratio: field.double().optional(),
        ok: field.boolean(),
        uid: field.guid(),
        bytes: field.binary(),
      },
      partitionKey: (k) => k.field("p"),
      rowKey: (k) => k.field("at"),
    });
    type In = Parameters<ReturnType<typeof M.on>["create"]>[0];
    expectTypeOf<In["at"]>().toEqualTypeOf<DateTime | Date>();
    type Out = Awaited<ReturnType<ReturnType<typeof M.on>["get"]>>;
    expectTypeOf<Out["at"]>().toEqualTypeOf<DateTime>();
    expectTypeOf<Out["big"]>().toEqualTypeOf<bigint>();
    expectTypeOf<Out["ratio"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Out["bytes"]>().toEqualTypeOf<Uint8Array>();
    expect(() =>
      defineModel({
        table: "T",
        fields: { p: field.string(), n: field.int32().optional() },
        partitionKey: (k) => k.field("p"),
        // @ts-expect-error an optional field cannot be part of a key (refused at run time too)
        rowKey: (k) => k.field("n"),
      }),
    ).toThrow(expect.objectContaining({ code: "InvalidInput" }));
    defineModel({
      table: "T",
      fields: { p: field.string() },
      partitionKey: (k) => k.field("p"),
      // @ts-expect-error a padded-int codec does not take a string field
      rowKey: (k) => k.field("p", paddedInt({ max: 9 })),
    });
  });

  it("types a mixed read as a union discriminated by entityType", async () => {
    const store = await openStore("memory:");
    const org = defineEntityTypes(Employee, Department).on(store);
    type Item = Awaited<ReturnType<typeof org.get>>;
    expectTypeOf<Extract<Item, { entityType: "Department" }>["employeeCount"]>().toEqualTypeOf<number>();
    expectTypeOf<Extract<Item, { entityType: "Employee" }>["email"]>().toEqualTypeOf<string>();
    await store.close();
  });

  it("types logs and version histories", () => {
    const Log = defineLog({
      table: "L",
      fields: { who: field.string(), n: field.int32() },
      partitionKey: (k) => k.field("who"),
    });
    type Entry = Awaited<ReturnType<ReturnType<typeof Log.on>["newest"]>>[number];
    expectTypeOf<Entry["at"]>().toEqualTypeOf<DateTime>();
    expectTypeOf<Entry["n"]>().toEqualTypeOf<number>();
    const V = defineVersioned({
      table: "V",
      fields: { item: field.string(), part: field.string(), v: field.int32() },
      partitionKey: (k) => k.field("item"),
      item: (k) => k.field("part"),
    });
    expectTypeOf<Parameters<ReturnType<typeof V.on>["latest"]>[0]>().toEqualTypeOf<{
      item: string;
      part: string;
    }>();
  });
});

describe("model definitions", () => {
  const base = { table: "T", partitionKey: (k: never) => k } as const;
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as { code?: string }).code;
    }
    return "no error";
  };

  it("refuses definitions it cannot build safely", () => {
    expect(base.table).toBe("T");
    const fields = { p: field.string(), a: field.string(), b: field.string() };
    // Index RowKeys need literals of their own that do not overlap.
    expect(
      code(() =>
        defineModel({
          table: "T",
          fields,
          partitionKey: (k) => k.field("p"),
          rowKey: (k) => k.field("a"),
          indexes: (k) => ({ b: { rowKey: k.literal("b_").field("b") } }),
        }),
      ),
    ).toBe("InvalidInput");
    expect(
      code(() =>
        defineModel({
          table: "T",
          fields,
          partitionKey: (k) => k.field("p"),
          rowKey: (k) => k.literal("a_").field("a"),
          indexes: (k) => ({ b: { rowKey: k.literal("a_b").field("b") } }),
        }),
      ),
    ).toBe("InvalidInput");
    expect(
      code(() =>
        defineModel({
          table: "T",
          fields: { p: field.string(), etag: field.string() },
          partitionKey: (k) => k.field("p"),
          rowKey: (k) => k.literal("x"),
        }),
      ),
    ).toBe("PropertyNameInvalid");
    expect(
      code(() =>
        defineModel({
          table: "T",
          entityType: "E",
          fields: { p: field.string(), EntityType: field.string() },
          partitionKey: (k) => k.field("p"),
          rowKey: (k) => k.literal("x"),
        }),
      ),
    ).toBe("PropertyNameInvalid");
    expect(
      code(() =>
        defineModel({
          table: "T",
          fields: { p: field.string() },
          partitionKey: (k) => k.field("p"),
          rowKey: (k) => k.literal("a#b"),
        }),
      ),
    ).toBe("InvalidInput");
    expect(
      code(() => defineModel({ table: "T", fields: {}, partitionKey: (k) => k, rowKey: (k) => k })),
    ).toBe("InvalidInput");
  });

  it("shows the keys a model writes, without a store", () => {
    expect(
      Employee.keys({
        department: "Sales",
        id: 223,
        email: "jonesj@contoso.com",
        firstName: "J",
        lastName: "Jones",
      }),
    ).toEqual({
      partitionKey: "Sales",
      rowKey: "empid_000223",
      indexes: { email: "email_jonesj@contoso.com", lastName: "name_Jones!000223!" },
    });
    expect(
      Location.keys({
        kind: "city",
        country: "us",
        region: "west",
        state: "wa",
        city: "new york",
        population: 1n,
      }).rowKey,
    ).toBe("us!west!wa!new$20york!");
  });
});

describe("a model's typed filter helpers", () => {
  const Order = defineModel({
    table: "Orders",
    fields: { customer: field.string(), id: field.int32(), total: field.double(), units: field.int64() },
    partitionKey: (k) => k.field("customer"),
    rowKey: (k) => k.field("id", paddedInt({ max: 999_999 })),
  });

  it("write each value as its field's type, so a whole number matches the Doubles stored", async () => {
    expect(Order.filter.gt("total", 50)).toBe("total gt 50.0");
    expect(Order.filter.eq("units", 5n)).toBe("units eq 5L");
    expect(Order.filter.le("id", 7)).toBe("id le 7");
    expect(Order.filter.ne("customer", "O'Brien")).toBe("customer ne 'O''Brien'");
    // @ts-expect-error a double() field takes a number
    expect(() => Order.filter.gt("total", "50")).toThrow(
      expect.objectContaining({ code: "InvalidValueType" }),
    );
    // @ts-expect-error not a field of the model
    expect(() => Order.filter.eq("totl", 1)).toThrow(expect.objectContaining({ code: "InvalidInput" }));

    const store = await openStore("memory:");
    const orders = Order.on(store);
    await store.table("Orders").createTable();
    for (const [id, total] of [
      [1, 50],
      [2, 75],
      [3, 49.5],
    ] as const) {
      await orders.create({ customer: "c", id, total, units: 1n });
    }
    const ids = async (filter: string) => {
      const out: unknown[] = [];
      for await (const e of store.table("Orders").listEntities({ queryOptions: { filter } })) out.push(e.id);
      return out;
    };
    expect(await ids("total ge 50")).toEqual([]); // the Int32 literal: no Double matches it
    expect(await ids(Order.filter.ge("total", 50))).toEqual([1, 2]);
    await store.close();
  });
});
