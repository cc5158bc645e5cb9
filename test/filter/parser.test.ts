import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_FILTER_LENGTH, parseFilter } from "../../src/filter/index.js";
import { DateTime } from "../../src/model/index.js";
import { cmp, filterErrorOf, literalOf, parsed } from "./helpers.js";

describe("parseFilter: literals", () => {
  it("reads a string literal, quotes doubled", () => {
    expect(literalOf("Name eq 'O''Brien'")).toEqual({ type: "String", value: "O'Brien" });
    expect(literalOf("Name eq ''")).toEqual({ type: "String", value: "" });
    expect(literalOf("Name eq ''''")).toEqual({ type: "String", value: "'" });
    expect(literalOf("Name eq 'a and b or not (c eq d)'")).toEqual({
      type: "String",
      value: "a and b or not (c eq d)",
    });
    expect(literalOf("Name eq 'é😀\u0000'")).toEqual({ type: "String", value: "é😀\u0000" });
  });

  it("reads integers as Int32, from the minimum to the maximum", () => {
    expect(literalOf("Age eq 30")).toEqual({ type: "Int32", value: 30 });
    expect(literalOf("Age eq -7")).toEqual({ type: "Int32", value: -7 });
    expect(literalOf("Age eq 0")).toEqual({ type: "Int32", value: 0 });
    expect(literalOf("Age eq 2147483647")).toEqual({ type: "Int32", value: 2147483647 });
    expect(literalOf("Age eq -2147483648")).toEqual({ type: "Int32", value: -2147483648 });
  });

  it("rejects an integer beyond Int32 without L, as the service does", () => {
    expect(filterErrorOf("Age eq 2147483648").position).toBe(7);
    expect(filterErrorOf("Age eq -2147483649").position).toBe(7);
  });

  it("reads L or l suffixed integers as Int64, to both ends of the range", () => {
    expect(literalOf("Big eq 30L")).toEqual({ type: "Int64", value: 30n });
    expect(literalOf("Big eq 30l")).toEqual({ type: "Int64", value: 30n });
    expect(literalOf("Big eq 9223372036854775807L")).toEqual({ type: "Int64", value: 2n ** 63n - 1n });
    expect(literalOf("Big eq -9223372036854775808L")).toEqual({ type: "Int64", value: -(2n ** 63n) });
    expect(filterErrorOf("Big eq 9223372036854775808L").position).toBe(7);
    expect(filterErrorOf("Big eq 1.5L").position).toBe(7);
  });

  it("reads fractions, exponents and a D suffix as Double", () => {
    expect(literalOf("P eq 100.25")).toEqual({ type: "Double", value: 100.25 });
    expect(literalOf("P eq -1.5")).toEqual({ type: "Double", value: -1.5 });
    expect(literalOf("P eq 1e10")).toEqual({ type: "Double", value: 1e10 });
    expect(literalOf("P eq 2.5E-3")).toEqual({ type: "Double", value: 0.0025 });
    expect(literalOf("P eq 1e+21")).toEqual({ type: "Double", value: 1e21 });
    expect(literalOf("P eq 5.0")).toEqual({ type: "Double", value: 5 });
    expect(literalOf("P eq 5d")).toEqual({ type: "Double", value: 5 });
    expect(literalOf("P eq 2.5D")).toEqual({ type: "Double", value: 2.5 });
    expect(literalOf("P eq NaN").value).toBeNaN();
    expect(literalOf("P eq INF")).toEqual({ type: "Double", value: Number.POSITIVE_INFINITY });
    expect(literalOf("P eq -INF")).toEqual({ type: "Double", value: Number.NEGATIVE_INFINITY });
    expect(Object.is(literalOf("P eq -0.0").value, -0)).toBe(true);
  });

  it("rejects Double overflow, Decimal and Single literals and malformed numbers", () => {
    expect(filterErrorOf("P eq 1e999").position).toBe(5);
    expect(filterErrorOf("P eq 1.5M").position).toBe(5);
    expect(filterErrorOf("P eq 1.5f").position).toBe(5);
    expect(filterErrorOf("P eq 1.").position).toBe(5);
    expect(filterErrorOf("P eq 12abc").position).toBe(5);
    expect(filterErrorOf("P eq 1.2.3").position).toBe(5);
    expect(filterErrorOf("P eq .5").position).toBe(5);
    expect(filterErrorOf("P eq +5").position).toBe(5);
  });

  it("reads true and false, lowercase only", () => {
    expect(literalOf("Ok eq true")).toEqual({ type: "Boolean", value: true });
    expect(literalOf("Ok eq false")).toEqual({ type: "Boolean", value: false });
    expect(filterErrorOf("Ok eq True").position).toBe(6);
    expect(filterErrorOf("Ok eq FALSE").position).toBe(6);
  });

  it("reads datetime'…' with up to 7 fractional digits (prefix in any case)", () => {
    expect(literalOf("T eq datetime'2008-07-10T00:00:00Z'")).toEqual({
      type: "DateTime",
      value: DateTime.parse("2008-07-10T00:00:00Z"),
    });
    const precise = literalOf("T eq datetime'2026-11-22T02:49:12.9327936Z'");
    expect(precise.type === "DateTime" && precise.value.toISOString()).toBe("2026-11-22T02:49:12.9327936Z");
    expect(literalOf("T eq DateTime'2008-07-10T02:00:00+02:00'")).toEqual(
      literalOf("T eq datetime'2008-07-10T00:00:00Z'"),
    );
    expect(filterErrorOf("T eq datetime'2008-07-10T00:00:00.12345678Z'").position).toBe(5);
    expect(filterErrorOf("T eq datetime'2008-13-10T00:00:00Z'").position).toBe(5);
    expect(filterErrorOf("T eq datetime'yesterday'").position).toBe(5);
  });

  it("reads guid'…' as a lowercase Guid (prefix in any case)", () => {
    const g = "AAAAAAAA-bbbb-CCCC-dddd-EEEEEEEEEEEE";
    expect(literalOf(`Id eq guid'${g}'`)).toEqual({ type: "Guid", value: g.toLowerCase() });
    expect(literalOf(`Id eq GUID'${g}'`)).toEqual({ type: "Guid", value: g.toLowerCase() });
    expect(filterErrorOf("Id eq guid'1234'").position).toBe(6);
    expect(filterErrorOf("Id eq guid'{aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee}'").position).toBe(6);
  });

  it("reads X'…' and binary'…' as Binary from hexadecimal", () => {
    const bytes = { type: "Binary", value: new Uint8Array([0x0a, 0x1b]) };
    expect(literalOf("B eq X'0a1b'")).toEqual(bytes);
    expect(literalOf("B eq x'0A1B'")).toEqual(bytes);
    expect(literalOf("B eq binary'0a1b'")).toEqual(bytes);
    expect(literalOf("B eq Binary'0A1b'")).toEqual(bytes);
    expect(literalOf("B eq X''")).toEqual({ type: "Binary", value: new Uint8Array() });
    expect(filterErrorOf("B eq X'0a1'").position).toBe(5);
    expect(filterErrorOf("B eq X'zz'").position).toBe(5);
  });

  it("treats PartitionKey, RowKey and Timestamp as ordinary names (their types apply when evaluating)", () => {
    expect(parsed("PartitionKey eq 'p'")).toEqual(cmp("PartitionKey", "eq", { type: "String", value: "p" }));
    expect(parsed("Timestamp ge datetime'2020-01-01T00:00:00Z'")).toMatchObject({
      property: "Timestamp",
      op: "ge",
    });
  });
});

