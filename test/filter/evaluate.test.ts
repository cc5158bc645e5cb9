import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileFilter, evaluateFilter, type FilterableEntity, parseFilter } from "../../src/filter/index.js";
import { DateTime, type PropertyInput, type TypedValue, toTypedValue } from "../../src/model/index.js";
import { anyFilter, typedValue } from "./arbitraries.js";

function entity(
  props: Record<string, PropertyInput>,
  keys = { partitionKey: "p", rowKey: "r" },
): FilterableEntity {
  const properties = new Map<string, TypedValue>();
  for (const [name, v] of Object.entries(props)) properties.set(name, toTypedValue(name, v)!);
  return { ...keys, timestamp: DateTime.parse("2024-01-01T00:00:00.0000001Z"), properties };
}

/** Evaluates with both the interpreter and the compiled predicate, which must agree. */
function matches(filter: string, e: FilterableEntity): boolean {
  const node = parseFilter(filter);
  const interpreted = evaluateFilter(node, e);
  expect(compileFilter(node)(e), `compiled ${filter}`).toBe(interpreted);
  return interpreted;
}

/** For `v op literal` over each operator: which of eq ne gt ge lt le hold. */
function truthTable(v: PropertyInput, literal: string): string {
  const e = entity({ v });
  return ["eq", "ne", "gt", "ge", "lt", "le"].filter((op) => matches(`v ${op} ${literal}`, e)).join(" ");
}

describe("evaluateFilter: comparisons per type", () => {
  it("String compares by UTF-16 code units", () => {
    expect(truthTable("b", "'b'")).toBe("eq ge le");
    expect(truthTable("b", "'a'")).toBe("ne gt ge");
    expect(truthTable("B", "'a'")).toBe("ne lt le");
    expect(truthTable("ab", "'a'")).toBe("ne gt ge");
    expect(truthTable("", "''")).toBe("eq ge le");
    // U+E000 is above the surrogates that encode 😀 in UTF-16 (below it in UTF-8).
    expect(truthTable("\ue000", "'😀'")).toBe("ne gt ge");
  });

  it("Int32 and Int64 compare numerically, Int64 exactly beyond 2^53", () => {
    expect(truthTable(5, "5")).toBe("eq ge le");
    expect(truthTable(-7, "5")).toBe("ne lt le");
    expect(truthTable(2n ** 53n + 1n, "9007199254740992L")).toBe("ne gt ge");
    expect(truthTable(-(2n ** 63n), "-9223372036854775808L")).toBe("eq ge le");
  });

  it("Double follows IEEE 754: NaN matches only ne, -0 equals 0, infinities order", () => {
    expect(truthTable(1.5, "1.5")).toBe("eq ge le");
    expect(truthTable(1.5, "2.0")).toBe("ne lt le");
    expect(truthTable(Number.NaN, "1.0")).toBe("ne");
    expect(truthTable(Number.NaN, "NaN")).toBe("ne");
    expect(truthTable(1.5, "NaN")).toBe("ne");
    expect(truthTable(-0, "0.0")).toBe("eq ge le");
    expect(truthTable(Number.POSITIVE_INFINITY, "1e308")).toBe("ne gt ge");
    expect(truthTable(Number.NEGATIVE_INFINITY, "-INF")).toBe("eq ge le");
  });

  it("Boolean orders false before true", () => {
    expect(truthTable(true, "true")).toBe("eq ge le");
    expect(truthTable(true, "false")).toBe("ne gt ge");
    expect(truthTable(false, "true")).toBe("ne lt le");
  });

  it("DateTime compares by 100 ns ticks", () => {
    const t = DateTime.parse("2024-01-01T00:00:00.0000001Z");
    expect(truthTable(t, "datetime'2024-01-01T00:00:00.0000001Z'")).toBe("eq ge le");
    expect(truthTable(t, "datetime'2024-01-01T00:00:00Z'")).toBe("ne gt ge");
    expect(truthTable(t, "datetime'2024-01-01T00:00:00.0000002Z'")).toBe("ne lt le");
  });

  it("Guid compares as lowercase text, whatever the literal's case", () => {
    const g = { value: "aaaaaaaa-0000-0000-0000-000000000000", type: "Guid" } as const;
    expect(truthTable(g, "guid'AAAAAAAA-0000-0000-0000-000000000000'")).toBe("eq ge le");
    expect(truthTable(g, "guid'bbbbbbbb-0000-0000-0000-000000000000'")).toBe("ne lt le");
    expect(truthTable(g, "guid'11111111-0000-0000-0000-000000000000'")).toBe("ne gt ge");
  });

  it("Binary compares bytewise, a prefix first", () => {
    const x = new Uint8Array([0x0a, 0x1b]);
    expect(truthTable(x, "X'0a1b'")).toBe("eq ge le");
    expect(truthTable(x, "X'0a1c'")).toBe("ne lt le");
    expect(truthTable(x, "X'0a'")).toBe("ne gt ge");
    expect(truthTable(x, "X'ff'")).toBe("ne lt le");
  });
});

