import { beforeAll, describe, expect, it } from "vitest";
import { DateTime, odata, type Table } from "../../src/index.js";
import { PROTOTYPE_NAMES } from "../support/prototype-names.js";
import { caught, expectCode, insertMany, rowKeysOf, type TargetRef } from "./helpers.js";

const T1 = "2020-01-01T00:00:00.0000001Z";
const T2 = "2020-01-01T00:00:00.0000002Z";
const G1 = "11111111-1111-1111-1111-111111111111";
const G2 = "22222222-2222-2222-2222-222222222222";
const G3 = "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE";

/** Row key → value of property `v`; each row holds one EDM type (or no `v` at all). */
const V: Record<string, unknown> = {
  s_a: "a",
  s_B: "B",
  s_b: "b",
  s_5: "5",
  s_e: "é",
  s_empty: "",
  s_quote: "O'Brien",
  s_inject: "x' or 'a' eq 'a",
  s_or: "a or b",
  i_5: 5,
  i_neg: -7,
  i_max: 2_147_483_647,
  l_5: 5n,
  l_2p53: 2n ** 53n,
  l_2p53p1: 2n ** 53n + 1n,
  l_min: -(2n ** 63n),
  d_5: { value: 5, type: "Double" },
  d_15: 1.5,
  d_neg: -2.25,
  b_t: true,
  b_f: false,
  t_1: DateTime.parse(T1),
  t_2: DateTime.parse(T2),
  g_1: { value: G1, type: "Guid" },
  g_2: { value: G2, type: "Guid" },
  g_3: { value: G3, type: "Guid" },
  x_1: new Uint8Array([0x0a, 0x1b]),
  x_2: new Uint8Array([0x0a, 0x1c]),
};

/** Rows for precedence tests: properties a, b, c (Int32). */
const ABC: Record<string, [number, number, number]> = {
  abc_100: [1, 0, 0],
  abc_011: [0, 1, 1],
  abc_010: [0, 1, 0],
  abc_101: [1, 0, 1],
};

const rowsWhere = (pred: (rk: string) => boolean) => Object.keys(V).filter(pred);
const strings = rowsWhere((rk) => rk.startsWith("s_"));

