import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  evaluateFilter,
  type FilterNode,
  type KeyRange,
  keyRangeContains,
  keyRanges,
  parseFilter,
  where,
} from "../../src/filter/index.js";
import { compareUtf8, compareUtf16 } from "../../src/model/index.js";
import { smallEntity, smallFilter, toFilterable } from "./arbitraries.js";

const ranges = (text: string, order = compareUtf16) => keyRanges(parseFilter(text), order);
const incl = (value: string) => ({ value, inclusive: true });
const excl = (value: string) => ({ value, inclusive: false });
const rows = (pk: string, rk: object = {}): KeyRange => ({
  kind: "rows",
  pk,
  rk,
});
const partitions = (pk: object): KeyRange => ({ kind: "partitions", pk });

describe("keyRanges", () => {
  it("gives the whole table (undefined) when keys are unconstrained", () => {
    expect(ranges("Age gt 3")).toBeUndefined();
    expect(ranges("RowKey eq 'r'")).toBeUndefined();
    expect(ranges("PartitionKey eq 'a' or Age gt 3")).toBeUndefined();
    expect(ranges("not (PartitionKey eq 1)")).toBeUndefined();
    expect(ranges("PartitionKey ge ''")).toBeUndefined();
  });

  it("gives one partition for PartitionKey eq, with RowKey bounds as a rows range", () => {
    expect(ranges("PartitionKey eq 'p'")).toEqual([rows("p")]);
    expect(ranges("PartitionKey eq 'p' and RowKey ge 'a' and RowKey lt 'b'")).toEqual([
      rows("p", { lower: incl("a"), upper: excl("b") }),
    ]);
    expect(ranges("RowKey le 'x' and PartitionKey eq 'p' and Age gt 1")).toEqual([
      rows("p", { upper: incl("x") }),
    ]);
    expect(ranges("PartitionKey eq 'p' and RowKey eq 'r'")).toEqual([
      rows("p", { lower: incl("r"), upper: incl("r") }),
    ]);
  });

  it("gives partitions ranges for PartitionKey bounds, leaving RowKey bounds to the filter", () => {
    expect(ranges("PartitionKey gt 'a' and PartitionKey le 'c'")).toEqual([
      partitions({ lower: excl("a"), upper: incl("c") }),
    ]);
    expect(ranges("PartitionKey lt 'c' and RowKey eq 'r'")).toEqual([partitions({ upper: excl("c") })]);
  });

  it("splits ne into the two sides of the value", () => {
    expect(ranges("PartitionKey ne 'm'")).toEqual([
      partitions({ upper: excl("m") }),
      partitions({ lower: excl("m") }),
    ]);
    expect(ranges("PartitionKey eq 'p' and RowKey ne 'm'")).toEqual([
      rows("p", { upper: excl("m") }),
      rows("p", { lower: excl("m") }),
    ]);
  });

  it("gives [] when nothing can match", () => {
    expect(ranges("PartitionKey eq 'a' and PartitionKey eq 'b'")).toEqual([]);
    expect(ranges("PartitionKey gt 'b' and PartitionKey lt 'a'")).toEqual([]);
    expect(ranges("PartitionKey eq 'p' and RowKey gt 'b' and RowKey le 'b'")).toEqual([]);
    expect(ranges("PartitionKey lt ''")).toEqual([]);
    expect(ranges("PartitionKey eq 1")).toEqual([]);
    expect(ranges("RowKey eq 5L and Age gt 3")).toEqual([]);
  });

  it("pushes not down by De Morgan", () => {
    expect(ranges("not (PartitionKey lt 'b')")).toEqual([partitions({ lower: incl("b") })]);
    expect(ranges("not (PartitionKey ne 'p')")).toEqual([rows("p")]);
    expect(ranges("not (PartitionKey lt 'b' or PartitionKey gt 'd')")).toEqual([
      partitions({ lower: incl("b"), upper: incl("d") }),
    ]);
    expect(ranges("not (PartitionKey ne 'p' or RowKey lt 'r')")).toEqual([rows("p", { lower: incl("r") })]);
    expect(ranges("not (not (PartitionKey eq 'p'))")).toEqual([rows("p")]);
    expect(ranges("not (PartitionKey eq 'p' and Age gt 1)")).toBeUndefined();
  });

  it("merges overlapping and touching ranges across or, in key order", () => {
    expect(ranges("PartitionKey eq 'c' or PartitionKey eq 'a' or PartitionKey eq 'b'")).toEqual([
      rows("a"),
      rows("b"),
      rows("c"),
    ]);
    expect(
      ranges("PartitionKey ge 'a' and PartitionKey lt 'b' or PartitionKey ge 'b' and PartitionKey lt 'c'"),
    ).toEqual([partitions({ lower: incl("a"), upper: excl("c") })]);
    expect(
      ranges("PartitionKey gt 'a' and PartitionKey lt 'b' or PartitionKey eq 'a' or PartitionKey eq 'b'"),
    ).toEqual([partitions({ lower: incl("a"), upper: incl("b") })]);
    expect(ranges("PartitionKey lt 'm' or PartitionKey gt 'm'")).toEqual([
      partitions({ upper: excl("m") }),
      partitions({ lower: excl("m") }),
    ]);
    expect(ranges("PartitionKey lt 'm' or PartitionKey ge 'm'")).toBeUndefined();
    expect(ranges("PartitionKey eq 'p' and (RowKey lt 'b' or RowKey ge 'b')")).toEqual([rows("p")]);
  });

  it("absorbs rows ranges inside partitions ranges and orders rows around partition bounds", () => {
    expect(
      ranges("PartitionKey ge 'a' and PartitionKey le 'c' or PartitionKey eq 'b' and RowKey eq 'r'"),
    ).toEqual([partitions({ lower: incl("a"), upper: incl("c") })]);
    expect(
      ranges(
        "PartitionKey eq 'c' and RowKey gt 'x' or PartitionKey gt 'c' or PartitionKey eq 'a' and RowKey lt 'b'",
      ),
    ).toEqual([
      rows("a", { upper: excl("b") }),
      rows("c", { lower: excl("x") }),
      partitions({ lower: excl("c") }),
    ]);
    expect(ranges("PartitionKey lt 'c' or PartitionKey eq 'c' and RowKey eq 'r'")).toEqual([
      partitions({ upper: excl("c") }),
      rows("c", { lower: incl("r"), upper: incl("r") }),
    ]);
  });

  it("stays correct, if coarser, when the normal form would explode", () => {
    // Each clause is a union of four boxes: the product has 4^6 terms, past the cap of 64.
    const clauses = Array.from(
      { length: 6 },
      (_, i) =>
        `(PartitionKey lt 'p${i}' or PartitionKey gt 'q${i}' or RowKey lt 'r${i}' or RowKey gt 's${i}')`,
    );
    const node = parseFilter(`PartitionKey ge 'k' and ${clauses.join(" and ")}`, { maxComparisons: 25 });
    const result = keyRanges(node);
    expect(result).toBeDefined();
    const keys = ["", "a", "k", "p0", "p3", "p5z", "q", "q4", "r", "z"];
    let matched = 0;
    for (const pk of keys) {
      for (const rk of keys) {
        const e = { partitionKey: pk, rowKey: rk, properties: new Map() };
        if (!evaluateFilter(node, e)) continue;
        matched++;
        expect(covered(result, pk, rk, compareUtf16), `${pk}/${rk}`).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(10);
    expect(covered(result, "a", "z", compareUtf16)).toBe(false);
  });

  it("orders by UTF-8 when asked, widening bounds whose order differs from UTF-16", () => {
    // In UTF-16 '😀' < '\ue000'; in UTF-8 the reverse. Filters compare by UTF-16 either way.
    expect(ranges("PartitionKey lt '\ue000'", compareUtf8)).toBeUndefined();
    expect(ranges("PartitionKey lt 'b'", compareUtf8)).toEqual([partitions({ upper: excl("b") })]);
    expect(ranges("PartitionKey eq '😀' or PartitionKey eq '\ue000'", compareUtf8)).toEqual([
      rows("\ue000"),
      rows("😀"),
    ]);
    expect(ranges("PartitionKey eq '😀' or PartitionKey eq '\ue000'")).toEqual([rows("😀"), rows("\ue000")]);
    expect(ranges("PartitionKey ne '😀'", compareUtf8)).toEqual([
      partitions({ upper: excl("😀") }),
      partitions({ lower: excl("😀") }),
    ]);
  });

  it("works on builder nodes", () => {
    expect(keyRanges(where.and(where.eq("PartitionKey", "p"), where.ge("RowKey", "k")))).toEqual([
      rows("p", { lower: incl("k") }),
    ]);
  });
});

describe("keyRangeContains", () => {
  it("tests membership of partitions and rows ranges", () => {
    expect(keyRangeContains(partitions({ lower: excl("a") }), "b", "x")).toBe(true);
    expect(keyRangeContains(partitions({ lower: excl("a") }), "a", "x")).toBe(false);
    expect(keyRangeContains(rows("p", { upper: incl("m") }), "p", "m")).toBe(true);
    expect(keyRangeContains(rows("p", { upper: incl("m") }), "p", "n")).toBe(false);
    expect(keyRangeContains(rows("p"), "q", "")).toBe(false);
  });
});

function covered(
  result: KeyRange[] | undefined,
  pk: string,
  rk: string,
  order: typeof compareUtf16,
): boolean {
  return result === undefined || result.some((r) => keyRangeContains(r, pk, rk, order));
}

/** Every (pk, rk) over a small alphabet, sorted in `order`: probes for coverage, disjointness and order. */
function probes(order: typeof compareUtf16): [string, string][] {
  const keys = ["", "a", "aa", "ab", "b", "ba", "c", "\ue000", "😀", "a\ue000", "a😀"];
  const pairs = keys.flatMap((pk) => keys.map((rk) => [pk, rk] as [string, string]));
  return pairs.sort((x, y) => order(x[0], y[0]) || order(x[1], y[1]));
}

describe("keyRanges: properties", () => {
  for (const [name, order] of [
    ["UTF-16", compareUtf16],
    ["UTF-8", compareUtf8],
  ] as const) {
    it(`${name}: every entity the filter accepts lies in a range`, () => {
      fc.assert(
        fc.property(smallFilter, fc.array(smallEntity, { maxLength: 20 }), (node: FilterNode, entities) => {
          const result = keyRanges(node, order);
          for (const e of entities.map(toFilterable)) {
            if (evaluateFilter(node, e)) expect(covered(result, e.partitionKey, e.rowKey, order)).toBe(true);
          }
        }),
        { numRuns: 400 },
      );
    });

    it(`${name}: ranges are non-empty, disjoint and sorted`, () => {
      const points = probes(order);
      fc.assert(
        fc.property(smallFilter, (node: FilterNode) => {
          const result = keyRanges(node, order);
          if (result === undefined) return;
          // Index of the first and last probe each range holds; probes are in key order.
          let previousLast = -1;
          const claimed = new Set<number>();
          for (const r of result) {
            const held = points.flatMap(([pk, rk], i) => (keyRangeContains(r, pk, rk, order) ? [i] : []));
            for (const i of held) {
              expect(claimed.has(i)).toBe(false);
              claimed.add(i);
            }
            if (held.length > 0) {
              expect(held[0]!).toBeGreaterThan(previousLast);
              previousLast = held.at(-1)!;
            }
          }
        }),
        { numRuns: 400 },
      );
    });
  }
});

describe("keyRanges: boolean constants", () => {
  it("true reads the whole table, false reads nothing; folded constants leave the rest's ranges", () => {
    expect(ranges("true")).toBeUndefined();
    expect(ranges("false")).toEqual([]);
    expect(ranges("true and PartitionKey eq 'a'")).toEqual([rows("a")]);
    expect(ranges("false and PartitionKey eq 'a'")).toEqual([]);
  });
});
