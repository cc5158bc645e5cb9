/** `tablekit query TABLE`: a `$filter` query, a page at a time or all of it. */
import type { Command } from "commander";
import type { Table } from "../../store/index.js";
import { wholeNumberHint } from "../double-hint.js";
import { filterFromOptions } from "../filter-option.js";
import {
  type EntityRow,
  INTERNAL_PROPERTIES,
  rowFromResult,
  withoutInternal,
} from "../formats/entity-row.js";
import {
  jsonOption,
  nameList,
  outputOption,
  positiveInt,
  selectWithKeys,
  usingStore,
  withStoreOption,
} from "../options.js";
import { entityWriter, OUTPUT_FORMATS, type OutputFormat } from "../output/entity-output.js";
import { terminal } from "../output/terminal.js";

interface QueryOptions {
  store?: string;
  filter?: string;
  select?: string[];
  top?: number;
  partition?: string;
  output: OutputFormat;
  continue?: string;
  internal?: boolean;
}

export function registerQuery(program: Command): void {
  withStoreOption(
    program
      .command("query")
      .description("query a table with a $filter, in PartitionKey then RowKey order")
      .argument("<table>", "table name")
      .option("-f, --filter <filter>", "an OData $filter, e.g. \"Age gt 30 and Name eq 'Ada'\"")
      .option("-p, --partition <key>", "only this PartitionKey (combined with --filter by 'and')")
      .option("--select <names>", "only these properties (comma-separated)", nameList)
      .option("-t, --top <n>", "at most n entities; prints a token to continue from", positiveInt())
      .option("-c, --continue <token>", "resume where a previous query with the same filter stopped")
      .option(
        "--internal",
        `also show tablekit's internal properties (${[...INTERNAL_PROPERTIES].join(", ")})`,
      )
      .addOption(outputOption(OUTPUT_FORMATS, "table"))
      .addOption(jsonOption())
      .addHelpText(
        "after",
        `\nExamples:\n  tablekit query Employees --partition Sales --filter "Age gt 30"\n  tablekit query Orders --top 50 -o ndjson\n  tablekit query Orders --top 50 --continue tk2.…`,
      ),
  ).action(async (tableName: string, opts: QueryOptions) => {
    const filter = filterFromOptions(opts);
    await usingStore(
      opts.store,
      async (store) => {
        const writer = entityWriter(opts.output, terminal().out);
        const maxPage = store.capabilities.limits.maxPageSize;
        let shown = 0;
        const next = await readPages(store.table(tableName), filter, { ...opts, maxPage }, (rows) => {
          shown += rows.length;
          writer.write(opts.internal || opts.select ? rows : rows.map(withoutInternal));
        });
        writer.end();
        if (shown === 0 && opts.continue === undefined) {
          const hint = await wholeNumberHint(store.table(tableName), filter);
          if (hint) terminal().err.line(terminal().err.style.dim(hint));
        }
        if (next !== undefined) {
          const err = terminal().err;
          err.line(`${err.style.dim("more entities: continue with")} --continue ${next}`);
        }
      },
      { readOnly: true },
    );
  });
}

/**
 * Reads pages until `top` entities (or the end); returns the token after the last entity read when
 * more may follow. Each page asks for exactly what is still wanted, so the token resumes exactly.
 */
async function readPages(
  table: Table,
  filter: string | undefined,
  opts: QueryOptions & { maxPage: number },
  emit: (rows: EntityRow[]) => void,
): Promise<string | undefined> {
  const queryOptions = {
    ...(filter === undefined ? {} : { filter }),
    ...(opts.select ? { select: selectWithKeys(opts.select) } : {}),
  };
  let token = opts.continue;
  let remaining = opts.top ?? Number.POSITIVE_INFINITY;
  while (remaining > 0) {
    const pages = table.listEntities({ queryOptions }).byPage({
      maxPageSize: Math.min(remaining, opts.maxPage),
      ...(token === undefined ? {} : { continuationToken: token }),
    });
    const { value: page, done } = await pages.next();
    if (done || !page) return undefined;
    emit(page.map(rowFromResult));
    remaining -= page.length;
    token = page.continuationToken;
    if (token === undefined) return undefined;
  }
  return token;
}