describe("parseFilter: operators and structure", () => {
  const one = { type: "Int32", value: 1 } as const;

  it("reads every comparison operator", () => {
    for (const op of ["eq", "ne", "gt", "ge", "lt", "le"]) {
      expect(parsed(`A ${op} 1`)).toEqual(cmp("A", op, one));
    }
  });

  it("puts the property on the left, flipping the operator when the constant comes first", () => {
    const flips = { eq: "eq", ne: "ne", gt: "lt", ge: "le", lt: "gt", le: "ge" };
    for (const [op, flipped] of Object.entries(flips)) {
      expect(parsed(`1 ${op} A`)).toEqual(cmp("A", flipped, one));
    }
  });

  it("records each comparison's offset", () => {
    const node = parseFilter("A eq 1 and 'x' eq B");
    expect(
      node.kind === "and" && [node.left, node.right].map((n) => n.kind === "compare" && n.position),
    ).toEqual([0, 11]);
  });

  it("binds and tighter than or, both to the left", () => {
    const [a, b, c] = ["A", "B", "C"].map((p) => cmp(p, "eq", one));
    expect(parsed("A eq 1 or B eq 1 and C eq 1")).toEqual({
      kind: "or",
      left: a,
      right: { kind: "and", left: b, right: c },
    });
    expect(parsed("A eq 1 and B eq 1 or C eq 1")).toEqual({
      kind: "or",
      left: { kind: "and", left: a, right: b },
      right: c,
    });
    expect(parsed("A eq 1 and B eq 1 and C eq 1")).toEqual({
      kind: "and",
      left: { kind: "and", left: a, right: b },
      right: c,
    });
    expect(parsed("A eq 1 or B eq 1 or C eq 1")).toEqual({
      kind: "or",
      left: { kind: "or", left: a, right: b },
      right: c,
    });
  });

  it("lets parentheses override precedence", () => {
    const [a, b, c] = ["A", "B", "C"].map((p) => cmp(p, "eq", one));
    expect(parsed("(A eq 1 or B eq 1) and C eq 1")).toEqual({
      kind: "and",
      left: { kind: "or", left: a, right: b },
      right: c,
    });
    expect(parsed("A eq 1 and (B eq 1 and C eq 1)")).toEqual({
      kind: "and",
      left: a,
      right: { kind: "and", left: b, right: c },
    });
    expect(parsed("((((A eq 1))))")).toEqual(a);
  });

  it("binds not tighter than and/or; not takes a parenthesized operand or another not", () => {
    const [a, b] = ["A", "B"].map((p) => cmp(p, "eq", one));
    expect(parsed("not (A eq 1) and B eq 1")).toEqual({
      kind: "and",
      left: { kind: "not", operand: a },
      right: b,
    });
    expect(parsed("not (A eq 1 and B eq 1)")).toEqual({
      kind: "not",
      operand: { kind: "and", left: a, right: b },
    });
    expect(parsed("not not (A eq 1)")).toEqual({ kind: "not", operand: { kind: "not", operand: a } });
    expect(parsed("not(A eq 1)")).toEqual({ kind: "not", operand: a });
  });

  it("accepts any whitespace between tokens and none around parentheses and quotes", () => {
    expect(parsed("\tA\neq  1 ")).toEqual(cmp("A", "eq", one));
    expect(parsed("(A eq'x')or(B eq 1)")).toEqual({
      kind: "or",
      left: cmp("A", "eq", { type: "String", value: "x" }),
      right: cmp("B", "eq", one),
    });
  });

  it("accepts Unicode letters, digits and underscores in property names", () => {
    expect(parsed("_Größe2 eq 1")).toEqual(cmp("_Größe2", "eq", one));
  });
});

