/** The `tablekit` command line: every command, registered on one commander program. */
import tab from "@bomb.sh/tab/commander";
import { Command } from "commander";
import { registerAdvise } from "./commands/advise.js";
import { registerBlob } from "./commands/blob.js";
import { registerCopy } from "./commands/copy.js";
import { registerDelete } from "./commands/delete.js";
import { registerDemo } from "./commands/demo.js";
import { registerExplore } from "./commands/explore.js";
import { registerExport } from "./commands/export.js";
import { registerGet } from "./commands/get.js";
import { registerImport } from "./commands/import.js";
import { registerKeys } from "./commands/keys.js";
import { registerPut } from "./commands/put.js";
import { registerQuery } from "./commands/query.js";
import { registerQueue } from "./commands/queue.js";
import { registerServe } from "./commands/serve.js";
import { registerTables } from "./commands/tables.js";
import { terminal } from "./output/terminal.js";
import { setVerbose } from "./store-choice.js";

/** Builds the program. Errors are thrown (exitOverride), never `process.exit`ed, so stores close. */
export function buildProgram(version: string): Command {
  const program = new Command("tablekit")
    .description(
      "Partition-key/row-key tables from the terminal: query, import, export, copy, a demo, and an Azure Table server",
    )
    .version(version, "-V, --version")
    .option("--verbose", "say on stderr which store each command opens, and what named it")
    .hook("preAction", (root) => setVerbose(root.opts().verbose === true))
    .exitOverride()
    .configureOutput({
      writeOut: (s) => terminal().out.write(s),
      writeErr: (s) => terminal().err.write(s),
      // Usage errors are printed by reportError as `error Usage: …`.
      outputError: () => {},
    });
  registerDemo(program);
  registerTables(program);
  registerGet(program);
  registerPut(program);
  registerDelete(program);
  registerQuery(program);
  registerKeys(program);
  registerImport(program);
  registerExport(program);
  registerCopy(program);
  registerQueue(program);
  registerBlob(program);
  registerServe(program);
  registerAdvise(program);
  registerExplore(program);
  // `tablekit completion bash|zsh|fish|powershell` prints a script that asks the hidden
  // `tablekit complete -- …` for the commands, options and choices of this program.
  tab(program, { completionCommandName: "completion" });
  program.commands
    .find((c) => c.name() === "completion")
    ?.description("print a shell completion script: bash, zsh, fish or powershell")
    .addHelpText(
      "after",
      "\nExamples:\n  source <(tablekit completion bash)                 # this shell; add the line to ~/.bashrc to keep it\n  tablekit completion zsh > ~/.tablekit-completion.zsh\n  tablekit completion fish > ~/.config/fish/completions/tablekit.fish",
    );
  return program;
}
