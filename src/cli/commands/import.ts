/**
 * `tablekit import TABLE FILE`: NDJSON or typed CSV into a table, in entity group transactions
 * of one partition each, resumable after an interruption from the last committed line.
 */
import { createReadStream, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import { type NormalizedEntity, normalizeEntity, TableKitError } from "../../model/index.js";
import type { Store, Table, UpdateMode } from "../../store/index.js";
import { atLine, entityFromRow, located } from "../formats/entity-row.js";
import { choiceOption, positiveInt, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";
import { formatOfPath, INPUT_FORMATS, type InputFormat, inputRecords } from "../transfer/input-records.js";
import { type Batch, PartitionBatcher } from "../transfer/partition-batcher.js";
import { type Progress, progressWanted, startProgress } from "../transfer/progress.js";
import { StateFile, type StateHeader } from "../transfer/state-file.js";
import { upsertBatch } from "../transfer/upsert-batch.js";

interface ImportOptions {
  store?: string;
  format?: InputFormat;
  mode: "replace" | "merge";
  batchSize?: number;
  pause?: number;
  restart?: boolean;
  check?: boolean;
  progress?: boolean;
}

/** What the state file next to the input records: every line up to `line` is committed. */
interface ImportState extends StateHeader {
  readonly kind: "import";
  readonly line: number;
  readonly offset: number;
  readonly entities: number;
}

interface Item {
  readonly entity: NormalizedEntity;
  readonly input: ReturnType<typeof entityFromRow>;
  readonly line: number;
  readonly endLine: number;
  readonly endOffset: number;
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
        "--pause <ms>",
        "wait after each transaction, to stay under a service's throughput target",
        positiveInt(),
      )
      .option("--check", "validate the whole file and write nothing")
      .option("--restart", "ignore the resume state of an earlier, interrupted import")
      .option("--no-progress", "no progress bar")
      .addHelpText(
        "after",
        "\nAn interrupted import resumes from its last committed line when rerun (state in FILE.tablekit-import.json).\nA bad line N stops the import with lines 1..N-1 written.\n\nExamples:\n  tablekit import Orders orders.ndjson\n  tablekit import Orders orders.csv --check",
      ),
  ).action(async (tableName: string, file: string, opts: ImportOptions) => {
    await usingStore(opts.store, (store) => runImport(store, tableName, file, opts));
  });
}

async function runImport(store: Store, tableName: string, file: string, opts: ImportOptions): Promise<void> {
  const err = terminal().err;
  const format = opts.format ?? formatOfPath(file);
  const limits = store.capabilities.limits;
  const job = { store: store.url, table: tableName, format, mode: opts.mode };
  const stateFile =
    file === "-" || opts.check ? undefined : new StateFile<ImportState>(`${file}.tablekit-import.json`);
  if (opts.restart) stateFile?.remove();
  const resumed = stateFile?.resumable("import", job);
  const size = file === "-" ? undefined : statSync(file).size;
  if (resumed && size !== undefined && size < resumed.offset) {
    throw new TableKitError(
      "InvalidInput",
      `${file} is shorter than when the import stopped at line ${resumed.line}; use --restart to import it afresh`,
    );
  }
  if (resumed)
    err.line(`resuming after line ${resumed.line} (${resumed.entities} entities already imported)`);

  const table = store.table(tableName);
  if (!opts.check) await table.createTable();
  const progress = startProgress({
    enabled: progressWanted(opts.progress),
    label: `import ${tableName}`,
    unit: "bytes",
    ...(size === undefined ? {} : { total: size }),
    start: resumed?.offset ?? 0,
  });
  const writer = new BatchWriter(table, opts, stateFile, job, resumed, progress);
  const batcher = new PartitionBatcher<Item>({
    maxOperations: Math.min(
      opts.batchSize ?? limits.maxTransactionOperations,
      limits.maxTransactionOperations,
    ),
    maxBytes: limits.maxTransactionBytes,
  });
  const source = file === "-" ? process.stdin : createReadStream(file);
  let valid = 0;
  const records = inputRecords(source, format)[Symbol.asyncIterator]();
  let completed = false;
  try {
    for (;;) {
      let item: Item | undefined;
      try {
        const next = await records.next();
        if (next.done) break;
        const record = next.value;
        if (record.endLine <= (resumed?.line ?? 0)) continue;
        const input = entityFromRow(record.parse());
        item = { entity: checked(() => normalizeEntity(input, limits), record.line), input, ...record };
      } catch (error) {
        // Every line before the bad one is valid: write them, so the state points at the bad line.
        if (!opts.check) await writer.commit(batcher.flush());
        throw error;
      }
      valid++;
      if (!opts.check) await writer.commit(batcher.add(item));
    }
    if (!opts.check) await writer.commit(batcher.flush());
    completed = true;
  } finally {
    progress.stop(completed);
  }
  stateFile?.remove();
  if (opts.check) err.line(`checked ${valid} entities: the file is valid; nothing was written`);
  else err.line(`imported ${writer.entities} entities into ${tableName}`);
}

/** Runs a check of one line's entity; its error names the line. */
function checked<T>(check: () => T, line: number): T {
  try {
    return check();
  } catch (error) {
    throw atLine(error, line);
  }
}

/** Commits batches and records each in the state file. */
class BatchWriter {
  entities: number;

  constructor(
    private readonly table: Table,
    private readonly opts: ImportOptions,
    private readonly stateFile: StateFile<ImportState> | undefined,
    private readonly job: Record<string, unknown>,
    resumed: ImportState | undefined,
    private readonly progress: Progress,
  ) {
    this.entities = resumed?.entities ?? 0;
  }

  async commit(batch: Batch<Item> | undefined): Promise<void> {
    if (!batch) return;
    const first = batch.items[0]!;
    const last = batch.items[batch.items.length - 1]!;
    const mode: UpdateMode = this.opts.mode === "merge" ? "Merge" : "Replace";
    try {
      await upsertBatch(
        this.table,
        batch.items.map((i) => i.input),
        mode,
      );
    } catch (error) {
      throw located(error, `lines ${first.line}-${last.endLine} (not written)`, { line: first.line });
    }
    this.entities += batch.items.length;
    this.stateFile?.write({
      kind: "import",
      job: this.job,
      line: last.endLine,
      offset: last.endOffset,
      entities: this.entities,
    });
    this.progress.update(last.endOffset);
    if (this.opts.pause) await sleep(this.opts.pause);
  }
}
