import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a32, hashBuckets } from "../../src/keys/index.js";
import { cmp, errorCode, RUNS } from "./arbitraries.js";

describe("fnv1a32", () => {
  it("matches the reference test vectors over UTF-8 bytes", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });

  it("hashes exactly the bytes TextEncoder writes", () => {
    const reference = (s: string) => {
      let h = 0x811c9dc5;
      for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193);
      return h >>> 0;
    };
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 8 }),
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) }),
        (a, b) => {
          expect(fnv1a32(a)).toBe(reference(a));
          expect(fnv1a32(b)).toBe(reference(b));
        },
      ),
      RUNS,
    );
  });
});

describe("hashBuckets (seed 001's prepend/append anti-pattern)", () => {
  const spread = hashBuckets({ buckets: 16 });

  it("prefixes a stable, zero-padded bucket and lists every bucket to fan out to", () => {
    expect(spread.encode("2014-07-31T18")).toBe("08_2014-07-31T18");
    expect(spread.bucketOf("2014-07-31T18")).toBe(0x70ff0b68 % 16);
    expect(fnv1a32("2014-07-31T18")).toBe(0x70ff0b68);
    expect(spread.decode("08_2014-07-31T18")).toBe("2014-07-31T18");
    expect(spread.split("08_x")).toEqual({ bucket: 8, key: "x" });
    expect(spread.prefixes()).toEqual(Array.from({ length: 16 }, (_, i) => `${String(i).padStart(2, "0")}_`));
    expect(spread.fanOut("2014-07-31T18")).toHaveLength(16);
    expect(spread.fanOut("2014-07-31T18")).toContain(spread.encode("2014-07-31T18"));
    expect(spread.encode("2014-07-31T18", "employee-42")).toBe(
      `${spread.prefix(spread.bucketOf("employee-42"))}2014-07-31T18`,
    );
  });

  it("spreads keys over every bucket", () => {
    const counts = new Array(16).fill(0);
    for (let i = 0; i < 16_000; i++) counts[spread.bucketOf(`employee-${i}`)]++;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1200);
  });

  it("takes 1 to 10000 buckets and rejects 0 and 10001", () => {
    expect(hashBuckets({ buckets: 1 }).encode("k")).toBe("0_k");
    expect(hashBuckets({ buckets: 10 }).prefixes().at(-1)).toBe("9_");
    expect(hashBuckets({ buckets: 11 }).prefixes().at(-1)).toBe("10_");
    const most = hashBuckets({ buckets: 10_000 });
    expect(most.prefixes()).toHaveLength(10_000);
    expect(most.prefix(9999)).toBe("9999_");
    expect(errorCode(() => most.prefix(10_000))).toBe("InvalidInput");
    expect(errorCode(() => hashBuckets({ buckets: 10_001 }))).toBe("InvalidInput");
    expect(errorCode(() => hashBuckets({ buckets: 0 }))).toBe("InvalidInput");
    expect(errorCode(() => hashBuckets({ buckets: 2.5 }))).toBe("InvalidInput");
    expect(errorCode(() => spread.encode("a#b"))).toBe("OutOfRangeInput");
    for (const bad of ["16_x", "8_x", "08x", "0a_x", "", "08_a/b"])
      expect(
        errorCode(() => spread.decode(bad)),
        bad,
      ).not.toBe("no error");
  });

  it("round-trips and keeps the order of keys within a bucket", () => {
    const key = fc.string({ unit: fc.constantFrom("a", "b", "0", "_", "-", " ", "é", "😀"), maxLength: 6 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), key, key, (buckets, a, b) => {
        const codec = hashBuckets({ buckets });
        const ka = codec.encode(a);
        expect(codec.decode(ka)).toBe(a);
        expect(codec.split(ka).bucket).toBe(fnv1a32(a) % buckets);
        const kb = codec.encode(b, a); // same bucket as a
        expect(cmp(ka, kb)).toBe(cmp(a, b));
      }),
      RUNS,
    );
  });
});
