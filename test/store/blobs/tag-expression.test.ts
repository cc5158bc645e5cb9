import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkTags, tagsFromPairs } from "../../../src/store/blobs/blob-tags.js";
import {
  evaluateTagCondition,
  MAX_CONDITION_COMPARISONS,
  MAX_TAG_COMPARISONS,
  MAX_TAG_EXPRESSION_LENGTH,
  matchesTagQuery,
  parseTagConditions,
  parseTagQuery,
} from "../../../src/store/blobs/tag-expression.js";

const TAG_CHARS = "abcXYZ019 +-./:=_";
const tagText = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...TAG_CHARS), minLength: min, maxLength: max });
const OPS = ["=", ">", ">=", "<", "<="] as const;

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe("Find Blobs by Tags expressions", () => {
  it("parses comparisons joined by AND, with @container, keys quoted or bare", () => {
    const q = parseTagQuery(`"Project" = 'Contoso' AND date >= '2020-04-20' and @container='reports'`);
    expect(q.container).toBe("reports");
    expect(q.comparisons).toEqual([
      { key: "Project", op: "=", value: "Contoso" },
      { key: "date", op: ">=", value: "2020-04-20" },
    ]);
    expect(parseTagQuery(`"a b/c" < 'x y'`).comparisons).toEqual([{ key: "a b/c", op: "<", value: "x y" }]);
  });

  it("refuses what the grammar does not have, saying where", () => {
    const bad: [string, number][] = [
      [`"a" = 'b' OR "c" = 'd'`, 10],
      [`"a" <> 'b'`, 4],
      [`"a" = 'b`, 6],
      [`"a = 'b'`, 0],
      [`"a" 'b'`, 4],
      [`"a" = b`, 6],
      [`("a" = 'b')`, 0],
      [`"a" = 'b' AND`, 13],
      [`@container = 'x'`, 16],
      [`@container >= 'x' AND "a" = 'b'`, 11],
      [`@other = 'x'`, 0],
      [`"a" = 'b' @container = 'x'`, 10],
      [`"" = 'b'`, 0],
      [`"a" = 'b' & "c" = 'd'`, 10],
    ];
    for (const [text, position] of bad) {
      try {
        parseTagQuery(text);
        expect.unreachable(text);
      } catch (err) {
        const e = err as { code: string; position?: number; message: string };
        expect(e.code, text).toBe("InvalidQueryParameterValue");
        expect(e.position, `${text}: ${e.message}`).toBe(position);
      }
    }
  });

  it("bounds its input: length and comparisons, each crossed by one", () => {
    const padded = (n: number) => `"a" = '${"v".repeat(n - 8)}'`;
    expect(padded(MAX_TAG_EXPRESSION_LENGTH)).toHaveLength(MAX_TAG_EXPRESSION_LENGTH);
    expect(codeOf(() => parseTagConditions(padded(MAX_TAG_EXPRESSION_LENGTH)))).toBeUndefined();
    expect(codeOf(() => parseTagConditions(padded(MAX_TAG_EXPRESSION_LENGTH + 1)))).toBe(
      "InvalidHeaderValue",
    );
    expect(codeOf(() => parseTagQuery(padded(MAX_TAG_EXPRESSION_LENGTH + 1)))).toBe(
      "InvalidQueryParameterValue",
    );
    const many = (n: number) => Array.from({ length: n }, (_, i) => `"k${i % 10}" >= 'v'`).join(" AND ");
    expect(parseTagQuery(many(MAX_TAG_COMPARISONS)).comparisons).toHaveLength(MAX_TAG_COMPARISONS);
    expect(codeOf(() => parseTagQuery(many(MAX_TAG_COMPARISONS + 1)))).toBe("InvalidQueryParameterValue");
    const deep = (n: number) => `${"(".repeat(n)}"a" = 'b'${")".repeat(n)}`;
    expect(codeOf(() => parseTagConditions(deep(16)))).toBeUndefined();
    expect(codeOf(() => parseTagConditions(deep(17)))).toBe("InvalidHeaderValue");
    const keys = (n: number) =>
      Array.from({ length: n }, (_, i) => `"k${i}" >= 'v' AND "k${i}" < 'w'`).join(" AND ");
    expect(parseTagQuery(keys(10)).comparisons).toHaveLength(20);
    expect(codeOf(() => parseTagQuery(keys(11)))).toBe("InvalidQueryParameterValue");
    const conditions = (n: number) => Array.from({ length: n }, (_, i) => `t<>'${i}'`).join(" and ");
    expect(codeOf(() => parseTagConditions(conditions(MAX_CONDITION_COMPARISONS)))).toBeUndefined();
    expect(codeOf(() => parseTagConditions(conditions(MAX_CONDITION_COMPARISONS + 1)))).toBe(
      "InvalidHeaderValue",
    );
  });

  it("checks a query's keys and values as tags are checked; a condition's only for their characters", () => {
    const key = (n: number) => `"${"k".repeat(n)}" = 'v'`;
    expect(codeOf(() => parseTagQuery(key(128)))).toBeUndefined();
    expect(codeOf(() => parseTagQuery(key(129)))).toBe("InvalidQueryParameterValue");
    expect(codeOf(() => parseTagQuery(`k${"1".repeat(140)} = 'v'`))).toBe("InvalidQueryParameterValue");
    const value = (n: number) => `"k" = '${"v".repeat(n)}'`;
    expect(codeOf(() => parseTagQuery(value(256)))).toBeUndefined();
    expect(codeOf(() => parseTagQuery(value(257)))).toBe("InvalidQueryParameterValue");
    expect(codeOf(() => parseTagQuery(`"k" = 'v @'`))).toBe("InvalidQueryParameterValue");
    expect(codeOf(() => parseTagQuery(`"k#" = 'v'`))).toBe("InvalidQueryParameterValue");
    expect(codeOf(() => parseTagQuery(`" key 1 +-.:=_/" = 'value +-.:=_/'`))).toBeUndefined();
    // A condition on a key or value longer than any tag is no error: it is simply not met.
    const long = parseTagConditions(`k${"1".repeat(140)} <> 'v'`).condition;
    expect(evaluateTagCondition(long, { k: "v" })).toBe(false);
    expect(codeOf(() => parseTagConditions(`"k" = 'value$$##'`))).toBe("InvalidHeaderValue");
    expect(codeOf(() => parseTagConditions(`key+1 = 'v'`))).toBe("InvalidHeaderValue");
    try {
      parseTagQuery(`"a" <> 'b'`);
    } catch (err) {
      expect((err as Error).message).toMatch(/^Error parsing query at or near character position 4: /);
    }
    try {
      parseTagConditions(`"a" == 'b'`);
    } catch (err) {
      expect((err as Error).message).toMatch(
        /^The value for one of the HTTP headers is not in the correct format\./,
      );
    }
  });

  it("property: a printed query parses back to itself and matches exactly the tags that meet every comparison", () => {
    const comparison = fc.record({ key: tagText(1, 12), op: fc.constantFrom(...OPS), value: tagText(0, 8) });
    fc.assert(
      fc.property(
        fc.array(comparison, { minLength: 1, maxLength: 6 }),
        fc.dictionary(tagText(1, 12), tagText(0, 8), { maxKeys: 10 }),
        (comparisons, tags) => {
          const text = comparisons.map((c) => `"${c.key}" ${c.op} '${c.value}'`).join(" AND ");
          const query = parseTagQuery(text);
          expect(query.comparisons).toEqual(comparisons);
          const expected = comparisons.every((c) => {
            if (!Object.hasOwn(tags, c.key)) return false;
            const v = tags[c.key]!;
            return c.op === "="
              ? v === c.value
              : c.op === ">"
                ? v > c.value
                : c.op === ">="
                  ? v >= c.value
                  : c.op === "<"
                    ? v < c.value
                    : v <= c.value;
          });
          expect(matchesTagQuery(query, tags)).toBe(expected);
        },
      ),
    );
  });

  it("property: any string either parses or fails with InvalidQueryParameterValue, never anything else", () => {
    const pieces = fc.constantFrom(
      `"`,
      `'`,
      "a",
      " ",
      "=",
      "<",
      ">",
      "AND",
      "OR",
      "(",
      ")",
      "@container",
      "\u00e9",
      "\\",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const code = codeOf(() => parseTagQuery(parts.join("")));
        expect([undefined, "InvalidQueryParameterValue"]).toContain(code);
        const condition = codeOf(() => parseTagConditions(parts.join("")));
        expect([undefined, "InvalidHeaderValue"]).toContain(condition);
      }),
    );
  });
});

