/** `tablekit get TABLE PK RK`: one entity, with its types. */
import type { Command } from "commander";
import { INTERNAL_PROPERTIES, rowFromResult, withoutInternal } from "../formats/entity-row.js";
import { encodeTypedJson } from "../formats/typed-json.js";
import {
  jsonOption,
  nameList,
  outputOption,
  selectWithKeys,
  usingStore,
  withStoreOption,
} from "../options.js";
import { writeEntityCard } from "../output/entity-output.js";
import { terminal } from "../output/terminal.js";

export function registerGet(program: Command): void {
  withStoreOption(
    program
      .command("get")
      .description("show one entity and the EDM type of each property")
      .argument("<table>", "table name")
      .argument("<partitionKey>", "the entity's PartitionKey")
      .argument("<rowKey>", "the entity's RowKey")
      .option("--select <names>", "only these properties (comma-separated)", nameList)
      .option(
        "--internal",
        `also show tablekit's internal properties (${[...INTERNAL_PROPERTIES].join(", ")})`,
      )
      .addOption(outputOption(["table", "json"], "table"))
      .addOption(jsonOption())
      .addHelpText(
        "after",
        "\nExamples:\n  tablekit get Employees Sales empid_000223\n  tablekit get Orders 2026 0001 -o json",
      ),
  ).action(
    async (
      table: string,
      partitionKey: string,
      rowKey: string,
      opts: { store?: string; select?: string[]; output: string; internal?: boolean },
    ) => {
      await usingStore(
        opts.store,
        async (store) => {
          const entity = await store
            .table(table)
            .getEntity(
              partitionKey,
              rowKey,
              opts.select ? { queryOptions: { select: selectWithKeys(opts.select) } } : {},
            );
          const read = rowFromResult(entity);
          const row = opts.internal || opts.select ? read : withoutInternal(read);
          const out = terminal().out;
          if (opts.output === "json") out.line(encodeTypedJson(row, { etag: true }));
          else writeEntityCard(out, row);
        },
        { readOnly: true },
      );
    },
  );
}
