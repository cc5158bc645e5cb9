import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  countComparisons,
  filtersEqual,
  filterToString,
  formatFilterError,
  formatLiteral,
  parseFilter,
  where,
} from "../../src/filter/index.js";
import { DateTime, TableKitError } from "../../src/model/index.js";
import { anyFilter, typedValue } from "./arbitraries.js";
import { literalOf } from "./helpers.js";

describe("filterToString", () => {
  it("prints canonical text: lowercase operators, canonical literals, property on the left", () => {
    expect(filterToString(parseFilter("30 lt Age"))).toBe("Age gt 30");
    expect(filterToString(parseFilter("B eq x'0A1B' and T ge DateTime'2008-07-10T00:00:00Z'"))).toBe(
      "B eq X'0a1b' and T ge datetime'2008-07-10T00:00:00.0000000Z'",
    );
    expect(filterToString(parseFilter("G eq GUID'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE'"))).toBe(
      "G eq guid'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'",
    );
    expect(filterToString(parseFilter("N eq 5l or D eq 5d or E eq 1e21 or F eq -0.0"))).toBe(
      "N eq 5L or D eq 5.0 or E eq 1e+21 or F eq -0.0",
    );
    expect(filterToString(parseFilter("S eq 'O''Brien'"))).toBe("S eq 'O''Brien'");
  });

  it("keeps only the parentheses the tree needs", () => {
    const same = [
      "A eq 1 or B eq 1 and C eq 1",
      "(A eq 1 or B eq 1) and C eq 1",
      "A eq 1 and (B eq 1 or C eq 1)",
      "A eq 1 and (B eq 1 and C eq 1)",
      "A eq 1 or (B eq 1 or C eq 1)",
      "not (A eq 1) and not (B eq 1 or C eq 1)",
      "not not (A eq 1)",
    ];
    for (const text of same) expect(filterToString(parseFilter(text))).toBe(text);
    expect(filterToString(parseFilter("((A eq 1) and (B eq 1))"))).toBe("A eq 1 and B eq 1");
    expect(filterToString(parseFilter("(A eq 1 and B eq 1) or C eq 1"))).toBe("A eq 1 and B eq 1 or C eq 1");
  });

  it("refuses a node whose property name cannot be written in filter text", () => {
    const node = {
      kind: "compare",
      op: "eq",
      property: "not a name",
      value: { type: "Int32", value: 1 },
      position: 0,
    } as const;
    expect(() => filterToString(node)).toThrow(TableKitError);
    expect(() => filterToString({ ...node, property: "and" })).toThrow(TableKitError);
  });

  it("round-trips any filter: parse(print(node)) equals node", () => {
    fc.assert(
      fc.property(anyFilter, (node) => {
        expect(
          filtersEqual(parseFilter(filterToString(node), { maxComparisons: Number.POSITIVE_INFINITY }), node),
        ).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("formats every typed value as a literal that reads back exactly", () => {
    fc.assert(
      fc.property(typedValue, (tv) => {
        const back = literalOf(`P eq ${formatLiteral(tv)}`);
        expect(back.type).toBe(tv.type);
        expect(
          filtersEqual(
            { kind: "compare", op: "eq", property: "P", value: back, position: 0 },
            {
              kind: "compare",
              op: "eq",
              property: "P",
              value: tv,
              position: 0,
            },
          ),
        ).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("filtersEqual and countComparisons", () => {
  it("compares structure and typed values, not positions", () => {
    expect(filtersEqual(parseFilter("A eq 1"), parseFilter("  1 eq A"))).toBe(true);
    expect(filtersEqual(parseFilter("A eq 1"), parseFilter("A eq 1L"))).toBe(false);
    expect(filtersEqual(parseFilter("A eq NaN"), parseFilter("A eq NaN"))).toBe(true);
    expect(filtersEqual(parseFilter("A eq 0.0"), parseFilter("A eq -0.0"))).toBe(false);
    expect(filtersEqual(parseFilter("A eq 1 and B eq 1"), parseFilter("A eq 1 or B eq 1"))).toBe(false);
    expect(filtersEqual(parseFilter("not (A eq 1)"), parseFilter("A eq 1"))).toBe(false);
  });

  it("counts comparisons", () => {
    expect(countComparisons(parseFilter("A eq 1"))).toBe(1);
    expect(countComparisons(parseFilter("not (A eq 1 or B eq 2) and C eq 3"))).toBe(3);
  });
});

describe("formatFilterError", () => {
  it("points a caret at the position, with whitespace flattened", () => {
    expect(formatFilterError("Oops", "A eq\t1", 5)).toBe("Oops at position 5:\nA eq 1\n     ^");
    expect(formatFilterError("End", "A eq", 4)).toBe("End at position 4:\nA eq\n    ^");
  });

  it("shows a window of a long filter with ellipses", () => {
    const text = "x".repeat(300);
    const [, line, caret] = formatFilterError("Here", text, 150).split("\n");
    expect(line).toBe(`…${"x".repeat(100)}…`);
    expect(caret).toBe(`${" ".repeat(51)}^`);
  });
});

describe("where builder", () => {
  it("builds the nodes the parser would, typed like entity properties", () => {
    const built = where.and(
      where.eq("PartitionKey", "p"),
      where.or(where.gt("Age", 30), where.le("Big", 5n)),
      where.not(where.ne("When", new Date(0))),
    );
    const text = filterToString(built);
    expect(text).toBe(
      "PartitionKey eq 'p' and (Age gt 30 or Big le 5L) and not (When ne datetime'1970-01-01T00:00:00.0000000Z')",
    );
    expect(filtersEqual(parseFilter(text), built)).toBe(true);
    expect(where.eq("T", DateTime.MIN)).toMatchObject({ value: { type: "DateTime" }, position: -1 });
    expect(where.eq("D", { value: 5, type: "Double" })).toMatchObject({
      value: { type: "Double", value: 5 },
    });
  });

  it("joins any number of filters, and refuses none", () => {
    const parts = ["a", "b", "c"].map((pk) => where.eq("PartitionKey", pk));
    expect(filterToString(where.or(...parts))).toBe(
      "PartitionKey eq 'a' or PartitionKey eq 'b' or PartitionKey eq 'c'",
    );
    expect(where.and(parts[0]!)).toBe(parts[0]);
    expect(() => where.or()).toThrow(expect.objectContaining({ code: "InvalidFilter" }));
  });

  it("rejects bad property names and null values", () => {
    expect(() => where.eq("two words", 1)).toThrow(expect.objectContaining({ code: "PropertyNameInvalid" }));
    expect(() => where.eq("A", null)).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(() => where.eq("A", 2n ** 63n)).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
  });
});

describe("boolean constants print, compare and count", () => {
  it("a whole filter that folds to a constant prints as it, counts no comparison, equals only itself", () => {
    expect(filterToString(parseFilter("not (true)"))).toBe("false");
    expect(filterToString(parseFilter("true and A eq 1"))).toBe("A eq 1");
    expect(countComparisons(parseFilter("true"))).toBe(0);
    expect(filtersEqual(parseFilter("true"), parseFilter("(true)"))).toBe(true);
    expect(filtersEqual(parseFilter("true"), parseFilter("false"))).toBe(false);
    expect(filtersEqual(parseFilter("true"), parseFilter("A eq 1"))).toBe(false);
    expect(filtersEqual(parseFilter("A eq 1"), parseFilter("true"))).toBe(false);
  });
});
