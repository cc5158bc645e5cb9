import { describe, expect, it } from "vitest";
import {
  decodeKeySegment,
  encodeKeySegment,
  LargeBlobNames,
} from "../../src/patterns/large-entities/blob-names.js";
import { LogNames, type PeriodMinutes } from "../../src/patterns/log-data-in-blobs/log-names.js";
import { seededRandom } from "./target.js";

const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);

describe("log blob names", () => {
  const names = new LogNames("queue", 1);

  it("name a period's folder by its start in UTC, as Storage Analytics names its logs", () => {
    const hourly = new LogNames("queue", 60);
    const period = hourly.periodOf(at("2014-07-31T18:25:13Z"));
    expect(hourly.blobName(period, 1)).toBe("queue/2014/07/31/1800/000001.log");
    expect(new LogNames("q", 15).periodOf(at("2014-07-31T18:44:59.999Z"))).toBe("q/2014/07/31/1830/");
    expect(names.blobName("q/2014/07/31/1830/", 12, "ab12")).toBe("q/2014/07/31/1830/000012-ab12.log");
    expect(names.parse("queue/2014/07/31/1830/000012-ab12.log")).toEqual({ number: 12, writer: "ab12" });
    expect(names.parse("queue/2014/07/31/1830/000012.log")).toEqual({ number: 12 });
    for (const other of ["queue/x.log", "queue2/2014/07/31/1830/000001.log", "queue/2014/07/31/1830/1.log"]) {
      expect(names.parse(other)).toBeUndefined();
    }
    expect(() => names.blobName("queue/2014/07/31/1830/", 1_000_000)).toThrow(
      expect.objectContaining({ code: "OutOfRangeInput" }),
    );
    expect(() => names.periodOf(at("+010000-01-01T00:00:00Z"))).toThrow(
      expect.objectContaining({ code: "OutOfRangeInput" }),
    );
    expect(names.periodOf(at("0001-01-01T00:00:00Z"))).toBe("queue/0001/01/01/0000/");
  });

  it("cover a range with the fewest prefixes, each whole digit of the name it can", () => {
    const cases: [PeriodMinutes, string, string, string[]][] = [
      [1, "2014-07-31T15:04Z", "2014-07-31T15:06Z", ["queue/2014/07/31/1504/", "queue/2014/07/31/1505/"]],
      [60, "2014-07-31T15:04Z", "2014-07-31T15:06Z", ["queue/2014/07/31/15"]],
      [1, "2014-07-31T00:00Z", "2014-08-01T00:00Z", ["queue/2014/07/31/"]],
      [
        1,
        "2014-07-31T15:30Z",
        "2014-07-31T17:00Z",
        ["queue/2014/07/31/153", "queue/2014/07/31/154", "queue/2014/07/31/155", "queue/2014/07/31/16"],
      ],
      [1, "2014-07-10T00:00Z", "2014-07-20T00:00Z", ["queue/2014/07/1"]],
      [1, "2014-01-01T00:00Z", "2015-01-01T00:00Z", ["queue/2014/"]],
      [1, "2020-01-01T00:00Z", "2030-01-01T00:00Z", ["queue/202"]],
      [1, "2014-02-20T00:00Z", "2014-03-01T00:00Z", ["queue/2014/02/2"]],
      [1, "2016-02-20T00:00Z", "2016-03-01T00:00Z", ["queue/2016/02/2"]],
      [15, "2014-07-31T15:10Z", "2014-07-31T16:50Z", ["queue/2014/07/31/15", "queue/2014/07/31/16"]],
      [
        1,
        "2014-12-31T23:59:30Z",
        "2015-01-01T00:00:30Z",
        ["queue/2014/12/31/2359/", "queue/2015/01/01/0000/"],
      ],
    ];
    for (const [period, from, to, expected] of cases) {
      expect(
        new LogNames("queue", period).prefixes(at(from), at(to)),
        `${period} min, ${from} to ${to}`,
      ).toEqual(expected);
    }
    expect(names.prefixes(at("2014-07-31T15:04Z"), at("2014-07-31T15:04Z"))).toEqual([]);
  });

  it("match exactly the periods a random range overlaps, with disjoint prefixes in time order", () => {
    const random = seededRandom(13);
    const base = at("2016-02-27T20:00Z"); // across a leap day and a month end
    for (let run = 0; run < 32; run++) {
      const period = ([1, 5, 15, 60] as const)[run % 4]!;
      const log = new LogNames("src", period);
      const from = base + Math.floor(random() * 3 * 24 * 60) * MINUTE + Math.floor(random() * MINUTE);
      const to = from + 1 + Math.floor(random() * random() * 2 * 24 * 60 * MINUTE);
      const prefixes = log.prefixes(from, to);
      for (let i = 1; i < prefixes.length; i++) {
        expect(prefixes[i - 1]! < prefixes[i]!).toBe(true);
        expect(prefixes[i]!.startsWith(prefixes[i - 1]!)).toBe(false);
      }
      const periodMs = period * MINUTE;
      const wrong: string[] = [];
      for (let start = base - 24 * 60 * MINUTE; start < base + 5 * 24 * 60 * MINUTE; start += periodMs) {
        const folder = log.periodOf(start);
        const overlaps = start < to && start + periodMs > from;
        if (prefixes.some((p) => folder.startsWith(p)) !== overlaps) wrong.push(folder);
      }
      expect(wrong, `${new Date(from).toISOString()} to ${new Date(to).toISOString()}`).toEqual([]);
      expect(prefixes.length).toBeLessThanOrEqual(40);
    }
  });
});

