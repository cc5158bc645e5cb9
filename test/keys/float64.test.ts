import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { float64 } from "../../src/keys/index.js";
import { cmp, errorCode, RUNS } from "./arbitraries.js";

/** IEEE 754 totalOrder on numbers: -0 before +0, NaN after +Infinity (the codec's order). */
function totalOrder(a: number, b: number): -1 | 0 | 1 {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === 0 && b === 0) return Object.is(a, b) ? 0 : Object.is(a, -0) ? -1 : 1;
  return 0;
}

describe("float64", () => {
  const codec = float64();

  it("orders the special values and keeps -0 apart from +0", () => {
    const values = [
      Number.NEGATIVE_INFINITY,
      -Number.MAX_VALUE,
      -1,
      -Number.MIN_VALUE,
      -0,
      0,
      Number.MIN_VALUE,
      1,
      Number.MAX_VALUE,
      Number.POSITIVE_INFINITY,
      Number.NaN,
    ];
    const keys = values.map((x) => codec.encode(x));
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(codec.encode(-0)).toBe("7fffffffffffffff");
    expect(codec.encode(0)).toBe("8000000000000000");
    expect(codec.encode(Number.POSITIVE_INFINITY)).toBe("fff0000000000000");
    expect(codec.encode(Number.NEGATIVE_INFINITY)).toBe("000fffffffffffff");
    expect(codec.encode(Number.NaN)).toBe("fff8000000000000");
    expect(Object.is(codec.decode("7fffffffffffffff"), -0)).toBe(true);
    expect(Number.isNaN(codec.decode("fff8000000000000"))).toBe(true);
  });

  it("rejects NaN when asked to, and NaN keys it never writes", () => {
    const strict = float64({ nan: "reject" });
    expect(errorCode(() => strict.encode(Number.NaN))).toBe("InvalidInput");
    expect(errorCode(() => strict.decode("fff8000000000000"))).toBe("InvalidInput");
    expect(strict.encode(1)).toBe(codec.encode(1));
    for (const bad of [
      "fff8000000000001",
      "0007ffffffffffff",
      "FFF0000000000000",
      "fff000000000000",
      "",
      "xyz",
    ]) {
      expect(errorCode(() => codec.decode(bad))).toBe("InvalidInput");
    }
    expect(errorCode(() => codec.encode("1" as unknown as number))).toBe("InvalidInput");
    expect(errorCode(() => float64({ nan: "first" as "last" }))).toBe("InvalidInput");
  });

  it("decodes bit-exactly and orders by totalOrder", () => {
    const value = fc.oneof(
      fc.double(),
      fc.constantFrom(-0, 0, Number.NaN, Number.MIN_VALUE, -Number.MIN_VALUE),
    );
    fc.assert(
      fc.property(value, value, (a, b) => {
        const ka = codec.encode(a);
        expect(Object.is(codec.decode(ka), a)).toBe(true);
        expect(ka).toMatch(/^[0-9a-f]{16}$/);
        expect(cmp(ka, codec.encode(b))).toBe(totalOrder(a, b));
      }),
      RUNS,
    );
  });

  it("decodes every 16-hex-digit string to a value that re-encodes to it, or rejects it", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{16}$/), (key) => {
        let x: number;
        try {
          x = codec.decode(key);
        } catch (e) {
          expect((e as { code?: string }).code).toBe("InvalidInput");
          return;
        }
        expect(codec.encode(x)).toBe(key);
      }),
      RUNS,
    );
  });
});
