import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, cli, ndjson, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const run = (args: string[], input?: string) =>
  cli(args, { cwd: dir, ...(input === undefined ? {} : { input }) });

const TYPED = {
  PartitionKey: "p",
  RowKey: "1",
  name: "Ada",
  age: 36,
  score: 1.5,
  active: true,
  "big@odata.type": "Edm.Int64",
  big: "9007199254740993",
  "whole@odata.type": "Edm.Double",
  whole: 2,
  "born@odata.type": "Edm.DateTime",
  born: "1815-12-10T00:00:00.1234567Z",
  "uid@odata.type": "Edm.Guid",
  uid: "0f8fad5b-d9cb-469f-a165-70867728950e",
  "blob@odata.type": "Edm.Binary",
  blob: "AQID",
};

beforeAll(async () => {
  expect((await run(["tables", "create", "Things"])).code).toBe(0);
});

describe("put, get, delete", { timeout: 120_000 }, () => {
  it("puts typed JSON from stdin and gets it back with every type", async () => {
    const put = await run(["put", "Things"], JSON.stringify(TYPED));
    expect(put.code).toBe(0);
    const got = await run(["get", "Things", "p", "1", "-o", "json"]);
    expect(got.code).toBe(0);
    const entity = JSON.parse(got.stdout);
    const { "odata.etag": etag, Timestamp, "Timestamp@odata.type": tsType, ...rest } = entity;
    expect(rest).toEqual(TYPED);
    expect(etag).toMatch(/^W\/"datetime'/);
    expect(tsType).toBe("Edm.DateTime");
    expect(Timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    const card = await run(["get", "Things", "p", "1"]);
    expect(card.stdout).toMatch(/big\s+Int64\s+9007199254740993/);
    expect(card.stdout).toMatch(/whole\s+Double\s+2\n/);
  });

  it("puts a JSON array and NDJSON from a file; --mode create refuses an existing entity", async () => {
    writeFileSync(
      join(dir, "two.json"),
      JSON.stringify([
        { PartitionKey: "q", RowKey: "1" },
        { PartitionKey: "q", RowKey: "2" },
      ]),
    );
    writeFileSync(
      join(dir, "two.ndjson"),
      '{"PartitionKey":"r","RowKey":"1"}\n\n{"PartitionKey":"r","RowKey":"2"}\n',
    );
    expect((await run(["put", "Things", "two.json"])).code).toBe(0);
    expect((await run(["put", "Things", "two.ndjson"])).code).toBe(0);
    const again = await run(["put", "Things", "two.ndjson", "--mode", "create"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error EntityAlreadyExists: /m);
    const all = ndjson((await run(["query", "Things", "-o", "ndjson", "--select", "RowKey"])).stdout);
    expect(all.map((e) => `${e.PartitionKey}/${e.RowKey}`)).toEqual(["p/1", "q/1", "q/2", "r/1", "r/2"]);
  });

  it("writes nothing when any entity is bad, and says which line", async () => {
    const input =
      '{"PartitionKey":"s","RowKey":"1"}\n{"PartitionKey":"s","RowKey":"2","n@odata.type":"Edm.Int64","n":"x"}\n';
    const r = await run(["put", "Things"], input);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error InvalidValueType: line 2: Property 'n'/m);
    const tooBig = await run(
      ["put", "Things"],
      '{"PartitionKey":"s","RowKey":"1"}\n{"PartitionKey":"s","RowKey":"a/b"}\n',
    );
    expect(tooBig.stderr).toMatch(/^error OutOfRangeInput: line 2: RowKey contains a forbidden character/m);
    const notJson = await run(["put", "Things"], '{"PartitionKey":"s","RowKey":"1"}\n{oops\n');
    expect(notJson.stderr).toMatch(/^error InvalidInput: line 2: not valid JSON/m);
    const left = await run(["query", "Things", "--partition", "s", "-o", "ndjson"]);
    expect(left.stdout).toBe("");
  });

  it("updates conditionally with --if-match and deletes", async () => {
    const { "odata.etag": etag } = JSON.parse((await run(["get", "Things", "q", "1", "-o", "json"])).stdout);
    const ok = await run(
      ["put", "Things", "--if-match", etag, "--mode", "merge"],
      '{"PartitionKey":"q","RowKey":"1","x":1}',
    );
    expect(ok.code).toBe(0);
    const stale = await run(["put", "Things", "--if-match", etag], '{"PartitionKey":"q","RowKey":"1","x":2}');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^error UpdateConditionNotSatisfied: /m);
    expect((await run(["delete", "Things", "q", "1", "--if-match", etag])).stderr).toMatch(
      /^error UpdateConditionNotSatisfied: /m,
    );
    expect((await run(["delete", "Things", "q", "1"])).code).toBe(0);
    const gone = await run(["get", "Things", "q", "1"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error ResourceNotFound: /m);
  });
});

describe("arguments that begin with '-'", { timeout: 120_000 }, () => {
  it("takes them after '--', and says so when they come without", async () => {
    expect((await run(["put", "Things"], '{"PartitionKey":"-east","RowKey":"-1","n":1}')).code).toBe(0);
    const bare = await run(["get", "Things", "-east", "-1"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^error Usage: unknown option '-east'.*goes after "--"/m);
    const got = await run(["get", "Things", "-o", "json", "--", "-east", "-1"]);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ PartitionKey: "-east", RowKey: "-1", n: 1 });
    expect((await run(["delete", "Things", "--", "-east", "-1"])).code).toBe(0);
    expect((await run(["get", "Things", "--", "-east", "-1"])).stderr).toMatch(/^error ResourceNotFound: /m);
  });
});

describe("query", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const lines = Array.from({ length: 25 }, (_, i) =>
      JSON.stringify({ PartitionKey: i < 12 ? "a" : "b", RowKey: String(i).padStart(3, "0"), n: i }),
    );
    writeFileSync(join(dir, "many.ndjson"), `${lines.join("\n")}\n`);
    expect((await run(["import", "Many", "many.ndjson"])).code).toBe(0);
  });

  it("points a caret at the position of a filter error, exit status 2", async () => {
    const r = await run(["query", "Many", "--filter", "n gt 3 and Name eq"]);
    expect(r.code).toBe(2);
    const lines = r.stderr.split("\n");
    expect(lines[0]).toMatch(/^error InvalidFilter: .* at position 18:$/);
    expect(lines[1]).toBe("n gt 3 and Name eq");
    expect(lines[2]).toBe(`${" ".repeat(18)}^`);
    // the caret points into the user's filter even with --partition added
    const withPartition = await run(["query", "Many", "--partition", "a", "--filter", "n gt"]);
    expect(withPartition.stderr.split("\n").slice(1, 3)).toEqual(["n gt", "    ^"]);
  });

  it("pages with --top and --continue, every entity exactly once, the token on stderr", async () => {
    const seen: string[] = [];
    let token: string | undefined;
    for (let i = 0; i < 10; i++) {
      const r = await run([
        "query",
        "Many",
        "--top",
        "7",
        "-o",
        "ndjson",
        ...(token ? ["--continue", token] : []),
      ]);
      expect(r.code).toBe(0);
      const page = ndjson(r.stdout);
      expect(page.length).toBeLessThanOrEqual(7);
      seen.push(...page.map((e) => String(e.RowKey)));
      token = /--continue (\S+)/.exec(r.stderr)?.[1];
      if (!token) break;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => String(i).padStart(3, "0")));
    const bad = await run(["query", "Many", "--continue", "garbage"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error InvalidContinuationToken: /m);
  });

  it("filters, selects and prints table, JSON, NDJSON and CSV", async () => {
    const args = ["query", "Many", "--partition", "b", "--filter", "n lt 15", "--select", "n"];
    const [table, json, lines, csv] = (await Promise.all(
      ["table", "json", "ndjson", "csv"].map((o) => run([...args, "-o", o])),
    )) as [CliResult, CliResult, CliResult, CliResult];
    expect(table.stdout).toMatch(/^PartitionKey\s+RowKey\s+n\n/);
    expect(table.stdout).toContain("3 entities");
    expect(JSON.parse(json.stdout).map((e: { n: number }) => e.n)).toEqual([12, 13, 14]);
    expect(ndjson(lines.stdout).map((e) => e.n)).toEqual([12, 13, 14]);
    expect(csv.stdout.split("\n")[0]).toBe("PartitionKey,RowKey,Timestamp,n@Edm.Int32");
    expect(csv.stdout.split("\n")[1]).toMatch(/^b,012,.*,12$/);
    expect(readFileSync(join(dir, "many.ndjson"), "utf8")).toContain('"RowKey":"012"');
  });

  it("filters on properties named like Object.prototype members (query and export)", async () => {
    const lines = ["constructor", "toString", "__proto__"].map((name, i) =>
      JSON.stringify({ PartitionKey: "proto", RowKey: String(i), [name]: "x" }),
    );
    expect((await run(["put", "Things"], lines.join("\n"))).code).toBe(0);
    for (const [i, name] of ["constructor", "toString", "__proto__"].entries()) {
      const filter = `PartitionKey eq 'proto' and ${name} eq 'x'`;
      const hits = ndjson((await run(["query", "Things", "--filter", filter, "-o", "ndjson"])).stdout);
      expect(
        hits.map((e) => e.RowKey),
        name,
      ).toEqual([String(i)]);
      const out = join(dir, `proto-${i}.ndjson`);
      expect((await run(["export", "Things", "--filter", filter, "--out", out])).code).toBe(0);
      expect(
        ndjson(readFileSync(out, "utf8")).map((e) => e.RowKey),
        name,
      ).toEqual([String(i)]);
    }
  });
});
