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
/** One entity per edge of each type; `n` holds a different type in different rows (CSV gets a column per type). */
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
    expect(csv.split("\n")[0]).toBe(
      "PartitionKey,RowKey,Timestamp,s,n@Edm.Int32,n@Edm.Int64,m@Edm.Int64,n@Edm.Double,m@Edm.Double,o@Edm.Double,n@Edm.Boolean,m@Edm.Boolean,n@Edm.DateTime,m@Edm.DateTime,n@Edm.Guid,n@Edm.Binary,m@Edm.Binary,n",
    );
    await run(["import", "FromCsv", "source.csv"]);
    const again = (await run(["export", "FromCsv"])).stdout;
    expect(content(again)).toEqual(content(original));
  });
});
