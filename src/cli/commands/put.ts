/** `tablekit put TABLE [FILE]`: write entities given as JSON or NDJSON (typed encoding). */
import type { Command } from "commander";
import { entityFromRow, located } from "../formats/entity-row.js";
import { openInput, readEntities } from "../formats/read-input.js";
import { choiceOption, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";
import { usageError } from "../report.js";

interface PutOptions {
  store?: string;
  mode: "replace" | "merge" | "create";
  ifMatch?: string;
}

export function registerPut(program: Command): void {
  withStoreOption(
    program
      .command("put")
      .description("write entities from a JSON object, a JSON array or NDJSON (typed: see docs/cli.md)")
      .argument("<table>", "table name")
      .argument("[file]", "input file; '-' or absent reads stdin")
      .addOption(
        choiceOption(
          "-m, --mode <mode>",
          "replace: insert or replace; merge: insert or merge; create: insert, fail if present",
          ["replace", "merge", "create"],
          "replace",
        ),
      )
      .option("--if-match <etag>", "update one existing entity only if it still has this ETag")
      .addHelpText(
        "after",
        `\nExamples:\n  echo '{"PartitionKey":"p","RowKey":"1","n@odata.type":"Edm.Int64","n":"42"}' | tablekit put Things\n  tablekit put Things entities.ndjson --mode merge`,
      ),
  ).action(async (table: string, file: string | undefined, opts: PutOptions) => {
    if (file === undefined && process.stdin.isTTY) throw usageError("give a file, or pipe entities on stdin");
    const inputs = await readEntities(openInput(file ?? "-"));
    if (opts.ifMatch !== undefined && (inputs.length !== 1 || opts.mode === "create")) {
      throw usageError("--if-match updates exactly one entity, with --mode replace or merge");
    }
    await usingStore(opts.store, async (store) => {
      const t = store.table(table);
      // Check every entity before writing any, so bad input writes nothing (writes take them unchecked again).
      const entities = inputs.map(({ row, where }) => {
        try {
          return t.checkEntity(entityFromRow(row));
        } catch (err) {
          throw located(err, where, {});
        }
      });
      const mode = opts.mode === "merge" ? "Merge" : "Replace";
      for (const entity of entities) {
        if (opts.ifMatch !== undefined) await t.updateEntity(entity, mode, { etag: opts.ifMatch });
        else if (opts.mode === "create") await t.createEntity(entity);
        else await t.upsertEntity(entity, mode);
      }
      terminal().err.line(
        `put ${entities.length} ${entities.length === 1 ? "entity" : "entities"} into ${table}`,
      );
    });
  });
}
