/**
 * The edges of what the CLI reads and writes: partitions interleaved in an import, CSV errors
 * inside multi-line records, byte-order marks, invalid UTF-8, files that cannot be read or
 * written (a stable code, and nothing created), and store paths the file system refuses.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CliResult, cli, finished, ndjson, startCli, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
let dirs = 0;

/** A fresh empty working directory: commands there use its default store, ./tablekit.db. */
function freshDir(): string {
  const d = join(dir, `case${dirs++}`);
  mkdirSync(d);
  return d;
}

const runIn = (cwd: string, args: string[], input?: string) =>
  cli(args, { cwd, ...(input === undefined ? {} : { input }) });

async function ok(cwd: string, args: string[]): Promise<CliResult> {
  const r = await runIn(cwd, args);
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r;
}

async function entities(cwd: string, table: string): Promise<Record<string, unknown>[]> {
  return ndjson((await ok(cwd, ["export", table])).stdout);
}

describe("import of interleaved partitions", { timeout: 60_000 }, () => {
  it("writes each partition's lines in one transaction when they fit the window", async () => {
    const cwd = freshDir();
    const lines = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ PartitionKey: `p${i % 4}`, RowKey: String(i).padStart(3, "0"), n: i }),
    );
    writeFileSync(join(cwd, "mixed.ndjson"), `${lines.join("\n")}\n`);
    await ok(cwd, ["import", "Mixed", "mixed.ndjson"]);
    const all = await entities(cwd, "Mixed");
    expect(all).toHaveLength(200);
    // One transaction per partition: its 50 entities share one Timestamp.
    for (let p = 0; p < 4; p++) {
      const stamps = new Set(all.filter((e) => e.PartitionKey === `p${p}`).map((e) => e.Timestamp));
      expect(stamps.size, `p${p}`).toBe(1);
    }
  });
});