/** The `$filter` language: per-type comparisons, strict typing, missing properties, logic, limits, errors. */
export function filterSemanticsSuite(target: TargetRef): void {
  describe("filter semantics", () => {
    let t: Table;
    beforeAll(async () => {
      t = await target().freshTable();
      const entities: Record<string, unknown>[] = [
        ...Object.entries(V).map(([rk, v]) => ({ partitionKey: "p", rowKey: rk, v })),
        { partitionKey: "p", rowKey: "none", w: 1 },
        ...Object.entries(ABC).map(([rk, [a, b, c]]) => ({ partitionKey: "p", rowKey: rk, a, b, c })),
      ];
      await insertMany(t, entities, target().capabilities.limits.maxTransactionOperations);
    });

    /** Asserts `filter` matches exactly `expected` (as a set: order is RowKey order anyway). */
    const expectMatches = async (filter: string, expected: string[]) => {
      expect((await rowKeysOf(t, filter)).sort(), filter).toEqual([...expected].sort());
    };

    it("String: eq ne gt ge lt le compare by UTF-16 code units, not by locale", async () => {
      await expectMatches("v eq 'a'", ["s_a"]);
      await expectMatches("v eq ''", ["s_empty"]);
      await expectMatches(
        "v ne 'a'",
        strings.filter((rk) => rk !== "s_a"),
      );
      // Code units: '' < '5' < 'B' < 'a' < 'a or b' < 'b' < 'x…' < 'é'; 'O' < 'a'.
      await expectMatches("v lt 'a'", ["s_empty", "s_5", "s_B", "s_quote"]);
      await expectMatches("v le 'a'", ["s_empty", "s_5", "s_B", "s_quote", "s_a"]);
      await expectMatches("v gt 'b'", ["s_e", "s_inject"]);
      await expectMatches("v ge 'b'", ["s_b", "s_e", "s_inject"]);
      await expectMatches("v gt 'a' and v lt 'b'", ["s_or"]);
    });

    // Property values compare by UTF-16 code units on every backend (the filter's semantics);
    // only the order of keys in results depends on capabilities.keyOrder.
    it("String: U+E000..U+FFFF sorts after astral characters (UTF-16 code units)", async () => {
      const u = await target().freshTable();
      await u.createEntity({ partitionKey: "p", rowKey: "pua", v: "\ue000" });
      await u.createEntity({ partitionKey: "p", rowKey: "astral", v: "😀" });
      expect(await rowKeysOf(u, "v gt '\ud7ff'")).toEqual(["astral", "pua"]);
      expect(await rowKeysOf(u, "v gt '😀'")).toEqual(["pua"]);
      expect(await rowKeysOf(u, "v lt '\ue000'")).toEqual(["astral"]);
    });

    it("Int32: comparisons, negative literals and the maximum", async () => {
      await expectMatches("v eq 5", ["i_5"]);
      await expectMatches("v ne 5", ["i_neg", "i_max"]);
      await expectMatches("v gt 0", ["i_5", "i_max"]);
      await expectMatches("v ge 5", ["i_5", "i_max"]);
      await expectMatches("v lt 0", ["i_neg"]);
      await expectMatches("v le -7", ["i_neg"]);
      await expectMatches("v eq 2147483647", ["i_max"]);
    });

    it("Int64: comparisons, exact beyond 2^53 and at the minimum", async () => {
      await expectMatches("v eq 5L", ["l_5"]);
      await expectMatches("v eq 9007199254740993L", ["l_2p53p1"]);
      await expectMatches("v eq 9007199254740992L", ["l_2p53"]);
      await expectMatches("v gt 9007199254740992L", ["l_2p53p1"]);
      await expectMatches("v lt 9007199254740993L", ["l_5", "l_2p53", "l_min"]);
      await expectMatches("v ge 5L", ["l_5", "l_2p53", "l_2p53p1"]);
      await expectMatches("v ne 5L", ["l_2p53", "l_2p53p1", "l_min"]);
      await expectMatches("v eq -9223372036854775808L", ["l_min"]);
      await expectMatches("v lt -9223372036854775807L", ["l_min"]);
    });

    it("Double: comparisons with fractional and integral Double literals", async () => {
      await expectMatches("v eq 5.0", ["d_5"]);
      await expectMatches("v eq 1.5", ["d_15"]);
      await expectMatches("v gt 1.0", ["d_5", "d_15"]);
      await expectMatches("v lt 0.0", ["d_neg"]);
      await expectMatches("v le -2.25", ["d_neg"]);
      await expectMatches("v ne 1.5", ["d_5", "d_neg"]);
      await expectMatches("v ge 1.5 and v lt 5.0", ["d_15"]);
    });

    it("Boolean: eq and ne", async () => {
      await expectMatches("v eq true", ["b_t"]);
      await expectMatches("v eq false", ["b_f"]);
      await expectMatches("v ne true", ["b_f"]);
    });

    it("DateTime: compared at full 100 ns precision", async () => {
      await expectMatches(`v eq datetime'${T1}'`, ["t_1"]);
      await expectMatches(`v eq datetime'${T2}'`, ["t_2"]);
      await expectMatches(`v gt datetime'${T1}'`, ["t_2"]);
      await expectMatches(`v lt datetime'${T2}'`, ["t_1"]);
      await expectMatches(`v ge datetime'2020-01-01T00:00:00Z'`, ["t_1", "t_2"]);
      await expectMatches(`v lt datetime'2020-01-01T00:00:00Z'`, []);
      await expectMatches(`v ne datetime'${T1}'`, ["t_2"]);
      await expectMatches(odata`v eq ${DateTime.parse(T2)}`, ["t_2"]);
    });

    it("Guid: eq and ne, case-insensitive literals", async () => {
      await expectMatches(`v eq guid'${G1}'`, ["g_1"]);
      await expectMatches(`v ne guid'${G1}'`, ["g_2", "g_3"]);
      await expectMatches(`v eq guid'${G3}'`, ["g_3"]);
      await expectMatches(`v eq guid'${G3.toLowerCase()}'`, ["g_3"]);
    });

    it("Binary: eq and ne with X'…' and binary'…' literals", async () => {
      await expectMatches("v eq X'0a1b'", ["x_1"]);
      await expectMatches("v eq binary'0A1C'", ["x_2"]);
      await expectMatches("v ne X'0a1b'", ["x_2"]);
    });

    it("a comparison across types is false: the literal's type must match the property's", async () => {
      await expectMatches("v eq 5", ["i_5"]);
      await expectMatches("v eq 5L", ["l_5"]);
      await expectMatches("v eq 5.0", ["d_5"]);
      await expectMatches("v eq '5'", ["s_5"]);
      await expectMatches("v ge 0L", ["l_5", "l_2p53", "l_2p53p1"]);
      await expectMatches("v gt 1000000000000L", ["l_2p53", "l_2p53p1"]);
      await expectMatches("v eq 'true'", []);
      await expectMatches(`v eq '${T1}'`, []);
      await expectMatches(`v eq '${G1}'`, []);
    });

    it("a comparison with a property the entity lacks is false, even ne", async () => {
      await expectMatches("missing eq 1", []);
      await expectMatches("missing ne 1", []);
      await expectMatches("missing ne 'x'", []);
      await expectMatches("w eq 1", ["none"]);
      await expectMatches("w ne 1", []);
      await expectMatches("w eq 1 or missing eq 1", ["none"]);
    });

    it("not, and, or: precedence and parentheses", async () => {
      // and binds tighter than or.
      await expectMatches("a eq 1 or b eq 1 and c eq 1", ["abc_100", "abc_011", "abc_101"]);
      await expectMatches("(a eq 1 or b eq 1) and c eq 1", ["abc_011", "abc_101"]);
      await expectMatches("b eq 1 or a eq 1 and c eq 1", ["abc_011", "abc_010", "abc_101"]);
      await expectMatches("(b eq 1 or a eq 1) and c eq 1", ["abc_011", "abc_101"]);
      await expectMatches("not (a eq 1) and c eq 1", ["abc_011"]);
      await expectMatches("not (a eq 1 or c eq 1) and b eq 1", ["abc_010"]);
      await expectMatches("not (not (v eq true))", ["b_t"]);
      await expectMatches("v ge 'a' and not (v eq 'b') and v lt 'c'", ["s_a", "s_or"]);
      await expectMatches("((v eq 'a'))", ["s_a"]);
      await expectMatches("  v   eq   'a'  ", ["s_a"]);
    });

    it("boolean constants: true matches everything, false nothing, and inside expressions they fold", async () => {
      const all = await rowKeysOf(t, "PartitionKey eq 'p'");
      expect(await rowKeysOf(t, "true")).toEqual(all);
      await expectMatches("false", []);
      await expectMatches("(true)", all);
      await expectMatches("not (true)", []);
      await expectMatches("not (false) and v eq 'a'", ["s_a"]);
      // As ASP.NET Core health checks and .NET predicate builders write them.
      await expectMatches("(true and RowKey eq 'i_5') and ((false or v eq 5) or v eq 'a')", ["i_5"]);
      await expectMatches("true or v eq 'a'", all);
      await expectMatches("false and v eq 'a'", []);
      await expectMatches("false or (v eq 'a' and true)", ["s_a"]);
      await expectMatches("v eq true or false", ["b_t"]);
    });

    it("system properties: PartitionKey, RowKey and Timestamp", async () => {
      await expectMatches("RowKey eq 'i_5' and PartitionKey eq 'p'", ["i_5"]);
      await expectMatches("Timestamp lt datetime'2000-01-01T00:00:00Z'", []);
      const all = (await rowKeysOf(t, "PartitionKey eq 'p'")).length;
      expect((await rowKeysOf(t, "Timestamp ge datetime'2000-01-01T00:00:00Z'")).length).toBe(all);
    });

    it("properties named like Object.prototype members compare like any other", async () => {
      const proto = await target().freshTable();
      const { limits } = target().capabilities;
      // A backend that declares it cannot store a name refuses it whole: nothing is written.
      const unstorable = PROTOTYPE_NAMES.filter((n) => limits.unstorablePropertyNames?.includes(n));
      for (const name of unstorable) {
        await expectCode(
          proto.createEntity({ partitionKey: "p", rowKey: name, [name]: "x" }),
          "NotSupported",
        );
      }
      expect(await rowKeysOf(proto, "PartitionKey eq 'p'")).toEqual([]);
      const names = PROTOTYPE_NAMES.filter((n) => !unstorable.includes(n));
      // Each name holds a String on one row and an Int32 on another; row "none" holds none of them.
      // A computed `["__proto__"]` key makes an own property, unlike the literal `__proto__:`.
      const rows = names.flatMap((name, i) => [
        { partitionKey: "p", rowKey: `s${i}`, [name]: "x" },
        { partitionKey: "p", rowKey: `i${i}`, [name]: 7 },
      ]);
      rows.push({ partitionKey: "p", rowKey: "none", other: "x" });
      await insertMany(proto, rows, limits.maxTransactionOperations);
      const all = rows.map((r) => r.rowKey as string);
      for (const [i, name] of names.entries()) {
        const matches = async (filter: string, expected: string[]) =>
          expect((await rowKeysOf(proto, filter)).sort(), filter).toEqual([...expected].sort());
        expect((await proto.getEntity("p", `s${i}`))[name], name).toBe("x");
        await matches(`${name} eq 'x'`, [`s${i}`]);
        await matches(`${name} ne 'x'`, []);
        await matches(`${name} ge 'a'`, [`s${i}`]);
        await matches(`${name} eq 7`, [`i${i}`]);
        await matches(`${name} lt 8`, [`i${i}`]);
        await matches(`${name} eq 7L`, []);
        await matches(
          `not (${name} eq 'x')`,
          all.filter((rk) => rk !== `s${i}`),
        );
      }
    });

    it("the odata template escapes quotes so no value can change the filter's shape", async () => {
      await expectMatches("v eq 'O''Brien'", ["s_quote"]);
      await expectMatches(odata`v eq ${"O'Brien"}`, ["s_quote"]);
      await expectMatches(odata`v eq ${"x' or 'a' eq 'a"}`, ["s_inject"]);
      await expectMatches(odata`v eq ${"a or b"}`, ["s_or"]);
      await expectMatches(odata`v eq ${"nothing' or v ne 'nothing"}`, []);
      await expectMatches(odata`v eq ${5}`, ["i_5"]);
      await expectMatches(odata`v eq ${5n}`, ["l_5"]);
      await expectMatches(odata`v eq ${true}`, ["b_t"]);
    });

    it("limits.maxFilterComparisons comparisons are accepted; one more is InvalidFilter", async () => {
      const max = target().capabilities.limits.maxFilterComparisons;
      const ors = (n: number) =>
        Array.from({ length: n }, (_, i) => (i === 0 ? "v eq 'a'" : `v eq 'no${i}'`)).join(" or ");
      await expectMatches(ors(max), ["s_a"]);
      await expectCode(rowKeysOf(t, ors(max + 1)), "InvalidFilter");
    });

    it("a syntax error is InvalidFilter with the position of the error", async () => {
      const err = await caught(() => rowKeysOf(t, "v eq 1 xor v eq 2"));
      expect(err).toMatchObject({ code: "InvalidFilter", status: 400, position: 7 });
      for (const bad of [
        "v eq",
        "v eq 'unterminated",
        "(v eq 'a'",
        "v eq 'a')",
        "v eq 'a' and",
        "v xx 'a'",
        "v eq 1 v eq 2",
        "a eq b",
        "startswith(v, 'a')",
        "v eq datetime'not a date'",
        "v eq guid'not-a-guid'",
        "v eq 99999999999999999999L",
        "eq 1",
      ]) {
        const e = await caught(() => rowKeysOf(t, bad));
        expect(e, bad).toMatchObject({ code: "InvalidFilter", status: 400 });
        expect(Number.isInteger(e.position), `${bad}: position`).toBe(true);
        expect(e.position as number, bad).toBeGreaterThanOrEqual(0);
        expect(e.position as number, bad).toBeLessThanOrEqual(bad.length);
      }
    });
  });
}
