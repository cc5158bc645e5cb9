import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hierarchicalKey, rangeFilter } from "../../src/keys/index.js";
import { compareUtf8, compareUtf16 } from "../../src/model/index.js";
import { anyUnit, compareTuples, errorCode, inInterval, RUNS, sign } from "./arbitraries.js";

const LEVELS = ["country", "region", "state", "county", "city", "neighborhood"] as const;

/** Short segments over a few letters, so shared prefixes and near misses (wa / wash) are common. */
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom("w", "a", "s", "h", "!", " "), maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: anyUnit, maxLength: 3 }) },
);
const path = fc.array(segment, { minLength: 0, maxLength: 6 });
const nonEmptyPath = fc.array(segment, { minLength: 1, maxLength: 6 });
const startsWithPath = (p: readonly string[], prefix: readonly string[]) =>
  p.length >= prefix.length && compareTuples(p.slice(0, prefix.length), prefix, compareUtf16) === 0;

describe("hierarchicalKey (seed 004)", () => {
  const places = hierarchicalKey({ levels: LEVELS });

  it("writes each segment terminated by '!' where the seed writes '#'", () => {
    expect(places.encode(["us", "wa", "king", "seattle", "seattle", "ballard"])).toBe(
      "us!wa!king!seattle!seattle!ballard!",
    );
    expect(places.encode(["us"])).toBe("us!");
    expect(places.encode(["us", "new york"])).toBe("us!new$20york!");
    expect(places.encode(["us", "a#b"])).toBe("us!a$23b!");
    expect(places.decode("us!wa!king!")).toEqual(["us", "wa", "king"]);
    expect(places.toObject("us!wa!")).toEqual({ country: "us", region: "wa" });
    expect(places.pathOf({ country: "us", region: "wa", state: "king" })).toEqual(["us", "wa", "king"]);
  });

  it("never lets us#wa match us#washington", () => {
    const wa = places.subtreeRange(["us", "wa"]);
    expect(wa).toEqual({ lower: "us!wa!", upper: 'us!wa"' });
    const inside = ["us!wa!", "us!wa!king!", "us!wa!king!seattle!ballard!"];
    const outside = [
      places.encode(["us", "washington"]),
      places.encode(["us", "wa "]),
      places.encode(["us", "w"]),
      places.encode(["us"]),
    ];
    for (const k of inside) expect(inInterval(k, wa, compareUtf16)).toBe(true);
    for (const k of outside) expect(inInterval(k, wa, compareUtf16)).toBe(false);
    expect(rangeFilter("RowKey", wa)).toBe(`RowKey ge 'us!wa!' and RowKey lt 'us!wa"'`);
    expect(places.subtreeRange(["us", "wa"], { includeSelf: false })).toEqual({
      lower: "us!wa!!",
      upper: 'us!wa"',
    });
    expect(places.subtreeRange([])).toEqual({ lower: "" });
  });

  it("takes paths of 1 to 6 levels and rejects 0 and 7", () => {
    expect(places.encode(["a", "b", "c", "d", "e", "f"])).toBe("a!b!c!d!e!f!");
    expect(errorCode(() => places.encode(["a", "b", "c", "d", "e", "f", "g"]))).toBe("InvalidInput");
    expect(errorCode(() => places.encode([]))).toBe("InvalidInput");
    expect(errorCode(() => places.decode("a!b!c!d!e!f!g!"))).toBe("InvalidInput");
    expect(errorCode(() => places.subtreeRange(["a", "b", "c", "d", "e", "f", "g"]))).toBe("InvalidInput");
    expect(errorCode(() => places.startsWithRange(["a", "b", "c", "d", "e", "f"], "x"))).toBe("InvalidInput");
    expect(errorCode(() => places.pathOf({ country: "us", state: "wa" }))).toBe("InvalidInput");
    expect(errorCode(() => places.pathOf({ country: "us", planet: "earth" } as never))).toBe("InvalidInput");
    expect(errorCode(() => hierarchicalKey({ levels: [] }))).toBe("InvalidInput");
    expect(errorCode(() => hierarchicalKey({ levels: ["a", "a"] }))).toBe("InvalidInput");
    expect(errorCode(() => places.betweenRange(["us", "wy"], ["us", "wa"]))).toBe("InvalidInput");
  });

  it("round-trips and orders paths component-wise, by UTF-16 and UTF-8", () => {
    fc.assert(
      fc.property(nonEmptyPath, nonEmptyPath, (a, b) => {
        const ka = places.encode(a);
        const kb = places.encode(b);
        expect(places.decode(ka)).toEqual(a);
        const expected = compareTuples(a, b, compareUtf16);
        expect(sign(compareUtf16(ka, kb))).toBe(expected);
        expect(sign(compareUtf8(ka, kb))).toBe(expected);
      }),
      RUNS,
    );
  });

  it("subtreeRange at any level holds exactly the path and its descendants", () => {
    fc.assert(
      fc.property(path, nonEmptyPath, fc.boolean(), (prefix, p, includeSelf) => {
        const range = places.subtreeRange(prefix, { includeSelf });
        const expected = startsWithPath(p, prefix) && (includeSelf || p.length > prefix.length);
        expect(inInterval(places.encode(p), range, compareUtf16)).toBe(expected);
        expect(inInterval(places.encode(p), range, compareUtf8)).toBe(expected);
      }),
      RUNS,
    );
  });

  it("startsWithRange holds the children whose next segment starts with the text", () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), segment, nonEmptyPath, (parent, partial, p) => {
        const range = places.startsWithRange(parent, partial);
        const expected =
          startsWithPath(p, parent) && p.length > parent.length && p[parent.length]!.startsWith(partial);
        expect(inInterval(places.encode(p), range, compareUtf16)).toBe(expected);
      }),
      RUNS,
    );
  });

  it("betweenRange holds from `from` through `to` and its subtree (or up to `to`)", () => {
    fc.assert(
      fc.property(path, path, nonEmptyPath, fc.boolean(), (x, y, p, includeTo) => {
        const [from, to] = compareTuples(x, y, compareUtf16) <= 0 ? [x, y] : [y, x];
        const range = places.betweenRange(from, to, { includeTo });
        const afterFrom = compareTuples(from, p, compareUtf16) <= 0;
        const beforeTo = includeTo
          ? compareTuples(p, to, compareUtf16) <= 0 || startsWithPath(p, to)
          : compareTuples(p, to, compareUtf16) < 0 && !startsWithPath(p, to);
        expect(inInterval(places.encode(p), range, compareUtf16)).toBe(afterFrom && beforeTo);
      }),
      RUNS,
    );
  });
});
