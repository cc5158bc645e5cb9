import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DateTime,
  dateTimeWithText,
  epochMillisecondsOfTicks,
  etagOf,
  isoOfEtag,
  MAX_TICKS,
  TableKitError,
  UNIX_EPOCH_TICKS,
} from "../../src/model/index.js";

describe("DateTime", () => {
  it("keeps all seven fractional digits", () => {
    const d = DateTime.parse("2026-11-22T02:49:12.9327936Z");
    expect(d.toISOString()).toBe("2026-11-22T02:49:12.9327936Z");
    expect(d.subMillisecondTicks).toBe(7936);
    expect(d.toDate().toISOString()).toBe("2026-11-22T02:49:12.932Z");
  });

  it("computes .NET ticks exactly (seed 002's worked example)", () => {
    const d = DateTime.fromDate(new Date("2010-05-28T00:00:00Z"));
    expect(MAX_TICKS - d.ticks).toBe(2521272959999999999n);
    expect(DateTime.parse("1970-01-01T00:00:00Z").ticks).toBe(UNIX_EPOCH_TICKS);
    expect(DateTime.MIN.toISOString()).toBe("0001-01-01T00:00:00.0000000Z");
    expect(DateTime.MAX.toISOString()).toBe("9999-12-31T23:59:59.9999999Z");
  });

  it("applies zone offsets and treats a missing zone as UTC", () => {
    expect(DateTime.parse("2020-01-01T01:00:00+01:00").equals(DateTime.parse("2020-01-01T00:00:00Z"))).toBe(
      true,
    );
    expect(DateTime.parse("2020-01-01T00:00").equals(DateTime.parse("2020-01-01T00:00:00.0000000Z"))).toBe(
      true,
    );
  });

  it("rejects malformed and impossible dates with typed errors", () => {
    for (const bad of [
      "2020-02-30T00:00:00Z",
      "2019-02-29T00:00:00Z",
      "2020-13-01T00:00:00Z",
      "20-01-01",
      "2020-01-01T24:00:00Z",
      "2020-01-01T00:00:00.12345678Z",
      // The canonical form (`toISOString`'s, parsed by char code) checks fields and digits alike.
      "2020-02-30T00:00:00.0000000Z",
      "2020-01-01T24:00:00.0000000Z",
      "2020-01-01T00:60:00.0000000Z",
      "2020-01-01T00:00:60.0000000Z",
      "0000-01-01T00:00:00.0000000Z",
      "2020-00-01T00:00:00.0000000Z",
      "2020-01-00T00:00:00.0000000Z",
      "2020-01-0aT00:00:00.0000000Z",
      "2020-01-01T00:00:00.000000-Z",
      "2020-01-01T00:00:00.0000000z",
      "2020-01-01 00:00:00.0000000Z",
    ]) {
      expect(() => DateTime.parse(bad), bad).toThrow(TableKitError);
    }
    expect(() => DateTime.fromTicks(MAX_TICKS + 1n)).toThrow(
      expect.objectContaining({ code: "OutOfRangeInput" }),
    );
    expect(() => DateTime.fromTicks(-1n)).toThrow(expect.objectContaining({ code: "OutOfRangeInput" }));
    expect(DateTime.fromTicks(MAX_TICKS).ticks).toBe(MAX_TICKS);
  });

  it("round-trips any tick count through its ISO text", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_TICKS }), (ticks) => {
        const text = DateTime.fromTicks(ticks).toISOString();
        const parsed = DateTime.parse(text);
        expect(parsed.ticks).toBe(ticks);
        expect(parsed.toISOString()).toBe(text);
        expect(etagOf(parsed)).toBe(`W/"datetime'${text.replaceAll(":", "%3A")}'"`);
        expect(isoOfEtag(etagOf(parsed))).toBe(text);
        // Seven digits or fewer, a zone or none: the general parser agrees with the canonical one.
        expect(DateTime.parse(`${text.slice(0, -1)}+00:00`).ticks).toBe(ticks);
      }),
      { numRuns: 5000 },
    );
  });

  it("formats instants of the same second, and of the seconds around it, each with its own text", () => {
    // Timestamps made close together share their second's text (formatISO keeps it): crossing a
    // second in either direction, and coming back, must not reuse the wrong one.
    const base = DateTime.parse("2026-11-22T23:59:59.9999998Z").ticks;
    const expected = [
      [0n, "2026-11-22T23:59:59.9999998Z"],
      [1n, "2026-11-22T23:59:59.9999999Z"],
      [2n, "2026-11-23T00:00:00.0000000Z"],
      [1n, "2026-11-22T23:59:59.9999999Z"],
      [3n, "2026-11-23T00:00:00.0000001Z"],
      [-10_000_000n, "2026-11-22T23:59:58.9999998Z"],
      [2n, "2026-11-23T00:00:00.0000000Z"],
    ] as const;
    for (const [offset, text] of expected) expect(DateTime.fromTicks(base + offset).toISOString()).toBe(text);
    expect(DateTime.fromTicks(0n).toISOString()).toBe("0001-01-01T00:00:00.0000000Z");
    expect(DateTime.fromTicks(1n).toISOString()).toBe("0001-01-01T00:00:00.0000001Z");
  });

  it("isoOfEtag reads only ETags as etagOf makes them", () => {
    const etag = etagOf(DateTime.parse("2026-01-02T03:04:05.1234567Z"));
    expect(isoOfEtag(etag)).toBe("2026-01-02T03:04:05.1234567Z");
    for (const other of [
      `W/"datetime'2026-01-02T03:04:05.123Z'"`,
      `"datetime'2026-01-02T03%3A04%3A05.1234567Z'"`,
      `W/"datetime'2026-01-02T03:04:05.1234567Z'"  `,
      etag.replaceAll("%3A", "%3a"),
      "*",
    ]) {
      expect(isoOfEtag(other)).toBeUndefined();
    }
  });

  it("dateTimeWithText keeps the text it is given for those ticks", () => {
    const made = DateTime.parse("2026-01-02T03:04:05.1234567Z");
    const known = dateTimeWithText(made.ticks, made.toISOString());
    expect(known.ticks).toBe(made.ticks);
    expect(known.toISOString()).toBe("2026-01-02T03:04:05.1234567Z");
    expect(known.equals(made)).toBe(true);
  });

  it("agrees with Date on millisecond instants", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("0001-01-01T00:00:00Z"),
          max: new Date("9999-12-31T23:59:59.999Z"),
          noInvalidDate: true,
        }),
        (date) => {
          const d = DateTime.fromDate(date);
          expect(d.toDate().getTime()).toBe(date.getTime());
          expect(d.toISOString().slice(0, 23)).toBe(date.toISOString().slice(0, 23));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("now() is strictly increasing within a process", () => {
    let prev = DateTime.now();
    for (let i = 0; i < 10_000; i++) {
      const next = DateTime.now();
      expect(next.ticks > prev.ticks).toBe(true);
      prev = next;
    }
  });
});

