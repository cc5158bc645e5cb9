/**
 * One output convention: every command that prints results takes `-o, --output <format>`, and
 * `--json` everywhere `-o json` is accepted, with the same output.
 */
import type { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import { cli, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

function allCommands(command: Command, path: string[] = []): [string, Command][] {
  return command.commands.flatMap((c) => {
    const here = [...path, c.name()];
    return [[here.join(" "), c] as [string, Command], ...allCommands(c, here)];
  });
}

describe("output options", { timeout: 60_000 }, () => {
  it("every command with --output json also takes --json, and --json never stands alone", () => {
    const inconsistent: string[] = [];
    let withJson = 0;
    for (const [name, command] of allCommands(buildProgram("0.0.0"))) {
      const output = command.options.find((o) => o.long === "--output");
      const json = command.options.some((o) => o.long === "--json");
      const offersJson = output?.argChoices?.includes("json") === true;
      if (offersJson !== json) inconsistent.push(name);
      if (json) withJson++;
    }
    expect(inconsistent).toEqual([]);
    expect(withJson).toBeGreaterThanOrEqual(8); // tables, get, query, keys, advise, queue and blob listings
  });

  it("--json prints what -o json prints, on a listing and on the advisor", async () => {
    const store = ["--store", "file:./json.db"];
    await cli(["tables", "create", "Orders", ...store], { cwd: dir });
    await cli(["put", "Orders", ...store], { cwd: dir, input: '{"PartitionKey":"p","RowKey":"1","n":1}' });
    for (const args of [["tables"], ["query", "Orders"], ["get", "Orders", "p", "1"], ["advise", "Orders"]]) {
      const [json, dashO] = await Promise.all([
        cli([...args, ...store, "--json"], { cwd: dir }),
        cli([...args, ...store, "-o", "json"], { cwd: dir }),
      ]);
      expect(json.stdout, args.join(" ")).toBe(dashO.stdout);
      expect(json.stdout.trim(), args.join(" ")).toMatch(/^[[{][\s\S]*[\]}]$/);
    }
  });
});
