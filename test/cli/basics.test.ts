import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

const COMMANDS = [
  [],
  ["tables"],
  ["tables", "list"],
  ["tables", "create"],
  ["tables", "delete"],
  ["get"],
  ["put"],
  ["delete"],
  ["query"],
  ["keys"],
  ["keys", "inverted-ticks"],
  ["import"],
  ["export"],
  ["copy"],
  ["blob", "put"],
  ["blob", "get"],
  ["blob", "ls"],
  ["blob", "rm"],
  ["blob", "containers", "create"],
  ["demo"],
];

describe("tablekit: the command line itself", { timeout: 120_000 }, () => {
  it("prints --help for every command, exit 0, on stdout", async () => {
    const results = await Promise.all(COMMANDS.map((c) => cli([...c, "--help"], { cwd: dir })));
    results.forEach((r, i) => {
      expect(r.code, COMMANDS[i]!.join(" ")).toBe(0);
      expect(r.stdout).toMatch(/^Usage: tablekit/);
      expect(r.stdout).not.toContain("\u001b[");
    });
    // every command that opens a store takes --store (keys never opens one)
    COMMANDS.forEach((c, i) => {
      const opensStore = c.length > 0 && c[0] !== "keys" && !(c[0] === "tables" && c.length === 1);
      if (opensStore) expect(results[i]!.stdout, c.join(" ")).toContain("--store <url>");
    });
  });

  it("reports a usage error with exit status 2 and writes nothing", async () => {
    const unknown = await cli(["frobnicate"], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error Usage: unknown command 'frobnicate'/m);
    const missing = await cli(["get", "Things"], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error Usage: missing required argument/m);
    const badChoice = await cli(["query", "Things", "-o", "xml"], { cwd: dir });
    expect(badChoice.code).toBe(2);
    expect(existsSync(join(dir, "tablekit.db"))).toBe(false);
  });

  it("reports an unknown store URL with its code and exit status 2", async () => {
    const r = await cli(["tables", "--store", "nosuch:thing"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error InvalidStoreUrl: /m);
    const fromEnv = await cli(["tables"], { cwd: dir, env: { TABLEKIT_STORE: "bogus" } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^error InvalidStoreUrl: /m);
  });

  it("uses --store, then $TABLEKIT_STORE, then file:./tablekit.db", async () => {
    expect((await cli(["tables", "create", "Alpha"], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, "tablekit.db"))).toBe(true);
    const env = { TABLEKIT_STORE: "file:./env.db" };
    expect((await cli(["tables", "create", "Beta"], { cwd: dir, env })).code).toBe(0);
    expect(
      (await cli(["tables", "create", "Gamma", "--store", "file:./flag.db"], { cwd: dir, env })).code,
    ).toBe(0);
    const lists = await Promise.all([
      cli(["tables"], { cwd: dir }),
      cli(["tables", "list"], { cwd: dir, env }),
      cli(["tables", "list", "--store", "file:./flag.db", "-o", "json"], { cwd: dir, env }),
    ]);
    expect(lists.map((r) => r.stdout)).toEqual(["Alpha\n", "Beta\n", '["Gamma"]\n']);
  });

  it("creates, lists and deletes tables, with codes for the failures", async () => {
    const store = ["--store", "file:./tables.db"];
    await cli(["tables", "create", "Orders", ...store], { cwd: dir });
    const again = await cli(["tables", "create", "Orders", ...store], { cwd: dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error TableAlreadyExists: /m);
    expect((await cli(["tables", "create", "Orders", "--if-not-exists", ...store], { cwd: dir })).code).toBe(
      0,
    );
    const bad = await cli(["tables", "create", "1x", ...store], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error InvalidResourceName: /m);
    expect((await cli(["tables", "delete", "Orders", ...store], { cwd: dir })).code).toBe(0);
    const gone = await cli(["tables", "delete", "Orders", ...store], { cwd: dir });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe("error TableNotFound: The table 'Orders' does not exist.\n");
    const query = await cli(["query", "Orders", ...store], { cwd: dir });
    expect(query.stderr).toBe("error TableNotFound: The table 'Orders' does not exist.\n");
    expect((await cli(["tables", ...store], { cwd: dir })).stdout).toBe("");
  });
});
