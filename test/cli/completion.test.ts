/**
 * `tablekit completion bash|zsh|fish`: the scripts, and the answers they ask the binary for
 * (`tablekit complete -- WORDS…`): commands, subcommands, options and their choices. The bash
 * script runs in a real bash against the real binary.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, LAUNCH, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

/** The values the binary offers after `words` (the last word is the one being completed). */
async function offered(...words: string[]): Promise<string[]> {
  const r = await cli(["complete", "--", ...words], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith(":"))
    .map((line) => line.split("\t")[0]!);
}

describe("tablekit completion", { timeout: 60_000 }, () => {
  it("prints a script for bash, zsh and fish that asks tablekit itself", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const r = await cli(["completion", shell], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, shell).toContain("tablekit complete --");
    }
    const bad = await cli(["completion", "tcsh"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error Usage: .*tcsh/m);
  });

  it("offers the commands, a command's subcommands, its options, and an option's choices", async () => {
    expect(await offered("")).toEqual(
      expect.arrayContaining(["tables", "query", "import", "export", "completion"]),
    );
    expect(await offered("")).not.toContain("complete"); // the protocol command stays hidden
    expect(await offered("tables", "")).toEqual(expect.arrayContaining(["list", "create", "delete"]));
    expect(await offered("query", "Orders", "--")).toEqual(
      expect.arrayContaining(["--filter", "--store", "--output", "--json"]),
    );
    expect(await offered("query", "Orders", "-o", "")).toEqual(["table", "json", "ndjson", "csv"]);
    expect(await offered("completion", "")).toEqual(expect.arrayContaining(["bash", "zsh", "fish"]));
  });

  it("completes in a real bash: `tablekit ta<TAB>` gives tables", async () => {
    const script = (await cli(["completion", "bash"], { cwd: dir })).stdout;
    const path = join(dir, "tablekit.bash");
    writeFileSync(path, script);
    execFileSync("bash", ["-n", path]); // the script parses
    // bash-completion's _get_comp_words_by_ref (which the script calls) for the words given here;
    // `tablekit` is the binary under test.
    const session = `
      tablekit() { ${[process.execPath, ...LAUNCH].map((w) => `'${w}'`).join(" ")} "$@"; }
      _get_comp_words_by_ref() { cur="\${COMP_WORDS[COMP_CWORD]}"; words=("\${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
      source '${path}'
      COMP_WORDS=(tablekit ta); COMP_CWORD=1
      __tablekit_complete 2>/dev/null
      printf '%s\\n' "\${COMPREPLY[@]}"`;
    const reply = execFileSync("bash", ["-c", session], { cwd: dir, encoding: "utf8" });
    expect(reply.split("\n").filter(Boolean)).toEqual(["tables"]);
  });
});
