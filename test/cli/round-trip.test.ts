/** export → import → export keeps every EDM value exactly, through NDJSON and through typed CSV. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ndjson, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const run = async (args: string[], input?: string) => {
  const r = await cli(args, { cwd: dir, ...(input === undefined ? {} : { input }) });
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r;
};

const annotated = (type: string, value: unknown) => ({ type, value });
/** One entity per edge of each type; `n` and `m` hold different types in different rows (one CSV column each, typed per cell). */
const VALUES: Record<string, { type: string; value: unknown }>[] = [
  { s: annotated("String", ""), n: annotated("Int32", 0) },
  {
    s: annotated("String", 'commas, "quotes", new\nlines\r\nand  spaces '),
    n: annotated("Int32", -2147483648),
  },
  { s: annotated("String", "ünïcødé 𝄞 \u0001"), n: annotated("Int32", 2147483647) },
  { n: annotated("Int64", "-9223372036854775808"), m: annotated("Int64", "9223372036854775807") },
  { n: annotated("Double", 0.1), m: annotated("Double", 5), o: annotated("Double", "-0") },
  { n: annotated("Double", "NaN"), m: annotated("Double", "Infinity"), o: annotated("Double", "-Infinity") },
  {
    n: annotated("Double", 1.7976931348623157e308),
    m: annotated("Double", 5e-324),
    o: annotated("Double", -1e21),
  },
  { n: annotated("Boolean", true), m: annotated("Boolean", false) },
  {
    n: annotated("DateTime", "1601-01-01T00:00:00.0000000Z"),
    m: annotated("DateTime", "9999-12-31T23:59:59.9999999Z"),
  },
  { n: annotated("DateTime", "2026-11-22T02:49:12.9327936Z") },
  { n: annotated("Guid", "0f8fad5b-d9cb-469f-a165-70867728950e") },
  { n: annotated("Binary", ""), m: annotated("Binary", "AP8BAgM=") },
  { n: annotated("String", "x") },
];

function line(i: number, props: Record<string, { type: string; value: unknown }>): string {
  const out: Record<string, unknown> = {
    PartitionKey: i < 6 ? "first" : "second",
    RowKey: String(i).padStart(2, "0"),
  };
  for (const [name, { type, value }] of Object.entries(props)) {
    out[`${name}@odata.type`] = `Edm.${type}`;
    out[name] = value;
  }
  return JSON.stringify(out).replace('"o":"-0"', '"o":-0');
}

/** The exported entities without Timestamp, keyed by their keys. */
function content(text: string) {
  return ndjson(text).map(({ Timestamp, "Timestamp@odata.type": _, ...rest }) => rest);
}

describe("export → import round trip", { timeout: 120_000 }, () => {
  let original: string;
  beforeAll(async () => {
    writeFileSync(join(dir, "source.ndjson"), `${VALUES.map((v, i) => line(i, v)).join("\n")}\n`);
    await run(["import", "Source", "source.ndjson"]);
    original =
      (await run(["export", "Source", "--out", "source-export.ndjson"])) &&
      readFileSync(join(dir, "source-export.ndjson"), "utf8");
  });

  it("keeps every type and value exactly through NDJSON", async () => {
    const rows = content(original);
    expect(rows).toHaveLength(VALUES.length);
    // -0 and integral doubles keep their annotation; JSON alone would make them Int32
    expect(original).toContain('"o@odata.type":"Edm.Double","o":-0');
    expect(original).toContain('"m@odata.type":"Edm.Double","m":5');
    expect(original).toContain('"n@odata.type":"Edm.Int64","n":"-9223372036854775808"');
    expect(original).toContain('"n@odata.type":"Edm.Double","n":"NaN"');
    expect(original).toContain('"m@odata.type":"Edm.DateTime","m":"9999-12-31T23:59:59.9999999Z"');
    await run(["import", "Copy", "source-export.ndjson"]);
    const again = (await run(["export", "Copy"])).stdout;
    expect(content(again)).toEqual(rows);
    expect(again.replace(/"Timestamp":"[^"]*"/g, "")).toBe(original.replace(/"Timestamp":"[^"]*"/g, ""));
  });

  it("keeps every type and value exactly through typed CSV", async () => {
    await run(["export", "Source", "--out", "source.csv"]);
    const csv = readFileSync(join(dir, "source.csv"), "utf8");
    // One column per property: `n` (Int32 here, Double there, …) says each cell's type.
    const [header, ...lines] = csv.split("\n");
    expect(header).toBe("PartitionKey,RowKey,Timestamp,s,n@Edm,m@Edm,o@Edm.Double");
    expect(lines.find((l) => l.startsWith("first,00,"))).toMatch(/,Int32:0,,$/);
    expect(lines.find((l) => l.startsWith("first,04,"))).toMatch(/,Double:0\.1,Double:5,-0$/);
    expect(lines.find((l) => l.startsWith("second,12,"))).toMatch(/,String:x,,$/);
    await run(["import", "FromCsv", "source.csv"]);
    const again = (await run(["export", "FromCsv"])).stdout;
    expect(content(again)).toEqual(content(original));
  });

  it("refuses a cell of a per-cell column without its type, and keeps accepting a column per type", async () => {
    writeFileSync(join(dir, "untyped.csv"), "PartitionKey,RowKey,n@Edm\np,1,5\n");
    const bad = await cli(["import", "Untyped", "untyped.csv"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error InvalidInput: line 2: a cell of column 'n@Edm' starts with its type/m);
    // What earlier versions wrote: one column per type.
    writeFileSync(join(dir, "old.csv"), "PartitionKey,RowKey,n@Edm.Int32,n@Edm.Double\np,1,5,\np,2,,5\n");
    await run(["import", "Old", "old.csv"]);
    expect((await run(["export", "Old", "--format", "csv"])).stdout.split("\n").slice(1, 3)).toEqual([
      expect.stringMatching(/^p,1,[^,]+,Int32:5$/),
      expect.stringMatching(/^p,2,[^,]+,Double:5$/),
    ]);
  });
});
