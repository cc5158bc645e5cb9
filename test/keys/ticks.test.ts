import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chronologicalTicks, invertedTicks } from "../../src/keys/index.js";
import { DateTime } from "../../src/model/index.js";
import { cmp, errorCode, inInterval, RUNS, sign } from "./arbitraries.js";

const MAX_TICKS = 3155378975999999999n;
const ticksArb = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX_TICKS }),
  fc.constantFrom(0n, 1n, MAX_TICKS - 1n, MAX_TICKS),
);

describe("inverted ticks (seed 002)", () => {
  const codec = invertedTicks();

  it("writes the Chronological Query Pattern's three row keys digit for digit", () => {
    expect(codec.encode(new Date("2010-05-28T00:00:00Z"))).toBe("2521272959999999999");
    expect(codec.encode(new Date("2010-05-27T00:00:00Z"))).toBe("2521273823999999999");
    expect(codec.encode(new Date("2009-04-21T00:00:00Z"))).toBe("2521620287999999999");
    expect(codec.encode(DateTime.parse("2010-05-28T00:00:00Z"))).toBe("2521272959999999999");
    const newestFirst = ["2521272959999999999", "2521273823999999999", "2521620287999999999"];
    expect([...newestFirst].sort()).toEqual(newestFirst);
    expect(codec.decode("2521273823999999999").toISOString()).toBe("2010-05-27T00:00:00.0000000Z");
  });

  it("is DateTime.MaxValue.Ticks - ticks, 19 digits, at both ends of the range", () => {
    expect(codec.encode(DateTime.MAX)).toBe("0000000000000000000");
    expect(codec.encode(DateTime.MIN)).toBe("3155378975999999999");
    expect(codec.decode("0000000000000000000").ticks).toBe(MAX_TICKS);
    expect(codec.decode("3155378975999999999").ticks).toBe(0n);
    expect(errorCode(() => codec.decode("3155378976000000000"))).toBe("InvalidInput");
  });
});

describe("chronological ticks (seed 000)", () => {
  const codec = chronologicalTicks();

  it("is {0:d19} of the ticks", () => {
    expect(codec.encode(new Date("1970-01-01T00:00:00Z"))).toBe("0621355968000000000");
    expect(codec.encode(DateTime.parse("2010-05-28T00:00:00.0000001Z"))).toBe("0634106016000000001");
    expect(codec.encode(DateTime.MIN)).toBe("0000000000000000000");
    expect(codec.encode(DateTime.MAX)).toBe("3155378975999999999");
    expect(errorCode(() => codec.decode("3155378976000000000"))).toBe("InvalidInput");
  });

  it("rejects what is not an instant in years 1-9999", () => {
    expect(errorCode(() => codec.encode(new Date(Date.UTC(10000, 0, 1))))).toBe("OutOfRangeInput");
    expect(errorCode(() => codec.encode(new Date("9999-12-31T23:59:59.999Z")))).toBe("no error");
    const yearZero = new Date(Date.UTC(2000, 0, 1));
    yearZero.setUTCFullYear(0);
    expect(errorCode(() => codec.encode(yearZero))).toBe("OutOfRangeInput");
    expect(errorCode(() => codec.encode(new Date("0001-01-01T00:00:00Z")))).toBe("no error");
    expect(errorCode(() => codec.encode(new Date(Number.NaN)))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode(1234 as unknown as Date))).toBe("InvalidInput");
    for (const bad of ["063410601600000000", "06341060160000000000", "063410601600000000x", ""]) {
      expect(errorCode(() => codec.decode(bad))).toBe("InvalidInput");
    }
  });
});

describe.each([
  ["chronologicalTicks", chronologicalTicks(), 1],
  ["invertedTicks", invertedTicks(), -1],
] as const)("%s properties", (_, codec, direction) => {
  it("round-trips to the 100 ns instant and orders by time", () => {
    fc.assert(
      fc.property(ticksArb, ticksArb, (a, b) => {
        const ka = codec.encode(DateTime.fromTicks(a));
        expect(ka).toMatch(/^[0-9]{19}$/);
        expect(codec.decode(ka).ticks).toBe(a);
        expect(cmp(ka, codec.encode(DateTime.fromTicks(b)))).toBe(sign(direction * sign(a - b)));
      }),
      RUNS,
    );
  });

  it("round-trips a JS Date to the same millisecond", () => {
    const date = fc.date({
      min: new Date("0001-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59.999Z"),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(date, (d) => {
        expect(codec.decode(codec.encode(d)).toDate().getTime()).toBe(d.getTime());
      }),
      RUNS,
    );
  });

  it("range(from, to) holds exactly the keys of from <= t < to, suffixed keys included", () => {
    fc.assert(
      fc.property(ticksArb, ticksArb, ticksArb, fc.boolean(), (x, y, t, suffixed) => {
        const [from, to] = x <= y ? [x, y] : [y, x];
        const range = codec.range(DateTime.fromTicks(from), DateTime.fromTicks(to));
        const key = codec.encode(DateTime.fromTicks(t)) + (suffixed ? "_000000000000ab" : "");
        expect(inInterval(key, range, cmp)).toBe(from <= t && t < to);
      }),
      RUNS,
    );
    expect(errorCode(() => codec.range(DateTime.MAX, DateTime.MIN))).toBe("InvalidInput");
  });
});
