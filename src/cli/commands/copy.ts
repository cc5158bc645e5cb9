/**
 * `tablekit copy TABLE --from URL --to URL`: a table between any two stores, one source page at a
 * time, each page's partitions in entity group transactions; resumable from the last page; ends
 * by counting both sides.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import { actionPayloadBytes, maxActionPayloadBytes } from "../../model/index.js";
import type { CheckedEntity, Store, Table } from "../../store/index.js";
import { checkWritable } from "../files.js";
import { type FilterOptions, filterFromOptions } from "../filter-option.js";
import { entityFromRow, located, rowFromResult } from "../formats/entity-row.js";
import { choiceOption, positiveInt, resolveStoreUrl, STORE_DEFAULTS, usingStore } from "../options.js";
import { terminal } from "../output/terminal.js";
import { reportFailure, usageError } from "../report.js";
import { countEntities } from "../transfer/count.js";
import { type Batch, PartitionBatcher } from "../transfer/partition-batcher.js";
import { progressWanted, startProgress } from "../transfer/progress.js";
import { StateFile, type StateHeader } from "../transfer/state-file.js";
import { upsertBatch } from "../transfer/upsert-batch.js";

interface CopyOptions extends FilterOptions {
  from?: string;
  store?: string;
  to: string;
  toTable?: string;
  mode: "replace" | "merge";
  batchSize?: number;
  pageSize?: number;
  pause?: number;
  state?: string;
  restart?: boolean;
  progress?: boolean;
}

/** Every source page before `token` is committed to the target. */
interface CopyState extends StateHeader {
  readonly kind: "copy";
  readonly token: string;
  readonly entities: number;
}

interface Item {
  /** Checked once against the target's rules; the transaction takes it without checking again. */
  readonly entity: CheckedEntity;
  readonly size: number;
}

export function registerCopy(program: Command): void {
  program
    .command("copy")
    .description("copy a table between two stores, batched by partition, resumable, with a count check")
    .argument("<table>", "source table name")
    .option("--from <url>", `source store (default: --store, ${STORE_DEFAULTS})`)
    .option("-s, --store <url>", "same as --from")
    .requiredOption("--to <url>", "target store URL")
    .option("--to-table <name>", "target table name (default: the source's; created if missing)")
    .option("-f, --filter <filter>", "only entities matching this $filter")
    .option("-p, --partition <key>", "only this PartitionKey")
    .addOption(
      choiceOption(
        "-m, --mode <mode>",
        "replace or merge entities that exist",
        ["replace", "merge"],
        "replace",
      ),
    )
    .option("--batch-size <n>", "entities per transaction (at most the target's limit, 100)", positiveInt())
    .option(
      "--page-size <n>",
      "entities per source page, the unit of resumption (default: 1000)",
      positiveInt(),
    )
    .option("--pause <ms>", "wait after each transaction", positiveInt())
    .option("--state <file>", "resume state file (default: .tablekit-copy-<table>.json)")
    .option("--restart", "ignore the resume state of an earlier, interrupted copy")
    .option("--no-progress", "no progress bar (and no counting pass before copying)")
    .addHelpText(
      "after",
      "\nExamples:\n  tablekit copy Orders --from file:./dev.db --to file:./backup.db\n  tablekit copy Orders --to memory: --to-table OrdersCopy",
    )
    .action(async (tableName: string, opts: CopyOptions) => {
      const filter = filterFromOptions(opts);
      const fromUrl = resolveStoreUrl(opts.from ?? opts.store);
      const toTable = opts.toTable ?? tableName;
      if (fromUrl === opts.to && toTable.toLowerCase() === tableName.toLowerCase()) {
        throw usageError("the source and the target are the same table");
      }
      // Files first: a copy that cannot record its state creates nothing.
      checkWritable(statePathOf(tableName, opts));
      await usingStore(
        fromUrl,
        (from) =>
          usingStore(opts.to, (to) =>
            runCopy(from.table(tableName), to, toTable, filter, { ...opts, from, to }),
          ),
        { readOnly: true },
      );
    });
}

