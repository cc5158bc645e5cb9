/** `tablekit delete TABLE PK RK`: delete one entity. */
import type { Command } from "commander";
import { usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";

export function registerDelete(program: Command): void {
  withStoreOption(
    program
      .command("delete")
      .description("delete one entity")
      .argument("<table>", "table name")
      .argument("<partitionKey>", "the entity's PartitionKey")
      .argument("<rowKey>", "the entity's RowKey")
      .option("--if-match <etag>", "delete only if the entity still has this ETag (default: any)")
      .addHelpText("after", "\nExample:\n  tablekit delete Orders 2026 0001"),
  ).action(
    async (
      table: string,
      partitionKey: string,
      rowKey: string,
      opts: { store?: string; ifMatch?: string },
    ) => {
      await usingStore(opts.store, async (store) => {
        await store.table(table).deleteEntity(partitionKey, rowKey, { etag: opts.ifMatch ?? "*" });
        terminal().err.line(
          `deleted ${JSON.stringify(partitionKey)} / ${JSON.stringify(rowKey)} from ${table}`,
        );
      });
    },
  );
}
