import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compoundKey, validateKeyEverywhere } from "../../src/keys/index.js";
import { compareUtf8, compareUtf16 } from "../../src/model/index.js";
import {
  AZURE_FORBIDDEN,
  anyString,
  anyUnit,
  compareTuples,
  errorCode,
  inInterval,
  RUNS,
  sign,
  tupleOf,
  tuplePairs,
  wellFormedChar,
  wellFormedString,
} from "./arbitraries.js";

describe("compoundKey (seed 001)", () => {
  const codec = compoundKey();

  it("writes letters, digits, - and _ as themselves and ends every component with '!'", () => {
    expect(codec.encode(["empid", "000123"])).toBe("empid!000123!");
    expect(codec.encode(["Sales", "2012"])).toBe("Sales!2012!");
    expect(codec.encode(["a b"])).toBe("a$20b!");
    expect(codec.encode(["O'Brien", "x/y#z?\\"])).toBe("O$27Brien!x.2fy$23z:3f^5c!");
    expect(codec.encode(["é", "😀", "`{~"])).toBe("{00e9!{d83d{de00!`60{007b{007e!");
    expect(compoundKey({ order: "utf8" }).encode(["😀"])).toBe("~01f600!");
    expect(codec.encode([""])).toBe("!");
    expect(codec.encode(["", ""])).toBe("!!");
  });

  it("sorts the classic traps component-wise", () => {
    const ordered = [
      [""],
      ["", ""],
      ["", "a"],
      ["a"],
      ["a", ""],
      ["a", "b"],
      ["a", "b", ""],
      ["a b"],
      ["a!"],
      ["a-"],
      ["a_"],
      ["aa"],
      ["b"],
    ];
    const keys = ordered.map((t) => codec.encode(t));
    expect([...keys].sort()).toEqual(keys);
    expect(keys.map((k) => codec.decode(k))).toEqual(ordered);
  });

  it("rejects what it cannot encode or never wrote", () => {
    expect(errorCode(() => codec.encode([]))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode("ab" as unknown as string[]))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode([1 as unknown as string]))).toBe("InvalidInput");
    expect(errorCode(() => compoundKey({ order: "utf8" }).encode(["\ud800"]))).toBe("InvalidInput");
    expect(codec.decode(codec.encode(["\ud800"]))).toEqual(["\ud800"]);
    expect(errorCode(() => compoundKey({ order: "ascii" as "utf8" }))).toBe("InvalidInput");
    for (const bad of [
      "",
      "a",
      "a!b",
      "$41!",
      "$2d!",
      "{0041!",
      "$2!",
      "{00E9!",
      "~01f600!",
      ".30!",
      "#!",
      " !",
    ]) {
      expect(
        errorCode(() => codec.decode(bad)),
        bad,
      ).toBe("InvalidInput");
    }
    expect(errorCode(() => compoundKey({ order: "utf8" }).decode("{d800!"))).toBe("InvalidInput");
    expect(errorCode(() => compoundKey({ order: "utf8" }).decode("~00ffff!"))).toBe("InvalidInput");
  });

  const modes = [
    ["utf16", anyString, anyUnit, compareUtf16],
    ["utf8", wellFormedString, wellFormedChar, compareUtf8],
  ] as const;

  describe.each(modes)("in %s component order", (order, component, unit, compareComponents) => {
    const tuples = compoundKey({ order });

    it("round-trips any tuple to a valid key on every backend", () => {
      fc.assert(
        fc.property(tupleOf(component), (t) => {
          const key = tuples.encode(t);
          expect(tuples.decode(key)).toEqual(t);
          expect(AZURE_FORBIDDEN.test(key)).toBe(false);
          expect(key).toMatch(/^[\x20-\x7e]+$/);
          if (key.length <= 512) validateKeyEverywhere("RowKey", key);
        }),
        RUNS,
      );
    });

    it("orders keys as their tuples, by UTF-16 and by UTF-8", () => {
      fc.assert(
        fc.property(tuplePairs(component, unit), ([a, b]) => {
          const expected = compareTuples(a, b, compareComponents);
          const ka = tuples.encode(a);
          const kb = tuples.encode(b);
          expect(sign(compareUtf16(ka, kb))).toBe(expected);
          expect(sign(compareUtf8(ka, kb))).toBe(expected);
        }),
        RUNS,
      );
    });

    it("prefixRange holds exactly the tuples that start with the prefix", () => {
      fc.assert(
        fc.property(tuplePairs(component, unit), fc.boolean(), ([prefix, t], partialLast) => {
          const range = tuples.prefixRange(prefix, { partialLast });
          const n = prefix.length;
          const expected = partialLast
            ? t.length >= n &&
              compareTuples(t.slice(0, n - 1), prefix.slice(0, n - 1), compareComponents) === 0 &&
              t[n - 1]!.startsWith(prefix[n - 1]!)
            : t.length >= n && compareTuples(t.slice(0, n), prefix, compareComponents) === 0;
          expect(inInterval(tuples.encode(t), range, compareUtf16)).toBe(expected);
          expect(inInterval(tuples.encode(t), range, compareUtf8)).toBe(expected);
        }),
        RUNS,
      );
    });
  });

  it("prefixRange of no components is every key", () => {
    expect(codec.prefixRange([])).toEqual({ lower: "" });
    expect(codec.prefixRange(["a", ""], { partialLast: true })).toEqual({ lower: "a!!", upper: 'a"' });
    expect(codec.prefixRange(["empid"])).toEqual({ lower: "empid!", upper: 'empid"' });
  });

  it("decodes every string over its alphabet to a tuple that re-encodes to it, or rejects it", () => {
    const alphabet = fc.constantFrom(..."!$.:^`{~-_09afAZz2ed8".split(""));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 16 }), (key) => {
        let t: string[];
        try {
          t = codec.decode(key);
        } catch (e) {
          expect((e as { code?: string }).code).toBe("InvalidInput");
          return;
        }
        expect(codec.encode(t)).toBe(key);
      }),
      RUNS,
    );
  });
});