async function runCopy(
  source: Table,
  toStore: Store,
  toTable: string,
  filter: string | undefined,
  opts: Omit<CopyOptions, "from" | "to"> & { from: Store; to: Store },
): Promise<void> {
  const err = terminal().err;
  const target = toStore.table(toTable);
  const limits = toStore.capabilities.limits;
  const job = {
    from: opts.from.url,
    table: source.tableName,
    to: toStore.url,
    toTable,
    filter: filter ?? null,
    mode: opts.mode,
  };
  const stateFile = new StateFile<CopyState>(statePathOf(source.tableName, opts));
  if (opts.restart) stateFile.remove();
  const resumed = stateFile.resumable("copy", job);
  if (resumed) err.line(`resuming after ${resumed.entities} entities`);
  await target.createTable();

  const showProgress = progressWanted(opts.progress);
  let copied = resumed?.entities ?? 0;
  const progress = startProgress({
    enabled: showProgress,
    label: `copy ${source.tableName}`,
    unit: "entities",
    ...(showProgress ? { total: await countEntities(source, filter) } : {}),
    start: copied,
  });
  const batcher = new PartitionBatcher<Item>({
    maxOperations: Math.min(
      opts.batchSize ?? limits.maxTransactionOperations,
      limits.maxTransactionOperations,
    ),
    maxBytes: maxActionPayloadBytes(limits),
  });
  const mode = opts.mode === "merge" ? "Merge" : "Replace";
  const sourceLimit = opts.from.capabilities.limits.maxPageSize;
  const commit = async (batch: Batch<Item> | undefined) => {
    if (!batch) return;
    await upsertBatch(
      target,
      batch.items.map((i) => i.entity),
      mode,
    );
    if (opts.pause) await sleep(opts.pause);
  };
  let completed = false;
  try {
    const pages = source.listEntities({ queryOptions: filter === undefined ? {} : { filter } }).byPage({
      maxPageSize: Math.min(opts.pageSize ?? sourceLimit, sourceLimit),
      ...(resumed ? { continuationToken: resumed.token } : {}),
    });
    for await (const page of pages) {
      for (const result of page) {
        const input = entityFromRow(rowFromResult(result));
        let entity: CheckedEntity;
        try {
          // The target may be stricter than the source (DynamoDB's item size, say): say which entity.
          entity = target.checkEntity(input);
        } catch (error) {
          throw located(
            error,
            `entity ${JSON.stringify(input.partitionKey)} / ${JSON.stringify(input.rowKey)}`,
            {},
          );
        }
        const size = actionPayloadBytes(target.tableName, { kind: "upsert", entity, mode });
        await commit(batcher.add({ entity, size }));
      }
      await commit(batcher.flush());
      copied += page.length;
      progress.update(copied);
      if (page.continuationToken !== undefined) {
        stateFile.write({ kind: "copy", job, token: page.continuationToken, entities: copied });
      }
    }
    completed = true;
  } finally {
    progress.stop(completed);
  }
  stateFile.remove();

  const sourceCount = await countEntities(source, filter);
  const targetCount = await countEntities(target, filter);
  terminal().out.line(`copied ${copied} entities`);
  terminal().out.line(
    `source ${source.tableName}: ${sourceCount} entities${filter ? " (matching the filter)" : ""}`,
  );
  terminal().out.line(`target ${toTable}: ${targetCount} entities${filter ? " (matching the filter)" : ""}`);
  if (sourceCount !== targetCount) {
    reportFailure(
      "CountMismatch",
      `the target holds ${targetCount} entities, the source ${sourceCount}: the target had other entities, or the source changed during the copy`,
      err,
    );
  }
}

/** Where a copy records its progress: `--state`, else a file named after the table in the working directory. */
function statePathOf(tableName: string, opts: Pick<CopyOptions, "state">): string {
  return opts.state ?? `.tablekit-copy-${tableName}.json`;
}
