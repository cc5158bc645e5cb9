import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { int64, signedInt } from "../../src/keys/index.js";
import { cmp, errorCode, RUNS, sign } from "./arbitraries.js";

describe("signedInt", () => {
  const codec = signedInt();

  it("writes negatives as '-' and a ten's complement, non-negatives as '0' and digits", () => {
    expect(codec.encode(42)).toBe("00000000000000042");
    expect(codec.encode(0)).toBe("00000000000000000");
    expect(codec.encode(-1)).toBe("-9999999999999999");
    expect(codec.encode(-42)).toBe("-9999999999999958");
    expect(codec.encode(Number.MIN_SAFE_INTEGER)).toBe("-0992800745259009");
    expect(codec.encode(Number.MAX_SAFE_INTEGER)).toBe("09007199254740991");
    const sorted = [-100, -11, -10, -2, -1, 0, 1, 2, 10, 11, 100].map((n) => codec.encode(n));
    expect([...sorted].sort()).toEqual(sorted);
  });

  it("writes -0 as 0 and rejects non-integers, ±Infinity and values past ±MAX_SAFE_INTEGER", () => {
    expect(codec.encode(-0)).toBe(codec.encode(0));
    expect(Object.is(codec.decode(codec.encode(-0)), 0)).toBe(true);
    expect(errorCode(() => codec.encode(Number.MAX_SAFE_INTEGER + 1))).toBe("OutOfRangeInput");
    expect(errorCode(() => codec.encode(Number.MIN_SAFE_INTEGER - 1))).toBe("OutOfRangeInput");
    expect(errorCode(() => codec.encode(Number.POSITIVE_INFINITY))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode(Number.NEGATIVE_INFINITY))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode(Number.NaN))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode(0.5))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode(1n as unknown as number))).toBe("InvalidInput");
  });

  it("decodes only the keys it writes", () => {
    expect(codec.decode("-0992800745259009")).toBe(Number.MIN_SAFE_INTEGER);
    for (const bad of [
      "-0992800745259008",
      "09007199254740992",
      "+0000000000000001",
      "0000000000000001",
      "x",
    ]) {
      expect(errorCode(() => codec.decode(bad))).toBe("InvalidInput");
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[-0][0-9]{16}$/), (key) => {
        let value: number;
        try {
          value = codec.decode(key);
        } catch (e) {
          expect((e as { code?: string }).code).toBe("InvalidInput");
          return;
        }
        expect(codec.encode(value)).toBe(key);
      }),
      RUNS,
    );
  });

  it("round-trips and keeps numeric order", () => {
    const value = fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 }));
    fc.assert(
      fc.property(value, value, (a, b) => {
        const ka = codec.encode(a);
        expect(codec.decode(ka)).toBe(a);
        expect(ka.length).toBe(17);
        expect(cmp(ka, codec.encode(b))).toBe(sign(a - b));
      }),
      RUNS,
    );
  });
});

describe("int64", () => {
  const codec = int64();
  const MIN = -(2n ** 63n);
  const MAX = 2n ** 63n - 1n;

  it("takes the Int64 range and rejects one past it", () => {
    expect(codec.encode(MAX)).toBe("09223372036854775807");
    expect(codec.encode(MIN)).toBe("-0776627963145224192");
    expect(codec.encode(-1n)).toBe("-9999999999999999999");
    expect(codec.encode(0n)).toBe("00000000000000000000");
    expect(errorCode(() => codec.encode(MAX + 1n))).toBe("OutOfRangeInput");
    expect(errorCode(() => codec.encode(MIN - 1n))).toBe("OutOfRangeInput");
    expect(errorCode(() => codec.encode(1 as unknown as bigint))).toBe("InvalidInput");
    expect(errorCode(() => codec.decode("09223372036854775808"))).toBe("InvalidInput");
    expect(codec.decode("-0776627963145224192")).toBe(MIN);
    expect(errorCode(() => codec.decode("-0776627963145224191"))).toBe("InvalidInput");
    expect(errorCode(() => codec.decode("-077662796314522419"))).toBe("InvalidInput");
  });

  it("round-trips and keeps numeric order", () => {
    const value = fc.oneof(
      fc.bigInt({ min: MIN, max: MAX }),
      fc.bigInt({ min: -1000n, max: 1000n }),
      fc.constantFrom(MIN, MAX),
    );
    fc.assert(
      fc.property(value, value, (a, b) => {
        const ka = codec.encode(a);
        expect(codec.decode(ka)).toBe(a);
        expect(ka.length).toBe(20);
        expect(cmp(ka, codec.encode(b))).toBe(sign(a - b));
      }),
      RUNS,
    );
  });
});
