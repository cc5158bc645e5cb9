/** `tablekit tables [list|create|delete]`: the tables of a store. */
import type { Command } from "commander";
import { isTableKitError } from "../../model/index.js";
import { jsonOption, outputOption, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";

export function registerTables(program: Command): void {
  const tables = program
    .command("tables")
    .description("list, create and delete tables")
    .addHelpText(
      "after",
      "\nExamples:\n  tablekit tables\n  tablekit tables create Orders\n  tablekit tables delete Orders",
    );

  withStoreOption(
    tables
      .command("list", { isDefault: true })
      .description("list the tables of the store, in name order")
      .option("--prefix <text>", "only tables whose name starts with this text")
      .addOption(outputOption(["text", "json"], "text"))
      .addOption(jsonOption()),
  ).action(async (opts: { store?: string; prefix?: string; output: string }) => {
    const out = terminal().out;
    await usingStore(
      opts.store,
      async (store) => {
        const names: string[] = [];
        for await (const t of store.listTables()) {
          if (opts.prefix === undefined || t.name.startsWith(opts.prefix)) names.push(t.name);
        }
        if (opts.output === "json") out.line(JSON.stringify(names));
        else for (const name of names) out.line(name);
        // On stderr: stdout stays one name a line (none here) for scripts.
        if (names.length === 0 && opts.output !== "json") {
          const err = terminal().err;
          err.line(
            err.style.dim(
              opts.prefix === undefined ? "no tables" : `no tables whose name starts with ${opts.prefix}`,
            ),
          );
        }
      },
      { readOnly: true },
    );
  });

  withStoreOption(
    tables
      .command("create")
      .description("create a table")
      .argument("<name>", "table name: a letter then 2-62 letters or digits")
      .option("--if-not-exists", "succeed when the table already exists"),
  ).action(async (name: string, opts: { store?: string; ifNotExists?: boolean }) => {
    await usingStore(opts.store, async (store) => {
      try {
        // Without --if-not-exists, an existing table is an error, as the command has always said.
        await store.createTable(name, { failIfExists: true });
        terminal().err.line(`created table ${name}`);
      } catch (err) {
        if (!(opts.ifNotExists && isTableKitError(err, "TableAlreadyExists"))) throw err;
        terminal().err.line(`table ${name} already exists`);
      }
    });
  });

  withStoreOption(
    tables
      .command("delete")
      .description("delete a table and every entity in it")
      .argument("<name>", "table name")
      .option("--if-exists", "succeed when the table does not exist"),
  ).action(async (name: string, opts: { store?: string; ifExists?: boolean }) => {
    await usingStore(opts.store, async (store) => {
      try {
        await store.deleteTable(name, { failIfMissing: true });
        terminal().err.line(`deleted table ${name}`);
      } catch (err) {
        if (!(opts.ifExists && isTableKitError(err, "TableNotFound"))) throw err;
        terminal().err.line(`table ${name} does not exist`);
      }
    });
  });
}
