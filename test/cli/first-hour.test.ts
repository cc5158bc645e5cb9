/**
 * What a new user meets in the first hour with the command (issue 35): filters whose whole numbers
 * match no Double, read-only commands on a mistyped path, the transactions' internal property, and
 * the noise around commands.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ndjson, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const run = (args: string[], input?: string) =>
  cli(args, { cwd: dir, ...(input === undefined ? {} : { input }) });

const SCORES = [9990.5, 9999, 9980].map((score, i) => ({
  PartitionKey: "p",
  RowKey: String(i),
  "Score@odata.type": "Edm.Double",
  Score: score,
  Age: 30 + i,
}));

beforeAll(async () => {
  expect((await run(["tables", "create", "Scores"])).code).toBe(0);
  for (const e of SCORES) expect((await run(["put", "Scores"], JSON.stringify(e))).code).toBe(0);
}, 120_000);

describe("a whole number compared with Doubles", { timeout: 120_000 }, () => {
  it("matches nothing, as on the service, and says in one line how to write the Double", async () => {
    const r = await run(["query", "Scores", "--filter", "Score gt 9990", "-o", "ndjson"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^hint: .*Score holds Doubles.*9990 is an Int32 literal.*write 9990\.0/);
  });

  it("names the Double property when the filter also compares an Int32 one", async () => {
    const r = await run(["query", "Scores", "--filter", "Age gt 30 and Score gt 9990", "-o", "ndjson"]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^hint: .*Score holds Doubles.*\(Age gt 30 and Score gt 9990\.0 matches\)\n$/);
  });

  it("gives no hint when the Double literal matches or when something matched", async () => {
    const asDouble = await run(["query", "Scores", "--filter", "Score gt 9990.0", "-o", "ndjson"]);
    expect(ndjson(asDouble.stdout).map((e) => e.RowKey)).toEqual(["0", "1"]);
    expect(asDouble.stderr).not.toContain("hint");
    const ints = await run(["query", "Scores", "--filter", "Age gt 30", "-o", "ndjson"]);
    expect(ndjson(ints.stdout).map((e) => e.RowKey)).toEqual(["1", "2"]);
    expect(ints.stderr).not.toContain("hint");
    // Nothing would match as a Double either: no hint.
    const none = await run(["query", "Scores", "--filter", "Score gt 100000", "-o", "ndjson"]);
    expect(none.stdout).toBe("");
    expect(none.stderr).not.toContain("hint");
  });
});

describe("a command that only reads, on a store that does not exist", { timeout: 120_000 }, () => {
  it("fails with a clear error, exit 1, and creates no directory and no file", async () => {
    const missing = join(dir, "nonexistent", "dir", "x.db");
    for (const args of [
      ["tables"],
      ["query", "Orders"],
      ["get", "Orders", "p", "r"],
      ["export", "Orders"],
      ["queue", "list"],
      ["blob", "ls", "logs"],
      ["explore", "--read-only"],
    ]) {
      // explore takes the store as its argument.
      const store = args[0] === "explore" ? [`file:${missing}`] : ["--store", `file:${missing}`];
      const r = await run([...args, ...store]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr, args.join(" ")).toMatch(
        new RegExp(
          `^error FileNotAccessible: Cannot read the store file:${missing}: it does not exist \\(ENOENT\\); a command that only reads creates no database`,
        ),
      );
      expect(r.stdout).toBe("");
    }
    expect(existsSync(join(dir, "nonexistent"))).toBe(false);
    // One that writes creates it, and then the reads work.
    expect((await run(["tables", "create", "Orders", "--store", `file:${missing}`])).code).toBe(0);
    expect(await run(["tables", "--store", `file:${missing}`])).toMatchObject({
      code: 0,
      stdout: "Orders\n",
    });
  });
});

describe("tablekit's internal property", { timeout: 120_000 }, () => {
  it("is hidden from query and get unless --internal (or --select) asks for it; export keeps it", async () => {
    const entity = { PartitionKey: "p", RowKey: "tx", amount: 5, tablekit_tx: "1|b|iX|journal|0:1:step" };
    expect((await run(["tables", "create", "Moves"])).code).toBe(0);
    expect((await run(["put", "Moves"], JSON.stringify(entity))).code).toBe(0);
    const shown = ndjson((await run(["query", "Moves", "-o", "ndjson"])).stdout);
    expect(shown).toHaveLength(1);
    expect(shown[0]).not.toHaveProperty("tablekit_tx");
    expect(shown[0]).toMatchObject({ amount: 5 });
    expect((await run(["query", "Moves"])).stdout).not.toContain("tablekit_tx");
    expect((await run(["get", "Moves", "p", "tx"])).stdout).not.toContain("tablekit_tx");
    const all = ndjson((await run(["query", "Moves", "-o", "ndjson", "--internal"])).stdout);
    expect(all[0]).toMatchObject({ tablekit_tx: entity.tablekit_tx });
    const selected = ndjson(
      (await run(["query", "Moves", "-o", "ndjson", "--select", "tablekit_tx"])).stdout,
    );
    expect(selected[0]).toMatchObject({ tablekit_tx: entity.tablekit_tx });
    expect((await run(["get", "Moves", "p", "tx", "--internal"])).stdout).toContain("tablekit_tx");
    expect((await run(["export", "Moves"])).stdout).toContain("tablekit_tx");
  });
});

describe("the noise around commands", { timeout: 120_000 }, () => {
  it("names the default store only when it creates it, and every store with --verbose", async () => {
    const fresh = tempDir();
    try {
      const first = await cli(["tables", "create", "Alpha"], { cwd: fresh.dir });
      expect(first.stderr).toBe(
        "store file:./tablekit.db (the default; name another with --store)\ncreated table Alpha\n",
      );
      const second = await cli(["tables"], { cwd: fresh.dir });
      expect(second).toMatchObject({ code: 0, stdout: "Alpha\n", stderr: "" });
      const verbose = await cli(["tables", "--verbose", "--store", "memory:"], { cwd: fresh.dir });
      expect(verbose.stderr).toBe("store memory: (from --store)\nno tables\n");
    } finally {
      fresh.cleanup();
    }
  });

  it("says so when there are no tables, on stderr; JSON stays []", async () => {
    expect(await run(["tables", "--store", "memory:"])).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "no tables\n",
    });
    expect(await run(["tables", "--store", "memory:", "--prefix", "Zz"])).toMatchObject({
      stderr: "no tables whose name starts with Zz\n",
    });
    expect(await run(["tables", "--store", "memory:", "-o", "json"])).toMatchObject({
      stdout: "[]\n",
      stderr: "",
    });
  });

  it("answers a misspelt option with one line: did you mean, without the '--' hint", async () => {
    const r = await run(["query", "Scores", "--fitler", "Age gt 30"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error Usage: unknown option '--fitler': did you mean --filter? (see --help)\n");
    // A value that begins with "-" still gets the '--' hint.
    expect((await run(["get", "Scores", "-east", "r1"])).stderr).toContain('goes after "--"');
  });

  it("suggests gt for >, and single quotes for double-quoted strings", async () => {
    const gt = await run(["query", "Scores", "--filter", "Age > 30"]);
    expect(gt.code).toBe(2);
    expect(gt.stderr).toContain("Unexpected character '>' (write 'gt' for >) at position 4");
    const ge = await run(["query", "Scores", "--filter", "Age >= 30"]);
    expect(ge.stderr).toContain("(write 'ge' for >=)");
    const quotes = await run(["query", "Scores", "--filter", 'Name eq "Ada"']);
    expect(quotes.code).toBe(2);
    expect(quotes.stderr).toContain(
      "Unexpected character '\"' (strings are in single quotes: 'Ada') at position 8",
    );
  });
});
