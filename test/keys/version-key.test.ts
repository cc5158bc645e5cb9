import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { versionKey } from "../../src/keys/index.js";
import { compareUtf16 } from "../../src/model/index.js";
import { cmp, errorCode, inInterval, RUNS, sign } from "./arbitraries.js";

/** Items as a seed would write them: ids, part numbers, a few safe punctuation marks. */
const item = fc.string({
  unit: fc.constantFrom("A", "u", "d", "i", "t", "_", "-", "0", "9", ".", " ", "é"),
  maxLength: 6,
});

describe("versionKey (seed 004)", () => {
  const versions = versionKey();

  it("writes v0_ for the latest copy and padded history so 10 sorts after 9", () => {
    expect(versions.latest("Audit")).toBe("v0_Audit");
    expect(versions.encode({ version: 0, item: "Audit" })).toBe("v0_Audit");
    expect(versions.encode({ version: 1, item: "Audit" })).toBe("v000001_Audit");
    expect(
      versions.encode({ version: 9, item: "Audit" }) < versions.encode({ version: 10, item: "Audit" }),
    ).toBe(true);
    expect("v9_Audit" < "v10_Audit").toBe(false); // the bug padding prevents
    expect(versions.decode("v000010_Audit")).toEqual({ version: 10, item: "Audit" });
    expect(versions.decode("v0_Audit")).toEqual({ version: 0, item: "Audit" });
    expect(versions.decode("v0_")).toEqual({ version: 0, item: "" });
    expect(versions.latestRange()).toEqual({ lower: "v0_", upper: "v0`" });
    expect(versions.historyRanges()).toEqual([
      { lower: "v000001_", upper: "v0_" },
      { lower: "v100000_", upper: "v999999`" },
    ]);
  });

  it("takes versions up to 10^digits - 1 and rejects one past", () => {
    expect(versions.encode({ version: 999999 })).toBe("v999999_");
    expect(errorCode(() => versions.encode({ version: 1_000_000 }))).toBe("OutOfRangeInput");
    expect(errorCode(() => versions.encode({ version: -1 }))).toBe("OutOfRangeInput");
    expect(errorCode(() => versions.encode({ version: 1.5 }))).toBe("InvalidInput");
    expect(errorCode(() => versions.encode({ version: 1, item: "a/b" }))).toBe("OutOfRangeInput");
    expect(errorCode(() => versions.encode({ version: 1, item: "a\u0000" }))).toBe("OutOfRangeInput");
    expect(versionKey({ digits: 2 }).encode({ version: 99 })).toBe("v99_");
    expect(versionKey({ digits: 15 }).maxVersion).toBe(999_999_999_999_999);
    expect(errorCode(() => versionKey({ digits: 1 }))).toBe("InvalidInput");
    expect(errorCode(() => versionKey({ digits: 16 }))).toBe("InvalidInput");
    for (const bad of ["v000000_x", "v00001_x", "v0000010x", "w000001_x", "v0", "v00000a_x", "v000001_a#"]) {
      expect(
        errorCode(() => versions.decode(bad)),
        bad,
      ).not.toBe("no error");
    }
  });

  const digits = fc.integer({ min: 2, max: 6 });
  const entry = (max: number) =>
    fc.record({ version: fc.oneof(fc.integer({ min: 0, max }), fc.constantFrom(0, 1, 9, 10, max)), item });

  it("round-trips and orders history by (version, item)", () => {
    fc.assert(
      fc.property(
        digits.chain((d) => fc.tuple(fc.constant(d), entry(10 ** d - 1), entry(10 ** d - 1))),
        ([d, a, b]) => {
          const codec = versionKey({ digits: d });
          const ka = codec.encode(a);
          expect(codec.decode(ka)).toEqual(a);
          if (a.version > 0 && b.version > 0) {
            const expected =
              a.version !== b.version ? sign(a.version - b.version) : compareUtf16(a.item, b.item);
            expect(cmp(ka, codec.encode(b))).toBe(expected);
          }
        },
      ),
      RUNS,
    );
  });

  it("latestRange holds exactly the v0_ copies and historyRanges exactly the history", () => {
    fc.assert(
      fc.property(
        digits.chain((d) => fc.tuple(fc.constant(d), entry(10 ** d - 1))),
        ([d, e]) => {
          const codec = versionKey({ digits: d });
          const key = codec.encode(e);
          expect(inInterval(key, codec.latestRange(), cmp)).toBe(e.version === 0);
          expect(codec.historyRanges().some((r) => inInterval(key, r, cmp))).toBe(e.version > 0);
        },
      ),
      RUNS,
    );
  });
});
