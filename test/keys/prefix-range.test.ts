import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keysBetween, prefixRange, prefixSuccessor } from "../../src/keys/index.js";
import { compareUtf8, compareUtf16 } from "../../src/model/index.js";
import { errorCode, inInterval, RUNS, wellFormedChar, wellFormedString } from "./arbitraries.js";

describe("prefixRange (seed 001's starts-with query)", () => {
  it("turns a prefix into [p, successor(p))", () => {
    expect(prefixRange("email_a")).toEqual({ lower: "email_a", upper: "email_b" });
    expect(prefixRange("B")).toEqual({ lower: "B", upper: "C" });
    expect(prefixRange("")).toEqual({ lower: "" });
    expect(prefixRange("a\uffff")).toEqual({ lower: "a\uffff", upper: "b" });
    expect(prefixRange("\uffff\uffff")).toEqual({ lower: "\uffff\uffff" });
  });

  it("steps over the surrogates in UTF-16 order", () => {
    expect(prefixSuccessor("a\ud7ff")).toBe("a\u{10000}");
    expect(prefixSuccessor("a\u{1f600}")).toBe("a\u{1f601}");
    expect(prefixSuccessor("a\u{103ff}")).toBe("a\u{10400}"); // low surrogate DFFF: the high one carries
    expect(prefixSuccessor("a\u{10ffff}")).toBe("a\ue000");
    expect(prefixSuccessor("a\ufffe")).toBe("a\uffff");
    expect(prefixSuccessor("\u{10ffff}\uffff")).toBe("\ue000");
  });

  it("follows code points in UTF-8 order", () => {
    const utf8 = { order: "utf8" } as const;
    expect(prefixSuccessor("a\ud7ff", utf8)).toBe("a\ue000");
    expect(prefixSuccessor("a\uffff", utf8)).toBe("a\u{10000}");
    expect(prefixSuccessor("a\u{10ffff}", utf8)).toBe("b");
    expect(prefixSuccessor("\u{10ffff}", utf8)).toBeUndefined();
  });

  it("rejects ill-formed prefixes", () => {
    expect(errorCode(() => prefixRange("a\ud800"))).toBe("InvalidInput");
    expect(errorCode(() => prefixRange("\udc00a"))).toBe("InvalidInput");
    expect(errorCode(() => prefixRange(5 as unknown as string))).toBe("InvalidInput");
    expect(errorCode(() => prefixRange("a", { order: "latin1" as "utf8" }))).toBe("InvalidInput");
  });

  it("keysBetween covers first through last and what starts with last (seed 001's empid range)", () => {
    const range = keysBetween("empid_000100", "empid_000199");
    expect(range).toEqual({ lower: "empid_000100", upper: "empid_00019:" });
    for (const k of ["empid_000100", "empid_000150", "empid_000199", "empid_000199_x"]) {
      expect(inInterval(k, range, compareUtf16)).toBe(true);
    }
    for (const k of ["empid_000099", "empid_000200", "empid_0001"])
      expect(inInterval(k, range, compareUtf16)).toBe(false);
  });

  const pairs = wellFormedString.chain((p) =>
    fc.tuple(
      fc.constant(p),
      fc.oneof(
        wellFormedString.map((s) => p + s),
        wellFormedString,
        wellFormedChar.map((c) => [...p].slice(0, -1).join("") + c),
        wellFormedChar.chain((c) => wellFormedString.map((s) => [...p].slice(0, -1).join("") + c + s)),
      ),
    ),
  );

  it.each([
    ["utf16", compareUtf16],
    ["utf8", compareUtf8],
  ] as const)("holds exactly the well-formed strings that start with the prefix (%s)", (order, compare) => {
    fc.assert(
      fc.property(pairs, ([p, s]) => {
        const range = prefixRange(p, { order });
        if (range.upper !== undefined) expect(range.upper.isWellFormed()).toBe(true);
        expect(inInterval(s, range, compare)).toBe(s.startsWith(p));
      }),
      RUNS,
    );
  });
});
