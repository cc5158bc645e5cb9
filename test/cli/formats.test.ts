/** The CLI's file formats in-process: typed JSON lines and typed CSV round-trip every EDM value. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCsv } from "../../src/cli/formats/csv.js";
import {
  ColumnCollector,
  csvHeader,
  csvRow,
  parseCsvHeader,
  parseCsvRow,
} from "../../src/cli/formats/csv-entity.js";
import type { EntityRow } from "../../src/cli/formats/entity-row.js";
import { readLines } from "../../src/cli/formats/lines.js";
import { decodeTypedJson, encodeTypedJson } from "../../src/cli/formats/typed-json.js";
import { wantsColour } from "../../src/cli/output/terminal.js";
import { type TypedValue, typedValuesEqual } from "../../src/model/index.js";
import { typedValueArb } from "../support/arbitraries.js";

const nameArb = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/)
  .filter((n) => !["PartitionKey", "RowKey", "Timestamp"].includes(n));
const rowArb: fc.Arbitrary<EntityRow> = fc.record({
  partitionKey: fc.string(),
  rowKey: fc.string(),
  properties: fc
    .uniqueArray(fc.tuple(nameArb, typedValueArb), { selector: ([n]) => n, maxLength: 6 })
    .map((e) => new Map(e)),
});

function expectSameRow(actual: EntityRow, expected: EntityRow): void {
  expect([actual.partitionKey, actual.rowKey]).toEqual([expected.partitionKey, expected.rowKey]);
  expect([...actual.properties.keys()].sort()).toEqual([...expected.properties.keys()].sort());
  for (const [name, tv] of expected.properties) {
    const got = actual.properties.get(name) as TypedValue;
    expect(
      typedValuesEqual(got, tv),
      `${name}: ${got.type} ${String(got.value)} vs ${tv.type} ${String(tv.value)}`,
    ).toBe(true);
  }
}

async function csvRoundTrip(rows: EntityRow[]): Promise<EntityRow[]> {
  const collector = new ColumnCollector();
  for (const r of rows) collector.add(r);
  const text = [csvHeader(collector.columns), ...rows.map((r) => csvRow(r, collector.columns))].join("\r\n");
  const out: EntityRow[] = [];
  let layout: ReturnType<typeof parseCsvHeader> | undefined;
  for await (const record of readCsv(readLines([text]))) {
    if (!layout) layout = parseCsvHeader(record);
    else out.push(parseCsvRow(record, layout));
  }
  return out;
}

describe("typed JSON lines", () => {
  it("round-trips every EDM value exactly", () => {
    fc.assert(
      fc.property(rowArb, (row) => {
        const line = encodeTypedJson(row);
        expect(line).not.toContain("\n");
        expectSameRow(decodeTypedJson(JSON.parse(line)), row);
      }),
      { numRuns: 300 },
    );
  });

  it("infers unannotated values as the Table service does and rejects what it cannot type", () => {
    const row = decodeTypedJson({
      PartitionKey: "p",
      RowKey: "r",
      s: "x",
      i: 7,
      d: 7.5,
      b: false,
      gone: null,
    });
    expect([...row.properties].map(([n, tv]) => [n, tv.type])).toEqual([
      ["s", "String"],
      ["i", "Int32"],
      ["d", "Double"],
      ["b", "Boolean"],
    ]);
    const code = (v: unknown) => {
      try {
        decodeTypedJson(v);
        return "none";
      } catch (err) {
        return (err as { code: string }).code;
      }
    };
    expect(code({ PartitionKey: "p", RowKey: "r", n: 2147483648 })).toBe("InvalidValueType");
    expect(code({ PartitionKey: "p", RowKey: "r", n: 2147483647 })).toBe("none");
    // A number past a Double's range parses as Infinity; JSON cannot mean Infinity by it.
    for (const text of ["1e400", "-1e400"]) {
      expect(code(JSON.parse(`{"PartitionKey":"p","RowKey":"r","n":${text}}`))).toBe("InvalidValueType");
      expect(
        code(JSON.parse(`{"PartitionKey":"p","RowKey":"r","n@odata.type":"Edm.Double","n":${text}}`)),
      ).toBe("InvalidValueType");
      expect(
        code(JSON.parse(`{"PartitionKey":"p","RowKey":"r","n@odata.type":"Edm.Double","n":"${text}"}`)),
      ).toBe("InvalidValueType");
    }
    expect(code({ PartitionKey: "p", RowKey: "r", "n@odata.type": "Edm.Double", n: "Infinity" })).toBe(
      "none",
    );
    expect(code({ PartitionKey: "p", RowKey: "r", o: { a: 1 } })).toBe("InvalidValueType");
    expect(code({ PartitionKey: "p", RowKey: "r", "n@odata.type": "Edm.Int128", n: "1" })).toBe(
      "InvalidInput",
    );
    expect(code({ PartitionKey: "p", RowKey: "r", "n@odata.type": "Edm.Int64" })).toBe("InvalidInput");
    expect(code({ RowKey: "r" })).toBe("InvalidInput");
    expect(code([])).toBe("InvalidInput");
  });
});

describe("typed CSV", () => {
  it("round-trips every EDM value exactly, heterogeneous columns included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { maxLength: 5 }), async (rows) => {
        const back = await csvRoundTrip(rows);
        expect(back).toHaveLength(rows.length);
        for (const [i, r] of back.entries()) expectSameRow(r, rows[i]!);
      }),
      { numRuns: 200 },
    );
  });

  it('tells an absent property (empty cell) from an empty string ("")', async () => {
    const rows: EntityRow[] = [
      { partitionKey: "", rowKey: "a", properties: new Map([["s", { type: "String", value: "" }]]) },
      { partitionKey: "", rowKey: "b", properties: new Map() },
    ];
    const back = await csvRoundTrip(rows);
    expect(back[0]!.properties.get("s")).toEqual({ type: "String", value: "" });
    expect(back[1]!.properties.has("s")).toBe(false);
  });
});

describe("colour", () => {
  it("only on a TTY, and never with NO_COLOR", () => {
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
    expect(wantsColour({}, {})).toBe(false);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
  });
});
