import { describe, expect, it } from "vitest";
import { DateTime, type Limits, type Table } from "../../src/index.js";
import {
  bytes,
  customProperties,
  expectSameValue,
  listAll,
  type ReadEntity,
  submit,
  type TargetRef,
} from "./helpers.js";

/** One property per case: what a caller writes, and exactly what every read must return. */
interface ValueCase {
  readonly name: string;
  readonly input: unknown;
  readonly expected: unknown;
}

const GUID = "3F2504E0-4F89-11D3-9A0C-0305E82C3301";
const SEVEN_DIGITS = "2026-11-22T02:49:12.9327936Z";
const JS_DATE = new Date("2024-02-29T12:34:56.789Z");

/** Every EDM type with its edge values (Azure "Understanding the data model", field notes). */
function valueCases(limits: Limits): ValueCase[] {
  const same = (name: string, value: unknown): ValueCase => ({ name, input: value, expected: value });
  return [
    same("stringPlain", "hello"),
    same("stringEmpty", ""),
    same("stringUnicode", "über 日本 😀 é \u00a0 \ud7ff \ue000 \uffff"),
    // The largest String and Binary the backend allows (32,768 chars and 64 KiB on Azure).
    same("stringMax", "x".repeat(limits.maxStringBytes / 2)),
    same("int32Zero", 0),
    same("int32Min", -2_147_483_648),
    same("int32Max", 2_147_483_647),
    { name: "int32Annotated", input: { value: 42, type: "Int32" }, expected: 42 },
    same("int64Zero", 0n),
    same("int64Min", -(2n ** 63n)),
    same("int64Max", 2n ** 63n - 1n),
    same("int64BeyondDouble", 2n ** 53n + 1n),
    {
      name: "int64Annotated",
      input: { value: "9007199254740993", type: "Int64" },
      expected: 9_007_199_254_740_993n,
    },
    same("doubleFraction", 1.5),
    { name: "doubleIntegral", input: { value: 5, type: "Double" }, expected: { value: 5, type: "Double" } },
    same("doubleNaN", Number.NaN),
    same("doubleInfinity", Number.POSITIVE_INFINITY),
    same("doubleNegInfinity", Number.NEGATIVE_INFINITY),
    same("doubleNegZero", -0),
    same("doubleLarge", 1e308),
    same("doubleTiny", 5e-324),
    // Beyond Int32 a plain integral number is a Double, and reads back as a plain number.
    same("doubleBeyondInt32", 2 ** 31),
    same("boolTrue", true),
    same("boolFalse", false),
    { name: "dateSevenDigits", input: DateTime.parse(SEVEN_DIGITS), expected: DateTime.parse(SEVEN_DIGITS) },
    { name: "dateFromJsDate", input: JS_DATE, expected: DateTime.fromDate(JS_DATE) },
    {
      name: "dateMin",
      input: DateTime.parse("1601-01-01T00:00:00Z"),
      expected: DateTime.parse("1601-01-01T00:00:00Z"),
    },
    {
      name: "dateMax",
      input: DateTime.parse("9999-12-31T23:59:59.9999999Z"),
      expected: DateTime.parse("9999-12-31T23:59:59.9999999Z"),
    },
    {
      name: "dateAnnotated",
      input: { value: "2020-01-02T03:04:05.0000001Z", type: "DateTime" },
      expected: DateTime.parse("2020-01-02T03:04:05.0000001Z"),
    },
    {
      name: "guid",
      input: { value: GUID, type: "Guid" },
      expected: { value: GUID.toLowerCase(), type: "Guid" },
    },
    same("binaryEmpty", new Uint8Array(0)),
    same("binarySmall", new Uint8Array([0, 1, 2, 254, 255])),
    same("binaryMax", bytes(limits.maxBinaryBytes)),
  ];
}

/** Splits the cases over entities small enough for every backend (large values get their own). */
function entitiesFor(
  pk: string,
  cases: ValueCase[],
): { entity: Record<string, unknown>; cases: ValueCase[] }[] {
  const large = new Set(["stringMax", "binaryMax"]);
  const groups = [
    cases.filter((c) => !large.has(c.name)),
    ...cases.filter((c) => large.has(c.name)).map((c) => [c]),
  ];
  return groups.map((group, i) => ({
    entity: { partitionKey: pk, rowKey: `r${i}`, ...Object.fromEntries(group.map((c) => [c.name, c.input])) },
    cases: group,
  }));
}