describe("DateTime where a Date is used (code ported from @azure/data-tables)", () => {
  const exact = DateTime.parse("2026-11-22T02:49:12.9327936Z");
  const date = new Date("2026-11-22T02:49:12.932Z");

  it("getTime, valueOf and unary plus give the Date's milliseconds", () => {
    expect(exact.getTime()).toBe(date.getTime());
    expect(exact.valueOf()).toBe(date.valueOf());
    expect(+exact).toBe(+date);
  });

  it("compares with < and > as Dates do, and sorts by getTime", () => {
    const later = DateTime.parse("2026-11-22T02:49:12.9337936Z");
    expect(exact < later && later > exact).toBe(true);
    const sameMillisecond = DateTime.parse("2026-11-22T02:49:12.9320001Z");
    expect(exact < sameMillisecond || exact > sameMillisecond).toBe(false); // as two Dates of that millisecond
    const sorted = [later, exact].sort((a, b) => a.getTime() - b.getTime());
    expect(sorted.map(String)).toEqual([exact.toISOString(), later.toISOString()]);
    expect(exact.compare(DateTime.parse("2026-11-22T02:49:12.9327937Z"))).toBe(-1); // exact to 100 ns
  });

  it("JSON keeps all seven digits and reads back as the same Date, and as the same DateTime", () => {
    const json = JSON.stringify({ when: exact });
    expect(json).toBe('{"when":"2026-11-22T02:49:12.9327936Z"}');
    const text = (JSON.parse(json) as { when: string }).when;
    expect(new Date(text).getTime()).toBe(date.getTime());
    expect(DateTime.parse(text).ticks).toBe(exact.ticks);
    expect(new Date(exact as unknown as string).getTime()).toBe(date.getTime());
    expect(`${exact}`).toBe("2026-11-22T02:49:12.9327936Z");
  });

  it("answers every read-only method of Date as its toDate() does", () => {
    const setters = Object.getOwnPropertyNames(Date.prototype).filter((n) => n.startsWith("set"));
    // Differ on purpose (docs/types.md): ISO text with seven digits, not local-time text; Annex B
    // leftovers (getYear, toGMTString) are not offered.
    const differ = ["constructor", "toString", "toISOString", "toJSON", "getYear", "toGMTString", ...setters];
    const methods = Object.getOwnPropertyNames(Date.prototype).filter((n) => !differ.includes(n));
    expect(methods.length).toBeGreaterThan(20);
    const asDate = exact.toDate();
    for (const name of methods) {
      const call = (target: object) =>
        (target as Record<string, (...a: unknown[]) => unknown>)[name]!.call(target);
      expect(call(exact), name).toEqual(call(asDate));
    }
    expect(exact.getUTCFullYear()).toBe(2026);
    expect(exact.toLocaleDateString("en-GB", { timeZone: "UTC" })).toBe("22/11/2026");
  });

  it("gives one millisecond however it is read as a number or a Date, at the ends of the range and just before 1970", () => {
    for (const iso of [
      "1601-01-01T00:00:00.0000001Z",
      "1969-12-31T23:59:59.9995000Z", // floored, as new Date reads the text: -1, not 0
      "1970-01-01T00:00:00.0000000Z",
      "2026-11-22T02:49:12.9327936Z",
      "9999-12-31T23:59:59.9999999Z",
    ]) {
      const dt = DateTime.parse(iso);
      const ms = new Date(iso).getTime();
      const asNumber = dt as unknown as number;
      expect([dt.getTime(), +dt, Number(dt), asNumber - 0, Math.max(asNumber, -Infinity)], iso).toEqual(
        Array(5).fill(ms),
      );
      expect(new Date(dt as unknown as string).getTime(), iso).toBe(ms);
      expect(dt.toDate().getTime(), iso).toBe(ms);
    }
  });

  it("differs from a Date only where docs/api.md says: seven-digit text, no Date tag, no structured clone", () => {
    const asDate = exact.toDate();
    // Text: JSON, String(), templates and + "" give the seven-digit ISO text (a Date: three digits, local time).
    expect([JSON.stringify(exact), JSON.stringify(asDate)]).toEqual([
      '"2026-11-22T02:49:12.9327936Z"',
      '"2026-11-22T02:49:12.932Z"',
    ]);
    expect([`${exact}`, String(exact), `${exact}` === exact + ""]).toEqual([
      exact.toISOString(),
      exact.toISOString(),
      true,
    ]);
    expect(`${asDate}`).toBe(asDate.toString());
    // Libraries that test for a Date by its tag (lodash's isDate, util.types.isDate) see none.
    expect(Object.prototype.toString.call(exact)).toBe("[object Object]");
    // A structured clone (postMessage to a worker) keeps a Date, not a class instance.
    expect(structuredClone(asDate).getTime()).toBe(asDate.getTime());
    expect(structuredClone(exact)).not.toBeInstanceOf(DateTime);
    expect(structuredClone({ when: exact.toDate() }).when.getTime()).toBe(exact.getTime());
  });

  it("stays immutable and exact: no setters, and the ticks are untouched by Date's methods", () => {
    expect((exact as unknown as { setTime?: unknown }).setTime).toBeUndefined();
    exact.getUTCHours();
    expect(exact.ticks).toBe(DateTime.parse("2026-11-22T02:49:12.9327936Z").ticks);
    expect(exact instanceof Date).toBe(false);
  });
});

describe("epochMillisecondsOfTicks", () => {
  it("is epochMilliseconds of the ticks' decimal text, across the whole range (the floor, before 1970 too)", () => {
    for (const ticks of [0n, 1n, 9_999n, 10_000n, UNIX_EPOCH_TICKS - 1n, UNIX_EPOCH_TICKS, MAX_TICKS]) {
      expect(epochMillisecondsOfTicks(String(ticks)), String(ticks)).toBe(
        DateTime.fromTicks(ticks).epochMilliseconds,
      );
    }
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_TICKS }), (ticks) => {
        expect(epochMillisecondsOfTicks(String(ticks))).toBe(DateTime.fromTicks(ticks).epochMilliseconds);
      }),
    );
  });
});