describe("parseFilter: boolean constants (the OData grammar's boolean literals as expressions)", () => {
  it("a constant alone is the whole filter, in parentheses or negated too", () => {
    expect(parseFilter("true")).toEqual({ kind: "constant", value: true });
    expect(parseFilter("false")).toEqual({ kind: "constant", value: false });
    expect(parseFilter(" ( (true) ) ")).toEqual({ kind: "constant", value: true });
    expect(parseFilter("not (true)")).toEqual({ kind: "constant", value: false });
    expect(parseFilter("not not (false)")).toEqual({ kind: "constant", value: false });
  });

  it("folds constants away inside and/or, so a tree never holds one", () => {
    const a = cmp("A", "eq", { type: "Int32", value: 1 });
    const b = cmp("B", "eq", { type: "Int32", value: 2 });
    expect(parsed("true and A eq 1")).toEqual(a);
    expect(parsed("A eq 1 and true")).toEqual(a);
    expect(parsed("false or A eq 1")).toEqual(a);
    expect(parsed("A eq 1 or false")).toEqual(a);
    expect(parsed("false and A eq 1")).toEqual({ kind: "constant", value: false });
    expect(parsed("A eq 1 or true")).toEqual({ kind: "constant", value: true });
    expect(parsed("(true and A eq 1) and ((false or B eq 2) or not (true))")).toEqual({
      kind: "and",
      left: a,
      right: b,
    });
    expect(parsed("not (A eq 1 and true)")).toEqual({ kind: "not", operand: a });
  });

  it("constants are not comparisons: they do not count toward the limit", () => {
    const fifteen = Array.from({ length: 15 }, (_, i) => `P${i} eq ${i}`).join(" or ");
    expect(() => parseFilter(`true and (${fifteen}) and not (false)`)).not.toThrow();
  });

  it("a folded-away part is still checked; constants compared with constants, or other literals alone, are errors", () => {
    expect(filterErrorOf("false and (A eq)").position).toBe(15);
    expect(filterErrorOf("true or A eq null").position).toBe(13);
    expect(filterErrorOf("true eq false").position).toBe(0);
    expect(filterErrorOf("A eq 1 and 5").position).toBe(12);
    expect(filterErrorOf("True").position).toBe(0);
    expect(filterErrorOf("TRUE and A eq 1").position).toBe(0);
    expect(filterErrorOf("true false").position).toBe(5);
    expect(filterErrorOf("not true").position).toBe(4);
  });
});