describe("x-ms-if-tags expressions", () => {
  it("have OR, <> and parentheses, AND binding tighter than OR", () => {
    const c = parseTagConditions(`"a" = '1' OR "b" = '2' AND "c" <> '3'`).condition;
    expect(evaluateTagCondition(c, { a: "1" })).toBe(true);
    expect(evaluateTagCondition(c, { b: "2", c: "4" })).toBe(true);
    expect(evaluateTagCondition(c, { b: "2", c: "3" })).toBe(false);
    const grouped = parseTagConditions(`("a" = '1' OR "b" = '2') AND "c" <> '3'`).condition;
    expect(evaluateTagCondition(grouped, { a: "1", c: "3" })).toBe(false);
    // A comparison on a key the blob lacks is false, `<>` included.
    expect(evaluateTagCondition(parseTagConditions(`"z" <> 'x'`).condition, {})).toBe(false);
    expect(codeOf(() => parseTagConditions(`@container = 'x'`))).toBe("InvalidHeaderValue");
    expect(codeOf(() => parseTagConditions(`("a" = '1'`))).toBe("InvalidHeaderValue");
  });
});

describe("tag rules", () => {
  it("each limit crossed by one", () => {
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, ""]));
    expect(Object.keys(checkTags(ten))).toHaveLength(10);
    expect(codeOf(() => checkTags({ ...ten, k10: "" }))).toBe("TagsTooLarge");
    expect(codeOf(() => checkTags({ ["k".repeat(128)]: "v".repeat(256) }))).toBeUndefined();
    expect(codeOf(() => checkTags({ ["k".repeat(129)]: "v" }))).toBe("InvalidTag");
    expect(codeOf(() => checkTags({ k: "v".repeat(257) }))).toBe("InvalidTag");
    expect(codeOf(() => checkTags({ "": "v" }))).toBe("InvalidTag");
    for (const ch of ["!", "#", "\u00e9", "'", '"', "&", "\n"]) {
      expect(
        codeOf(() => checkTags({ [`k${ch}`]: "v" })),
        ch,
      ).toBe("InvalidTag");
      expect(
        codeOf(() => checkTags({ k: `v${ch}` })),
        ch,
      ).toBe("InvalidTag");
    }
    expect(codeOf(() => checkTags({ k: 1 as unknown as string }))).toBe("InvalidTag");
    expect(
      codeOf(() =>
        tagsFromPairs([
          ["a", "1"],
          ["a", "2"],
        ]),
      ),
    ).toBe("InvalidTag");
  });
});