describe("CSV errors inside multi-line records", { timeout: 60_000 }, () => {
  it("name the line the record starts on, and the state file agrees", async () => {
    const cwd = freshDir();
    const bad = 'PartitionKey,RowKey,note\na,1,one\na,2,"two\nlines"x\na,3,three\n';
    writeFileSync(join(cwd, "multi.csv"), bad);
    const r = await runIn(cwd, ["import", "Multi", "multi.csv"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error InvalidInput: line 3: unexpected "x" after a closing quote \(found on line 4\)/m,
    );
    const state = JSON.parse(readFileSync(join(cwd, "multi.csv.tablekit-import.json"), "utf8"));
    expect(state.line).toBe(2);
    expect((await entities(cwd, "Multi")).map((e) => e.RowKey)).toEqual(["1"]);
    writeFileSync(join(cwd, "multi.csv"), bad.replace('lines"x', 'lines"'));
    const fixed = await ok(cwd, ["import", "Multi", "multi.csv"]);
    expect(fixed.stderr).toContain("resuming after line 2");
    expect((await entities(cwd, "Multi")).map((e) => [e.RowKey, e.note])).toEqual([
      ["1", "one"],
      ["2", "two\nlines"],
      ["3", "three"],
    ]);
  });

  it("a quote inside an unquoted field of a record's later line names the record's first line", async () => {
    const cwd = freshDir();
    writeFileSync(join(cwd, "quote.csv"), 'PartitionKey,RowKey,a,b\na,1,"x\ny",z"q\n');
    const r = await runIn(cwd, ["import", "Quote", "quote.csv"]);
    expect(r.stderr).toMatch(
      /^error InvalidInput: line 2: a quote inside an unquoted field .*\(found on line 3\)/m,
    );
  });
});

describe("encodings", { timeout: 60_000 }, () => {
  const BOM = "\uFEFF";

  it("a UTF-8 byte-order mark is dropped, in CSV and in NDJSON, for import and put", async () => {
    const cwd = freshDir();
    writeFileSync(join(cwd, "excel.csv"), `${BOM}PartitionKey,RowKey,Name\r\np,1,Ada\r\n`);
    writeFileSync(join(cwd, "bom.ndjson"), `${BOM}{"PartitionKey":"p","RowKey":"2","Name":"Grace"}\n`);
    await ok(cwd, ["import", "Bom", "excel.csv"]);
    await ok(cwd, ["import", "Bom", "bom.ndjson"]);
    await ok(cwd, ["put", "Bom", "bom.ndjson"]);
    const r = await runIn(cwd, ["put", "Bom"], `${BOM}{"PartitionKey":"p","RowKey":"3","Name":"Edsger"}`);
    expect(r.code, r.stderr).toBe(0);
    expect((await entities(cwd, "Bom")).map((e) => [e.RowKey, e.Name])).toEqual([
      ["1", "Ada"],
      ["2", "Grace"],
      ["3", "Edsger"],
    ]);
  });

  it("invalid UTF-8 is refused with its line number, and nothing is stored as U+FFFD", async () => {
    const cwd = freshDir();
    const line = (rk: string, name: Buffer) =>
      Buffer.concat([
        Buffer.from(`{"PartitionKey":"p","RowKey":"${rk}","Name":"`),
        name,
        Buffer.from('"}\n'),
      ]);
    const file = Buffer.concat([
      line("1", Buffer.from("ok")),
      line("2", Buffer.from("é")),
      line("3", Buffer.from([0x41, 0xc3, 0x28])), // a lead byte without its continuation
      line("4", Buffer.from("fine")),
    ]);
    writeFileSync(join(cwd, "latin.ndjson"), file);
    const r = await runIn(cwd, ["import", "Latin", "latin.ndjson"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error InvalidInput: line 3: not valid UTF-8/m);
    expect((await entities(cwd, "Latin")).map((e) => e.Name)).toEqual(["ok", "é"]);
    expect(JSON.parse(readFileSync(join(cwd, "latin.ndjson.tablekit-import.json"), "utf8")).line).toBe(2);
    writeFileSync(
      join(cwd, "latin.csv"),
      Buffer.concat([Buffer.from("PartitionKey,RowKey,Name\np,9,"), Buffer.from([0xff]), Buffer.from("\n")]),
    );
    expect((await runIn(cwd, ["import", "Latin", "latin.csv"])).stderr).toMatch(
      /^error InvalidInput: line 2: not valid UTF-8/m,
    );
    const put = await runIn(cwd, ["put", "Latin", "latin.ndjson"]);
    expect(put.stderr).toMatch(/^error InvalidInput: line 3: not valid UTF-8/m);
    expect(JSON.stringify(await entities(cwd, "Latin"))).not.toContain("\uFFFD");
  });
});

describe("files that cannot be read or written", { timeout: 60_000 }, () => {
  /** Runs a command that must fail with FileNotAccessible and leave the directory as it was. */
  async function refused(args: string[], message: RegExp): Promise<void> {
    const cwd = freshDir();
    mkdirSync(join(cwd, "adir"));
    const before = readdirSync(cwd).sort();
    const r = await runIn(cwd, args);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error FileNotAccessible: /m);
    expect(r.stderr).toMatch(message);
    expect(readdirSync(cwd).sort(), "nothing created").toEqual(before);
  }

  it("import, put, export and copy name the file and create nothing, not even the store", async () => {
    await refused(
      ["import", "Imp", "missing.ndjson"],
      /Cannot read missing\.ndjson: it does not exist \(ENOENT\)/,
    );
    await refused(["import", "Imp", "adir"], /Cannot read adir: it is a directory \(EISDIR\)/);
    await refused(["put", "Imp", "missing.ndjson"], /Cannot read missing\.ndjson: it does not exist/);
    await refused(
      ["export", "Imp", "--out", "no/such/dir/out.ndjson"],
      /Cannot write no\/such\/dir\/out\.ndjson: it does not exist/,
    );
    await refused(["export", "Imp", "--out", "adir"], /Cannot write adir: it is a directory/);
    await refused(
      ["copy", "Imp", "--to", "memory:", "--state", "no/dir/state.json"],
      /Cannot write no\/dir\/state\.json/,
    );
  });

  it("a file: store whose directory cannot be created fails at once (procfs made mkdir loop forever)", async () => {
    const cwd = freshDir();
    // A command that writes (one that only reads opens no store that does not exist: first-hour.test.ts).
    const child = startCli(["tables", "create", "Alpha", "--store", "file:/proc/no/x.db"], { cwd });
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const r = await finished(child);
    clearTimeout(timer);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error FileNotAccessible: Cannot create the directory \/proc\/no: it does not exist \(ENOENT\)/m,
    );
    writeFileSync(join(cwd, "plain"), "");
    const underFile = await runIn(cwd, ["tables", "create", "Alpha", "--store", "file:plain/x.db"]);
    expect(underFile.stderr).toMatch(
      /^error FileNotAccessible: Cannot create the directory .*plain: a part of the path is not a directory/m,
    );
    const aDirectory = await runIn(cwd, ["tables", "create", "Alpha", "--store", `file:${cwd}`]);
    expect(aDirectory.stderr).toMatch(/^error FileNotAccessible: Cannot open the database file /m);
    expect(existsSync(join(cwd, "tablekit.db"))).toBe(false);
  });
});