describe("parseFilter: errors carry InvalidFilter, the position and a caret", () => {
  it("shows the filter with a caret under the problem", () => {
    const err = filterErrorOf("Name eq and Age gt 3");
    expect(err.position).toBe(8);
    expect(err.status).toBe(400);
    expect(err.message.split("\n")).toEqual([
      "Expected a value after 'eq' at position 8:",
      "Name eq and Age gt 3",
      "        ^",
    ]);
  });

  it.each([
    ["", 0],
    ["   ", 3],
    ["A eq", 4],
    ["A eq 1 and", 10],
    ["and A eq 1", 0],
    ["A eq 1 or or B eq 2", 10],
    ["A eq 'unterminated", 5],
    ["A eq 1 # 2", 7],
    ["A eq 1 xor B eq 2", 7],
    ["A eq 1 And B eq 2", 7],
    ["A EQ 1", 2],
    ["A xx 1", 2],
    ["A", 1],
    ["A eq 1 B eq 2", 7],
    ["A eq 1 eq 2", 7],
    ["A eq B", 0],
    ["1 eq 2", 0],
    ["(A eq 1", 7],
    ["A eq 1)", 6],
    ["(A eq 1 B eq 2)", 8],
    ["()", 1],
    ["not A eq 1", 4],
    ["not", 3],
    ["startswith(A, 'x')", 0],
    ["A eq null", 5],
    ["eq 1", 0],
    ["A eq 1 and not", 14],
    ["A/B eq 1", 1],
    ["A eq 1 and and B eq 'unterminated", 11],
  ])("%j fails at %i", (text, position) => {
    expect(filterErrorOf(text).position).toBe(position);
  });

  it("cuts a long filter to a window around the caret", () => {
    const text = `${"A eq 1 and ".repeat(12)}B eq`;
    const [, line, caret] = filterErrorOf(text).message.split("\n");
    expect(line!.length).toBeLessThanOrEqual(102);
    expect(line![caret!.indexOf("^") - 2]).toBe("e");
  });
});

