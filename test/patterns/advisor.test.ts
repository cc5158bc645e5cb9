/**
 * The advisor's parts that no store can hold data for (keys Azure refuses), that need time to pass
 * (growth, on the embedded engine with a stepped clock), and its static checks of models.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { keyInstant, unsortableDateIn } from "../../src/advisor/key-shapes.js";
import { Reservoir } from "../../src/advisor/reservoir.js";
import { TableAnalyzer } from "../../src/advisor/table-analyzer.js";
import {
  AZURE_LIMITS,
  adviseModel,
  adviseTable,
  DateTime,
  FINDING_IDS,
  FINDING_KINDS,
  keys,
  openStore,
  type TableEntityResult,
} from "../../src/index.js";
import { chronologicalTicks, type KeyCodec, paddedInt } from "../../src/keys/index.js";
import { defineModel, field } from "../../src/patterns/index.js";
import { Department, Employee, Location, PrefixedEmployee, Sample } from "./models.js";

function analyze(rows: readonly Partial<TableEntityResult>[]) {
  const analyzer = new TableAnalyzer({
    limits: AZURE_LIMITS,
    keyOrder: "utf16",
    nearLimit: 0.9,
    hotWritesPerSecond: 1000,
    growthHorizonDays: 90,
    models: [],
  });
  for (const r of rows) analyzer.add({ etag: "e", timestamp: "2026-01-01T00:00:00.0000000Z", ...r });
  return analyzer.findings();
}

describe("advisor: keys no store accepts", () => {
  it("finds / \\ # ? and control characters, and dd/MM/yyyy dates", () => {
    const findings = analyze([
      { partitionKey: "DynamoDB#style", rowKey: "USER#1" },
      { partitionKey: "DynamoDB#style", rowKey: "a\u0001b" },
      { partitionKey: "p", rowKey: "28/05/2010" },
      { partitionKey: "p", rowKey: "x?y" },
    ]);
    expect(findings.map((f) => [f.id, f.subject, f.count])).toEqual([
      ["date-key-unsortable", "RowKey", 1],
      ["forbidden-key-character", "PartitionKey", 1],
      ["forbidden-key-character", "RowKey", 4],
    ]);
    expect(findings[2]!.examples).toEqual(["USER#1", '"a\\u0001b"', "28/05/2010", "x?y"]);
  });

  it("reads instants and unsortable dates in key text", () => {
    expect(keyInstant("2014-07-31T18")).toBe(Date.UTC(2014, 6, 31, 18));
    expect(keyInstant("log_20140731")).toBe(Date.UTC(2014, 6, 31));
    expect(keyInstant("0634106016000000000")).toBe(Date.UTC(2010, 4, 28));
    expect(keyInstant("2521272959999999999")).toBe(Date.UTC(2010, 4, 28));
    for (const notTime of ["Sales", "000123", "12345678", "2014-13-01", "customer-42"]) {
      expect(keyInstant(notTime), notTime).toBeUndefined();
    }
    expect(unsortableDateIn("post_28.05.2010")?.text).toBe("28.05.2010");
    expect(unsortableDateIn("2010-5-28")?.format).toMatch(/leading zero/);
    expect(unsortableDateIn("28-May-2010")?.format).toMatch(/month name/);
    expect(unsortableDateIn("28052010")?.format).toMatch(/ddMMyyyy/);
    for (const sortable of ["2010-05-28", "20100528", "2010-05-28T18:00", "empid_000123"]) {
      expect(unsortableDateIn(sortable), sortable).toBeUndefined();
    }
  });

  it("keeps a uniform sample of bounded size", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const reservoir = new Reservoir<number>(100, next);
    for (let i = 0; i < 100_000; i++) reservoir.add(i);
    expect(reservoir.items).toHaveLength(100);
    expect(reservoir.count).toBe(100_000);
    const mean = reservoir.items.reduce((a, b) => a + b, 0) / 100;
    expect(mean).toBeGreaterThan(30_000);
    expect(mean).toBeLessThan(70_000);
  });
});

describe("advisor: growth toward a limit, on the embedded engine", () => {
  afterEach(() => vi.useRealTimers());

  it("projects entities that grow a day at a time, and says nothing of stable ones", async () => {
    vi.useFakeTimers({ toFake: ["performance", "Date"], now: new Date("2026-01-01T00:00:00Z") });
    const store = await openStore("memory:");
    await store.createTable("Series");
    const series = store.table("Series");
    for (let day = 0; day < 20; day++) {
      // 16 values that each gain 1,000 characters a day: 32 KB a day, 60% of 1 MiB after 19 days.
      const props: Record<string, string> = {};
      for (let i = 0; i < 16; i++) props[`chunk${i}`] = "x".repeat(500 + day * 1000);
      const d = String(day).padStart(3, "0");
      await series.createEntity({ partitionKey: "sensor", rowKey: `reading_${d}`, ...props });
      await series.createEntity({ partitionKey: "stable", rowKey: `status_${d}`, v: day });
      vi.advanceTimersByTime(86_400_000);
    }
    vi.useRealTimers();
    const report = await adviseTable(store, "Series", { growthHorizonDays: 30 });
    await store.close();
    const growth = report.findings.filter((f) => f.id === "limit-growth");
    expect(growth).toHaveLength(1);
    expect(growth[0]!.message).toMatch(/^Over 19\.0 days of writes, newer entities are larger/);
    expect(growth[0]!.message).toMatch(/reaches the limit in about \d+ days/);
    expect(growth[0]!.examples).toEqual(["sensor / reading_019"]);
    expect(growth[0]!.subject).toBe("entities of reading_…");
    expect(report.findings.map((f) => f.id)).toEqual(["limit-growth"]);
  });
});

describe("advisor: models without data", () => {
  it("reports nothing on the catalogue's models", () => {
    for (const model of [Employee, Location, Sample, Department, PrefixedEmployee]) {
      expect(adviseModel(model).findings, String(model.entityType)).toEqual([]);
    }
  });

  it("probes key codecs for order, ticks width and forbidden characters, and checks the PartitionKey and field count", () => {
    const plain: KeyCodec<number> = {
      name: "plainNumber",
      encode: (n) => String(n),
      decode: Number,
      describe: () => ({ name: "plainNumber", parameters: {}, example: { input: 1, output: "1" } }),
    };
    const dayFirst: KeyCodec<DateTime> = {
      name: "dayFirst",
      encode: (d) => {
        const [y, m, day] = d.toISOString().slice(0, 10).split("-");
        return `${day}-${m}-${y}`;
      },
      decode: () => DateTime.MIN,
      describe: () => ({ name: "dayFirst", parameters: {}, example: { input: "", output: "" } }),
    };
    const shortTicks: KeyCodec<DateTime> = {
      name: "shortTicks",
      encode: (d) => d.ticks.toString(),
      decode: (k) => DateTime.fromTicks(BigInt(k)),
      describe: () => ({ name: "shortTicks", parameters: {}, example: { input: "", output: "" } }),
    };
    const slashed: KeyCodec<string> = {
      name: "slashed",
      encode: (s) => s.replaceAll(" ", "/"),
      decode: (k) => k,
      describe: () => ({ name: "slashed", parameters: {}, example: { input: "", output: "" } }),
    };
    const many: Record<string, ReturnType<typeof field.int32>> = {};
    for (let i = 0; i < 240; i++) many[`f${i}`] = field.int32();
    const Bad = defineModel({
      table: "Bad",
      entityType: "Bad",
      fields: {
        at: field.dateTime(),
        id: field.int32(),
        day: field.dateTime(),
        path: field.string(),
        ...many,
      },
      partitionKey: (k) => k.field("at", shortTicks),
      rowKey: (k) => k.field("id", plain).field("day", dayFirst).field("path", slashed),
    });
    const report = adviseModel(Bad);
    expect(report).toMatchObject({ subject: "Bad", source: "model" });
    expect(report.findings.map((f) => [f.id, f.severity, f.subject])).toEqual([
      ["date-key-unsortable", "error", "PartitionKey: field 'at' (shortTicks)"],
      ["date-key-unsortable", "error", "RowKey: field 'day' (dayFirst)"],
      ["forbidden-key-character", "error", "RowKey: field 'path' (slashed)"],
      ["numeric-key-unpadded", "error", "RowKey: field 'id' (plainNumber)"],
      ["partition-key-grows-with-time", "warning", "PartitionKey"],
      ["property-count-near-limit", "warning", "fields"],
      ["ticks-key-wrong-width", "warning", "PartitionKey: field 'at' (shortTicks)"],
    ]);
    expect(report.findings[3]!.examples).toHaveLength(2);
    for (const e of report.findings[3]!.examples) expect(e).toMatch(/^-?\d+ → -?\d+$/);
    // Padded and tick codecs keep their order.
    const Good = defineModel({
      table: "Good",
      fields: { at: field.dateTime(), id: field.int32(), kind: field.string() },
      partitionKey: (k) => k.field("kind"),
      rowKey: (k) => k.field("id", paddedInt({ max: 999999 })).field("at", keys.invertedTicks()),
      indexes: undefined,
    });
    expect(adviseModel(Good).findings).toEqual([]);
    expect(chronologicalTicks().encode(DateTime.MAX)).toHaveLength(19);
  });

  it("documents every finding id in docs/advisor.md with its pattern's page", async () => {
    const { readFileSync } = await import("node:fs");
    const doc = readFileSync(new URL("../../docs/advisor.md", import.meta.url), "utf8");
    for (const id of FINDING_IDS) {
      expect(doc, id).toContain(`\`${id}\``);
      expect(doc, id).toContain(`(${FINDING_KINDS[id].docs})`);
    }
  });
});
