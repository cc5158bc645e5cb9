/**
 * The heart of `tablekit import`: validates each record, gathers records into entity group
 * transactions across a bounded window of partitions, commits them, and reports after each commit
 * the exact position to resume from. Exactness: a batch's lines count as written only once its
 * transaction committed, and a rerun skips exactly the lines counted; a line bad in itself stops
 * the import with every line before it written.
 */
import { actionPayloadBytes, type Limits, maxActionPayloadBytes, TableKitError } from "../../model/index.js";
import type { CheckedEntity, Table, UpdateMode } from "../../store/index.js";
import { atLine, entityFromRow, located } from "../formats/entity-row.js";
import { ImportLedger, type ImportPosition, type Slot, WrittenBefore } from "./import-ledger.js";
import type { InputRecord } from "./input-records.js";
import type { Batch } from "./partition-batcher.js";
import { PartitionWindow, type WindowItem } from "./partition-window.js";
import { upsertBatch } from "./upsert-batch.js";

/** Lines an import may hold back waiting for their partition's batch to fill (`--window`). */
export const DEFAULT_WINDOW_LINES = 10_000;
/** Bytes of actions (request payload) an import may hold back; past it the oldest buffers are written. */
export const WINDOW_BYTES = 32 * 1024 * 1024;

/** The position after a commit, with what the import has done so far. */
export interface ImportProgress extends ImportPosition {
  /** Entities written, by this run and the runs it resumes. */
  readonly entities: number;
  /** Lines of the transaction just committed. */
  readonly committedLines: readonly number[];
}

export interface ImportRecordsOptions {
  readonly table: Table;
  readonly limits: Limits;
  readonly mode: UpdateMode;
  /** Entities per transaction (at most the store's limit). */
  readonly batchSize?: number;
  readonly windowLines?: number;
  readonly windowBytes?: number;
  /** Validate every record and write nothing. */
  readonly check?: boolean;
  /** Where an earlier, interrupted run stopped. */
  readonly resumed?: ImportPosition & { readonly entities: number };
  /** Called after each committed transaction: record `progress` (the resume state) here. */
  readonly committed?: (progress: ImportProgress) => void | Promise<void>;
}

/** A valid record waiting for its transaction: only what writing it needs (the window holds thousands). */
interface Item extends WindowItem {
  /** Checked once against the table's rules; the transaction takes it without checking again. */
  readonly entity: CheckedEntity;
  readonly slot: Slot;
}

/** Imports `records`; returns the entities valid (with `check`) or written in all. */
export async function importRecords(
  records: AsyncIterable<InputRecord>,
  options: ImportRecordsOptions,
): Promise<number> {
  const { limits, check } = options;
  const ledger = new ImportLedger(options.resumed);
  const writtenBefore = new WrittenBefore(options.resumed);
  const window = new PartitionWindow<Item>({
    maxOperations: Math.min(
      options.batchSize ?? limits.maxTransactionOperations,
      limits.maxTransactionOperations,
    ),
    maxBytes: maxActionPayloadBytes(limits),
    maxLines: options.windowLines ?? DEFAULT_WINDOW_LINES,
    maxBufferedBytes: options.windowBytes ?? WINDOW_BYTES,
  });
  let entities = options.resumed?.entities ?? 0;
  let valid = 0;
  const commit = async (batches: Batch<Item>[]) => {
    for (const batch of batches) {
      const items = batch.items;
      try {
        await upsertBatch(
          options.table,
          items.map((i) => i.entity),
          options.mode,
        );
      } catch (error) {
        throw located(error, describeBatch(items), { line: items[0]!.line });
      }
      ledger.written(items.map((i) => i.slot));
      entities += items.length;
      await options.committed?.({ ...ledger.position(), entities, committedLines: items.map((i) => i.line) });
    }
  };

  const iterator = records[Symbol.asyncIterator]();
  for (;;) {
    let item: Item;
    try {
      const next = await iterator.next();
      if (next.done) break;
      const record = next.value;
      ledger.reach(record.line, record.offset);
      if (writtenBefore.covers(record.line, record.endLine)) {
        ledger.open(record, true);
        continue;
      }
      const input = entityFromRow(record.parse());
      const { partitionKey, rowKey } = input;
      const entity = checked(options.table, input, record.line);
      const size = actionPayloadBytes(options.table.tableName, {
        kind: "upsert",
        entity,
        mode: options.mode,
      });
      item = { partitionKey, rowKey, size, entity, line: record.line, slot: ledger.open(record) };
    } catch (error) {
      // A bad line N: write every line before it, so the state says "up to N-1", then stop.
      const line = error instanceof TableKitError ? error.details?.line : undefined;
      if (typeof line === "number") ledger.reach(line);
      if (!check) await commit(window.flush());
      throw error;
    }
    valid++;
    if (!check) await commit(window.add(item));
  }
  if (!check) await commit(window.flush());
  return check ? valid : entities;
}

function checked(table: Table, input: ReturnType<typeof entityFromRow>, line: number): CheckedEntity {
  try {
    return table.checkEntity(input);
  } catch (error) {
    throw atLine(error, line);
  }
}

/** `lines 201-300` for consecutive lines, else `100 lines of partition "p3" from line 201 to 5151`. */
function describeBatch(items: readonly Item[]): string {
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const span =
    last.slot.endLine - first.line + 1 === items.length || items.length === 1
      ? `lines ${first.line}-${last.slot.endLine}`
      : `${items.length} lines of partition ${JSON.stringify(first.partitionKey)} from line ${first.line} to ${last.slot.endLine}`;
  return `${span} (not written)`;
}
