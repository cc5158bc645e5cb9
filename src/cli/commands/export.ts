/**
 * `tablekit export TABLE`: a table (or a filtered part) as NDJSON or typed CSV. With `--out`, the
 * export is resumable: after each page it records the continuation token and the file length.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import type { Store, Table } from "../../store/index.js";
import { checkWritable } from "../files.js";
import { type FilterOptions, filterFromOptions } from "../filter-option.js";
import { ColumnCollector, csvHeader, csvRow, type PropertyColumn } from "../formats/csv-entity.js";
import { type EntityRow, rowFromResult } from "../formats/entity-row.js";
import { encodeTypedJson } from "../formats/typed-json.js";
import { choiceOption, positiveInt, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";
import { countEntities } from "../transfer/count.js";
import { formatOfPath, INPUT_FORMATS, type InputFormat } from "../transfer/input-records.js";
import { OutputFile } from "../transfer/output-file.js";
import { progressWanted, startProgress } from "../transfer/progress.js";
import { StateFile, type StateHeader } from "../transfer/state-file.js";

interface ExportOptions extends FilterOptions {
  store?: string;
  out?: string;
  format?: InputFormat;
  restart?: boolean;
  progress?: boolean;
  pageSize?: number;
  pause?: number;
}

/** Recorded next to the output after each page: the file holds `bytes` bytes, `token` reads on. */
interface ExportState extends StateHeader {
  readonly kind: "export";
  readonly token: string | null;
  readonly bytes: number;
  readonly entities: number;
  readonly columns?: PropertyColumn[];
}

export function registerExport(program: Command): void {
  withStoreOption(
    program
      .command("export")
      .description("export a table as NDJSON or typed CSV (every EDM type kept exactly)")
      .argument("<table>", "table name")
      .option("--out <file>", "output file (resumable); default stdout")
      .addOption(
        choiceOption("--format <format>", "ndjson or csv (default: from --out's extension)", INPUT_FORMATS),
      )
      .option("-f, --filter <filter>", "only entities matching this $filter")
      .option("-p, --partition <key>", "only this PartitionKey")
      .option(
        "--page-size <n>",
        "entities per page read (default and maximum: the store's, 1000)",
        positiveInt(),
      )
      .option(
        "--pause <ms>",
        "wait after each page, to stay under a service's throughput target",
        positiveInt(),
      )
      .option("--restart", "ignore the resume state of an earlier, interrupted export")
      .option("--no-progress", "no progress bar (and no counting pass)")
      .addHelpText(
        "after",
        "\nAn interrupted export to --out resumes from its last page when rerun (state in FILE.tablekit-export.json).\n\nExamples:\n  tablekit export Orders --out orders.ndjson\n  tablekit export Orders --out orders.csv --partition 2026",
      ),
  ).action(async (tableName: string, opts: ExportOptions) => {
    const filter = filterFromOptions(opts);
    // Files first: an export that cannot write its output or its state creates nothing.
    if (opts.out) {
      checkWritable(opts.out);
      checkWritable(`${opts.out}.tablekit-export.json`);
    }
    await usingStore(opts.store, (store) => runExport(store, tableName, filter, opts), { readOnly: true });
  });
}

async function runExport(store: Store, tableName: string, filter: string | undefined, opts: ExportOptions) {
  const format = opts.format ?? (opts.out ? formatOfPath(opts.out) : "ndjson");
  const table = store.table(tableName);
  const job = { store: store.url, table: tableName, filter: filter ?? null, format };
  const stateFile = opts.out ? new StateFile<ExportState>(`${opts.out}.tablekit-export.json`) : undefined;
  if (opts.restart) stateFile?.remove();
  const resumed = stateFile?.resumable("export", job);

  const columns = format === "csv" ? (resumed?.columns ?? (await collectColumns(table, filter))) : undefined;
  const encode = (row: EntityRow) => (columns ? csvRow(row, columns) : encodeTypedJson(row));
  const file = opts.out
    ? resumed
      ? OutputFile.resume(opts.out, resumed.bytes)
      : OutputFile.create(opts.out)
    : undefined;
  const write = (text: string) => (file ? file.write(text) : terminal().out.write(text));
  let entities = resumed?.entities ?? 0;
  const record = (token: string | null) => {
    if (!file || !stateFile) return;
    file.sync();
    const base = { kind: "export" as const, job, token, bytes: file.position, entities };
    stateFile.write(columns ? { ...base, columns } : base);
  };
  if (resumed) terminal().err.line(`resuming after ${resumed.entities} entities`);
  else if (columns) {
    write(`${csvHeader(columns)}\n`);
    record(null);
  }

  const showProgress = progressWanted(opts.progress);
  const progress = startProgress({
    enabled: showProgress,
    label: `export ${tableName}`,
    unit: "entities",
    ...(showProgress ? { total: await countEntities(table, filter) } : {}),
    start: entities,
  });
  let completed = false;
  try {
    const pages = table.listEntities({ queryOptions: filter === undefined ? {} : { filter } }).byPage({
      maxPageSize: Math.min(
        opts.pageSize ?? store.capabilities.limits.maxPageSize,
        store.capabilities.limits.maxPageSize,
      ),
      ...(resumed?.token ? { continuationToken: resumed.token } : {}),
    });
    for await (const page of pages) {
      if (page.length > 0) write(`${page.map((e) => encode(rowFromResult(e))).join("\n")}\n`);
      entities += page.length;
      progress.update(entities);
      if (page.continuationToken !== undefined) {
        record(page.continuationToken);
        if (opts.pause) await sleep(opts.pause);
      }
    }
    completed = true;
  } finally {
    progress.stop(completed);
    file?.close();
  }
  stateFile?.remove();
  terminal().err.line(`exported ${entities} entities${opts.out ? ` to ${opts.out}` : ""}`);
}

/** CSV needs its columns before the first row: one pass over the entities to collect them. */
async function collectColumns(table: Table, filter: string | undefined): Promise<PropertyColumn[]> {
  const collector = new ColumnCollector();
  for await (const entity of table.listEntities({ queryOptions: filter === undefined ? {} : { filter } })) {
    collector.add(rowFromResult(entity));
  }
  return collector.columns;
}