function expectCases(entity: ReadEntity, cases: ValueCase[], how: string): void {
  const props = customProperties(entity);
  expect(Object.keys(props).sort(), `${how}: property names`).toEqual(cases.map((c) => c.name).sort());
  for (const c of cases) expectSameValue(props[c.name], c.expected, `${how}: ${c.name}`);
}

/** The eight EDM types round-trip exactly through every kind of write and read. */
export function typedValuesSuite(target: TargetRef): void {
  describe("typed values", () => {
    const groups = (pk = "p") => {
      // A value the backend declares it cannot store (a `capabilities.divergences` id) is left out.
      const declared = new Set(target().capabilities.divergences.map((d) => d.id));
      const cases = valueCases(target().capabilities.limits).filter(
        (c) => !(c.name === "doubleNegZero" && declared.has("double-negative-zero")),
      );
      return entitiesFor(pk, cases);
    };

    it("round-trips all eight EDM types on create then get", async () => {
      const t = await target().freshTable();
      for (const g of groups()) {
        await t.createEntity(g.entity as { partitionKey: string; rowKey: string });
        expectCases(await get(t, g.entity), g.cases, "get");
      }
    });

    it("round-trips all eight EDM types through a query", async () => {
      const t = await target().freshTable();
      const gs = groups();
      for (const g of gs) await t.createEntity(g.entity as { partitionKey: string; rowKey: string });
      const found = await listAll(t);
      expect(found).toHaveLength(gs.length);
      for (const [i, g] of gs.entries()) expectCases(found[i]!, g.cases, "query");
    });

    it("round-trips all eight EDM types on merge, upsert and replace", async () => {
      const t = await target().freshTable();
      for (const g of groups()) {
        const keys = { partitionKey: g.entity.partitionKey as string, rowKey: g.entity.rowKey as string };
        await t.createEntity({ ...keys, placeholder: 1 });
        await t.updateEntity(g.entity as typeof keys, "Merge");
        expectCases(
          await get(t, keys),
          [...g.cases, { name: "placeholder", input: 1, expected: 1 }],
          "merge",
        );
        await t.updateEntity(g.entity as typeof keys, "Replace");
        expectCases(await get(t, keys), g.cases, "replace");
        await t.deleteEntity(keys.partitionKey, keys.rowKey);
        await t.upsertEntity(g.entity as typeof keys, "Merge");
        expectCases(await get(t, keys), g.cases, "upsert");
      }
    });

    it("round-trips all eight EDM types inside a transaction", async () => {
      const t = await target().freshTable();
      const gs = groups();
      await submit(
        t,
        gs.map((g) => ["create", g.entity as { partitionKey: string; rowKey: string }]),
      );
      for (const g of gs) expectCases(await get(t, g.entity), g.cases, "transaction create");
      await submit(
        t,
        gs.map((g) => ["update", g.entity as { partitionKey: string; rowKey: string }, "Replace"]),
      );
      for (const g of gs) expectCases(await get(t, g.entity), g.cases, "transaction replace");
    });

    it("never changes a property's type when a read entity is written back", async () => {
      const t = await target().freshTable();
      for (const g of groups()) {
        await t.createEntity(g.entity as { partitionKey: string; rowKey: string });
        const read = await get(t, g.entity);
        await t.updateEntity(read as unknown as Keys, "Replace");
        expectCases(await get(t, g.entity), g.cases, "get, then write back");
        await t.upsertEntity(read as unknown as Keys, "Replace");
        expectCases(await get(t, g.entity), g.cases, "get, then upsert back");
      }
      for (const read of await listAll(t)) {
        await t.updateEntity(read as unknown as Keys, "Replace");
      }
      const gs = groups();
      for (const g of gs) expectCases(await get(t, g.entity), g.cases, "query, then write back");
    });

    it("keeps all seven fractional digits of a DateTime", async () => {
      const t = await target().freshTable();
      const values = [
        "2026-11-22T02:49:12.0000001Z",
        "2026-11-22T02:49:12.0000002Z",
        "2026-11-22T02:49:12.9999999Z",
      ];
      await t.createEntity({
        partitionKey: "p",
        rowKey: "r",
        ...Object.fromEntries(values.map((v, i) => [`d${i}`, DateTime.parse(v)])),
      });
      const e = await t.getEntity("p", "r");
      for (const [i, v] of values.entries()) expect((e[`d${i}`] as DateTime).toISOString()).toBe(v);
    });
  });
}

type Keys = { partitionKey: string; rowKey: string };

function get(t: Table, keys: Record<string, unknown>): Promise<ReadEntity> {
  return t.getEntity(keys.partitionKey as string, keys.rowKey as string) as Promise<ReadEntity>;
}