describe("evaluateFilter: types must match and properties must exist", () => {
  it("a comparison across types is false for every operator", () => {
    expect(truthTable(5, "5L")).toBe("");
    expect(truthTable(5, "5.0")).toBe("");
    expect(truthTable(5n, "5")).toBe("");
    expect(truthTable({ value: 5, type: "Double" }, "5")).toBe("");
    expect(truthTable("5", "5")).toBe("");
    expect(truthTable("true", "true")).toBe("");
    expect(
      truthTable(
        { value: "aaaaaaaa-0000-0000-0000-000000000000", type: "Guid" },
        "'aaaaaaaa-0000-0000-0000-000000000000'",
      ),
    ).toBe("");
    expect(truthTable(new Uint8Array([1]), "'01'")).toBe("");
    expect(truthTable(DateTime.MIN, "'0001-01-01T00:00:00.0000000Z'")).toBe("");
  });

  it("a comparison with a missing property is false for every operator, ne included", () => {
    const e = entity({ other: 1 });
    for (const op of ["eq", "ne", "gt", "ge", "lt", "le"]) expect(matches(`v ${op} 1`, e)).toBe(false);
  });

  it("not is plain negation: not (X eq 1) holds when X is missing or of another type", () => {
    expect(matches("not (v eq 1)", entity({}))).toBe(true);
    expect(matches("not (v eq 1)", entity({ v: "1" }))).toBe(true);
    expect(matches("not (v eq 1)", entity({ v: 1 }))).toBe(false);
    expect(matches("not (v ne 1)", entity({}))).toBe(true);
    expect(matches("v ne 1", entity({}))).toBe(false);
    expect(matches("not (not (v eq 1))", entity({}))).toBe(false);
  });

  it("and/or combine as booleans", () => {
    const e = entity({ a: 1, b: 0 });
    expect(matches("a eq 1 and b eq 1", e)).toBe(false);
    expect(matches("a eq 1 or b eq 1", e)).toBe(true);
    expect(matches("missing eq 1 or a eq 1", e)).toBe(true);
    expect(matches("b eq 1 or a eq 1 and missing eq 1", e)).toBe(false);
  });

  it("reads PartitionKey and RowKey as Strings and Timestamp as a DateTime", () => {
    const e = entity({}, { partitionKey: "pk", rowKey: "rk" });
    expect(matches("PartitionKey eq 'pk' and RowKey eq 'rk'", e)).toBe(true);
    expect(matches("PartitionKey gt 'pj' and RowKey lt 'rl'", e)).toBe(true);
    expect(matches("PartitionKey eq 1", e)).toBe(false);
    expect(matches("not (PartitionKey eq 1)", e)).toBe(true);
    expect(matches("Timestamp eq datetime'2024-01-01T00:00:00.0000001Z'", e)).toBe(true);
    expect(matches("Timestamp gt datetime'2024-01-01T00:00:00Z'", e)).toBe(true);
    expect(matches("Timestamp eq '2024-01-01T00:00:00.0000001Z'", e)).toBe(false);
  });

  it("treats a Timestamp the entity does not carry as missing", () => {
    const e: FilterableEntity = { partitionKey: "p", rowKey: "r", properties: new Map() };
    expect(matches("Timestamp ge datetime'0001-01-01T00:00:00Z'", e)).toBe(false);
    expect(matches("not (Timestamp ge datetime'0001-01-01T00:00:00Z')", e)).toBe(true);
  });

  it("compileFilter agrees with evaluateFilter on random filters and entities", () => {
    const names = ["PartitionKey", "RowKey", "Timestamp", "A", "B"];
    const arbEntity = fc.record({
      pk: fc.string({ maxLength: 3 }),
      rk: fc.string({ maxLength: 3 }),
      a: fc.option(typedValue, { nil: undefined }),
      b: fc.option(typedValue, { nil: undefined }),
    });
    const filters = anyFilter.map(function rename(n): typeof n {
      if (n.kind === "compare") return { ...n, property: names[n.property.length % names.length]! };
      if (n.kind === "not") return { kind: "not", operand: rename(n.operand) };
      return { kind: n.kind, left: rename(n.left), right: rename(n.right) };
    });
    fc.assert(
      fc.property(filters, arbEntity, (node, { pk, rk, a, b }) => {
        const properties = new Map<string, TypedValue>();
        if (a) properties.set("A", a);
        if (b) properties.set("B", b);
        const e = { partitionKey: pk, rowKey: rk, timestamp: DateTime.MIN, properties };
        expect(compileFilter(node)(e)).toBe(evaluateFilter(node, e));
      }),
    );
  });
});

describe("evaluateFilter: boolean constants", () => {
  it("true matches every entity, false none, folded inside expressions", () => {
    const e = entity({ v: 1 });
    expect(matches("true", e)).toBe(true);
    expect(matches("false", e)).toBe(false);
    expect(matches("not (false)", e)).toBe(true);
    expect(matches("true and v eq 1", e)).toBe(true);
    expect(matches("false or v eq 2", e)).toBe(false);
  });
});
