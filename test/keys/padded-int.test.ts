import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { paddedBigInt, paddedInt } from "../../src/keys/index.js";
import { cmp, errorCode as code, RUNS, sign } from "./arbitraries.js";

describe("paddedInt (seeds 000, 003)", () => {
  it("sorts 1..12 numerically once padded (seed 000)", () => {
    const codec = paddedInt({ max: 99 });
    const keys = Array.from({ length: 12 }, (_, i) => codec.encode(i + 1));
    expect(keys).toEqual(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"]);
    expect([...keys].sort()).toEqual(keys);
    expect(Array.from({ length: 12 }, (_, i) => String(i + 1)).sort()).toEqual([
      "1",
      "10",
      "11",
      "12",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
    ]);
  });

  it('writes seed 003\'s ToString("0000000000") and (int.MaxValue - id)', () => {
    expect(paddedInt({ max: 2147483647 }).encode(7)).toBe("0000000007");
    const newestFirst = paddedInt({ max: 2147483647, descending: true });
    expect(newestFirst.encode(1)).toBe("2147483646");
    expect(newestFirst.encode(2) < newestFirst.encode(1)).toBe(true);
    expect(newestFirst.decode("2147483646")).toBe(1);
    expect(paddedInt({ max: 99, width: 10 }).encode(42)).toBe("0000000042");
  });

  it("takes values at the limits and rejects one past them", () => {
    const codec = paddedInt({ max: 999999 });
    expect(codec.width).toBe(6);
    expect(codec.encode(999999)).toBe("999999");
    expect(code(() => codec.encode(1_000_000))).toBe("OutOfRangeInput");
    expect(codec.encode(0)).toBe("000000");
    expect(codec.encode(-0)).toBe("000000");
    expect(code(() => codec.encode(-1))).toBe("OutOfRangeInput");
    expect(code(() => codec.encode(1.5))).toBe("InvalidInput");
    expect(code(() => codec.encode(Number.NaN))).toBe("InvalidInput");
    expect(code(() => codec.encode(Number.POSITIVE_INFINITY))).toBe("InvalidInput");
    expect(code(() => codec.encode("5" as unknown as number))).toBe("InvalidInput");
    const safe = paddedInt({ max: Number.MAX_SAFE_INTEGER });
    expect(safe.encode(Number.MAX_SAFE_INTEGER)).toBe("9007199254740991");
    expect(code(() => paddedInt({ max: Number.MAX_SAFE_INTEGER + 1 }))).toBe("InvalidInput");
    expect(code(() => paddedInt({ max: -1 }))).toBe("InvalidInput");
    expect(code(() => paddedInt({ max: 99, width: 1 }))).toBe("InvalidInput");
    expect(paddedInt({ max: 99, width: 1000 }).width).toBe(1000);
    expect(code(() => paddedInt({ max: 99, width: 1001 }))).toBe("InvalidInput");
  });

  it("decodes only the keys it writes", () => {
    const codec = paddedInt({ max: 500 });
    expect(codec.decode("500")).toBe(500);
    for (const bad of ["501", "50", "0500", "5a0", "-10", "", " 50"]) {
      expect(code(() => codec.decode(bad))).toBe("InvalidInput");
    }
  });

  it("round-trips and keeps numeric order, ascending and descending", () => {
    const cases = fc
      .integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
      .chain((max) =>
        fc.tuple(
          fc.constant(max),
          fc.integer({ min: 0, max }),
          fc.integer({ min: 0, max }),
          fc.boolean(),
          fc.integer({ min: 0, max: 4 }),
        ),
      );
    fc.assert(
      fc.property(cases, ([max, a, b, descending, extraWidth]) => {
        const codec = paddedInt({ max, descending, width: String(max).length + extraWidth });
        const ka = codec.encode(a);
        const kb = codec.encode(b);
        expect(codec.decode(ka)).toBe(a);
        expect(ka.length).toBe(codec.width);
        expect(cmp(ka, kb)).toBe(descending ? sign(b - a) : sign(a - b));
      }),
      RUNS,
    );
  });
});

describe("paddedBigInt", () => {
  it("takes values at the limits and rejects one past them", () => {
    const max = 2n ** 64n - 1n;
    const codec = paddedBigInt({ max });
    expect(codec.width).toBe(20);
    expect(codec.encode(max)).toBe("18446744073709551615");
    expect(code(() => codec.encode(max + 1n))).toBe("OutOfRangeInput");
    expect(codec.encode(0n)).toBe("00000000000000000000");
    expect(code(() => codec.encode(-1n))).toBe("OutOfRangeInput");
    expect(code(() => codec.encode(5 as unknown as bigint))).toBe("InvalidInput");
    expect(code(() => codec.decode("18446744073709551616"))).toBe("InvalidInput");
    expect(code(() => paddedBigInt({ max: -1n }))).toBe("InvalidInput");
    expect(paddedBigInt({ max, descending: true }).encode(0n)).toBe("18446744073709551615");
  });

  it("round-trips and keeps numeric order, ascending and descending", () => {
    const cases = fc
      .bigInt({ min: 0n, max: 2n ** 100n })
      .chain((max) =>
        fc.tuple(fc.constant(max), fc.bigInt({ min: 0n, max }), fc.bigInt({ min: 0n, max }), fc.boolean()),
      );
    fc.assert(
      fc.property(cases, ([max, a, b, descending]) => {
        const codec = paddedBigInt({ max, descending });
        const ka = codec.encode(a);
        const kb = codec.encode(b);
        expect(codec.decode(ka)).toBe(a);
        expect(cmp(ka, kb)).toBe(descending ? sign(b - a) : sign(a - b));
      }),
      RUNS,
    );
  });
});