describe("parseFilter: limits", () => {
  const comparisons = (n: number) => Array.from({ length: n }, (_, i) => `P${i} eq ${i}`).join(" or ");

  it("accepts 15 comparisons and rejects 16 at the 16th", () => {
    expect(() => parseFilter(comparisons(15))).not.toThrow();
    const text = comparisons(16);
    const err = filterErrorOf(text);
    expect(err.position).toBe(text.indexOf("P15"));
    expect(err.details).toEqual({ limit: 15 });
  });

  it("takes the limit as an option", () => {
    expect(() => parseFilter(comparisons(3), { maxComparisons: 3 })).not.toThrow();
    expect(filterErrorOf(comparisons(4), { maxComparisons: 3 }).details).toEqual({ limit: 3 });
    expect(() => parseFilter(comparisons(40), { maxComparisons: 40 })).not.toThrow();
  });

  it("counts comparisons under not and inside parentheses", () => {
    const nested = `not (${comparisons(8)}) and (${comparisons(8)})`;
    expect(filterErrorOf(nested).details).toEqual({ limit: 15 });
  });

  it("accepts nesting 100 deep and rejects 101 (a stack guard)", () => {
    const deep = (n: number) => `${"(".repeat(n)}A eq 1${")".repeat(n)}`;
    expect(parsed(deep(100))).toEqual(cmp("A", "eq", { type: "Int32", value: 1 }));
    expect(filterErrorOf(deep(101)).position).toBe(100);
    // Each not and each parenthesis is a level: 99 nots and one pair of parentheses make 100.
    expect(() => parseFilter(`${"not ".repeat(99)}(A eq 1)`)).not.toThrow();
    expect(filterErrorOf(`${"not ".repeat(100)}(A eq 1)`).details).toEqual({ limit: 100 });
    expect(filterErrorOf(deep(5), { maxDepth: 4 }).position).toBe(4);
  });

  /** `A eq '…'` padded to exactly `length` characters. */
  const ofLength = (length: number) => `A eq '${"x".repeat(length - 7)}'`;

  it("accepts a filter of 32,768 characters and rejects one more, pointing past the limit", () => {
    expect(DEFAULT_MAX_FILTER_LENGTH).toBe(32_768);
    expect(ofLength(32_768)).toHaveLength(32_768);
    expect(literalOf(ofLength(32_768))).toEqual({ type: "String", value: "x".repeat(32_761) });
    const err = filterErrorOf(ofLength(32_769));
    expect(err.position).toBe(32_768);
    expect(err.details).toEqual({ limit: 32_768 });
    expect(err.message).toMatch(/^Filter is 32769 characters long; the most is 32768 at position 32768:/);
    expect(err.message.length).toBeLessThan(300);
    expect(() => parseFilter(ofLength(20), { maxLength: 20 })).not.toThrow();
    expect(filterErrorOf(ofLength(21), { maxLength: 20 }).details).toEqual({ limit: 20 });
  });

  it("keeps every error message short, whatever the size of the literal or name it quotes", () => {
    const digits = "9".repeat(30_000);
    const name = `P${"x".repeat(30_000)}`;
    const bad = [
      `A eq ${digits}`, // Int32 out of range
      `A eq ${digits}L`, // Int64 out of range
      `A eq ${digits}M`, // Decimal
      `A eq ${digits}F`, // Single
      `A eq 1${"e9".repeat(3)}${digits}`, // malformed number
      `A eq 1e${digits}`, // Double out of range
      `A eq datetime'${digits}'`,
      `A eq guid'${digits}'`,
      `A eq X'${digits}1'`, // an odd number of hex digits
      `${name} 1`, // expected an operator after a long name
      `${name}(1) eq 1`, // a function
    ];
    for (const text of bad) {
      const err = filterErrorOf(text);
      expect(err.message.length, err.message.slice(0, 200)).toBeLessThan(400);
    }
    expect(filterErrorOf(`A eq ${digits}`).message).toMatch(
      /^Unrecognized Edm.Int32 literal '9{40}…' \(30000 characters\): it is out of Int32 range/,
    );
    // Short literals are still quoted whole.
    expect(filterErrorOf("A eq 2147483648").message).toMatch(
      /^Unrecognized Edm.Int32 literal '2147483648': it is out of Int32 range \(write '2147483648L' for an Int64\)/,
    );
  });
});