describe("large entity blob names", () => {
  const caps = { maxBlobNameLength: 1024, blobNameUnit: "utf8" } as ConstructorParameters<
    typeof LargeBlobNames
  >[1];

  it("escape keys reversibly into one safe segment", () => {
    const samples = [
      "",
      ".",
      "..",
      "a.b.",
      "~",
      "~7E",
      "a b",
      "x@y+z%",
      "é\u{1F600}",
      "'q'",
      "Sales",
      "000223",
      "a\u00a0b",
    ];
    const random = seededRandom(7);
    for (let i = 0; i < 200; i++) {
      samples.push(
        Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
          String.fromCodePoint(32 + Math.floor(random() * 300)),
        ).join(""),
      );
    }
    for (const key of samples) {
      const segment = encodeKeySegment(key);
      expect(decodeKeySegment(segment), JSON.stringify(key)).toBe(key);
      expect(segment).not.toMatch(/[/\\\u0000-\u001f\u007f]|\.$/);
      expect(segment).not.toBe("");
    }
    expect(encodeKeySegment("Sales")).toBe("Sales");
    expect(encodeKeySegment("a b.")).toBe("a~20b~2E");
    for (const junk of ["", "a.", "~", "~4", "~zz", "a~61"]) {
      if (junk === "~") continue; // the empty key
      expect(decodeKeySegment(junk), junk).toBeUndefined();
    }
  });

  it("give every write a fresh name that says whose value it is", () => {
    const names = new LargeBlobNames("Employees/", caps);
    const a = names.fresh("Sales", "000223", "Photo");
    expect(a).toMatch(/^Employees\/Sales\/000223\/Photo\.[0-9a-f]{20}$/);
    expect(names.fresh("Sales", "000223", "Photo")).not.toBe(a);
    expect(names.parse(a)).toEqual({ partitionKey: "Sales", rowKey: "000223" });
    expect(names.parse(names.fresh("", "a b", "P".repeat(255)))).toEqual({ partitionKey: "", rowKey: "a b" });
    for (const other of [
      "Employees/Sales/000223/notes.txt",
      "Other/Sales/000223/Photo.0123456789abcdef0123",
      "Employees/a/b/c/Photo.0123456789abcdef0123",
    ]) {
      expect(names.parse(other)).toBeUndefined();
    }
    const short = new LargeBlobNames("x".repeat(900), caps);
    expect(() => short.fresh("k".repeat(100), "r", "Photo")).toThrow(
      expect.objectContaining({ code: "KeyValueTooLarge" }),
    );
  });
});
