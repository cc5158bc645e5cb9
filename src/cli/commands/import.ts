/**
 * `tablekit import TABLE FILE`: NDJSON or typed CSV into a table, in entity group transactions
 * of one partition each (gathered across a window of interleaved partitions), resumable after an
 * interruption with every line written exactly once.
 */
import { statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import { TableKitError } from "../../model/index.js";
import type { Store } from "../../store/index.js";
import { checkReadable, checkWritable } from "../files.js";
import { openInput } from "../formats/read-input.js";
import { choiceOption, positiveInt, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";
import type { ImportPosition } from "../transfer/import-ledger.js";
import { DEFAULT_WINDOW_LINES, importRecords } from "../transfer/import-records.js";
import { formatOfPath, INPUT_FORMATS, type InputFormat, inputRecords } from "../transfer/input-records.js";
import { progressWanted, startProgress } from "../transfer/progress.js";
import { StateFile, type StateHeader } from "../transfer/state-file.js";

interface ImportOptions {
  store?: string;
  format?: InputFormat;
  mode: "replace" | "merge";
  batchSize?: number;
  window?: number;
  pause?: number;
  restart?: boolean;
  check?: boolean;
  progress?: boolean;
}

/** The state file next to the input: every line up to `line`, and the `written` ranges, are written. */
interface ImportState extends StateHeader, ImportPosition {
  readonly kind: "import";
  readonly entities: number;
}

export function registerImport(program: Command): void {
  withStoreOption(
    program
      .command("import")
      .description("import NDJSON or typed CSV into a table (batched by partition, resumable)")
      .argument("<table>", "table name (created if missing)")
      .argument("<file>", "input file ('-' reads stdin, without resume)")
      .addOption(
        choiceOption("--format <format>", "input format (default: from the extension)", INPUT_FORMATS),
      )
      .addOption(
        choiceOption(
          "-m, --mode <mode>",
          "replace or merge entities that exist",
          ["replace", "merge"],
          "replace",
        ),
      )
      .option("--batch-size <n>", "entities per transaction (at most the store's limit, 100)", positiveInt())
      .option(
        "--window <lines>",
        `lines a partition's entities may wait for its transaction to fill (default ${DEFAULT_WINDOW_LINES})`,
        positiveInt(1_000_000),
      )
      .option(
        "--pause <ms>",
        "wait after each transaction, to stay under a service's throughput target",
        positiveInt(),
      )
      .option("--check", "validate the whole file and write nothing")
      .option("--restart", "ignore the resume state of an earlier, interrupted import")
      .option("--no-progress", "no progress bar")
      .addHelpText(
        "after",
        "\nAn interrupted import resumes when rerun, writing every line once (state in FILE.tablekit-import.json).\nA bad line N stops the import with lines 1..N-1 written.\n\nExamples:\n  tablekit import Orders orders.ndjson\n  tablekit import Orders orders.csv --check",
      ),
  ).action(async (tableName: string, file: string, opts: ImportOptions) => {
    // Files first: an import that cannot read its input or record its state creates nothing.
    const statePath = file === "-" || opts.check ? undefined : `${file}.tablekit-import.json`;
    if (file !== "-") checkReadable(file);
    if (statePath) checkWritable(statePath);
    await usingStore(opts.store, (store) => runImport(store, tableName, file, statePath, opts));
  });
}

async function runImport(
  store: Store,
  tableName: string,
  file: string,
  statePath: string | undefined,
  opts: ImportOptions,
): Promise<void> {
  const err = terminal().err;
  const format = opts.format ?? formatOfPath(file);
  const job = { store: store.url, table: tableName, format, mode: opts.mode };
  const stateFile = statePath ? new StateFile<ImportState>(statePath) : undefined;
  if (opts.restart) stateFile?.remove();
  const resumed = stateFile?.resumable("import", job);
  const size = file === "-" ? undefined : statSync(file).size;
  if (resumed && size !== undefined && size < resumed.offset) {
    throw new TableKitError(
      "InvalidInput",
      `${file} is shorter than when the import stopped at line ${resumed.line}; use --restart to import it afresh`,
    );
  }
  if (resumed) {
    const ahead = (resumed.written ?? []).reduce((n, [first, last]) => n + last - first + 1, 0);
    err.line(
      `resuming after line ${resumed.line}${ahead ? ` and ${ahead} lines written beyond it` : ""} (${resumed.entities} entities already imported)`,
    );
  }

  const table = store.table(tableName);
  if (!opts.check) await table.createTable();
  const progress = startProgress({
    enabled: progressWanted(opts.progress),
    label: `import ${tableName}`,
    unit: "bytes",
    countsEntities: true,
    ...(size === undefined ? {} : { total: size }),
    start: resumed?.offset ?? 0,
    startEntities: resumed?.entities ?? 0,
  });
  let completed = false;
  let count: number;
  try {
    count = await importRecords(inputRecords(openInput(file), format), {
      table,
      limits: store.capabilities.limits,
      mode: opts.mode === "merge" ? "Merge" : "Replace",
      ...(opts.batchSize === undefined ? {} : { batchSize: opts.batchSize }),
      ...(opts.window === undefined ? {} : { windowLines: opts.window }),
      ...(opts.check ? { check: true } : {}),
      ...(resumed ? { resumed: { ...resumed, written: resumed.written ?? [] } } : {}),
      committed: async ({ line, offset, written, entities }) => {
        stateFile?.write({ kind: "import", job, line, offset, written, entities });
        progress.update(offset, entities);
        if (opts.pause) await sleep(opts.pause);
      },
    });
    completed = true;
  } finally {
    progress.stop(completed);
  }
  stateFile?.remove();
  if (opts.check) err.line(`checked ${count} entities: the file is valid; nothing was written`);
  else err.line(`imported ${count} entities into ${tableName}`);
}
