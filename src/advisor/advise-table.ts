import { odata } from "../filter/index.js";
import type { Model } from "../patterns/entity-models/define-model.js";
import type { Store } from "../store/index.js";
import type { AnalyzerSettings } from "./collector.js";
import type { AdvisorFinding } from "./findings.js";
import { TableAnalyzer } from "./table-analyzer.js";

/** What the advisor read and what it found. */
export interface AdvisorReport {
  /** The table's name, or the model's entity type (or table) for `adviseModel`. */
  readonly subject: string;
  readonly source: "table" | "model";
  /** For a table: what was read. */
  readonly read?: AdvisorCoverage;
  /** Errors first, then warnings; empty when nothing goes against the catalogue. */
  readonly findings: readonly AdvisorFinding[];
}

/** How much of a table the advisor read. */
export interface AdvisorCoverage {
  readonly entities: number;
  readonly partitions: number;
  /** Partitions of which only the first `maxPerPartition` entities were read. */
  readonly partialPartitions: number;
  /** False when `maxEntities` stopped the scan before the end of the table. */
  readonly complete: boolean;
}

/** Progress of a table scan, reported after each page. */
export interface AdviseProgress {
  readonly entities: number;
  readonly partitions: number;
}

/** Options of `adviseTable`. */
export interface AdviseTableOptions {
  /** The models whose entities the table holds: their index copies are checked against their entities. */
  // biome-ignore lint/suspicious/noExplicitAny: any model, whatever its fields.
  readonly models?: readonly Model<any, any, any, any, any>[];
  /** Entities to read at most (default 200,000): a bounded sample of a large table, in key order. */
  readonly maxEntities?: number;
  /** Entities to read of one partition before skipping to the next (default 20,000). */
  readonly maxPerPartition?: number;
  /** A fraction of a limit that counts as near it (default 0.9). */
  readonly nearLimit?: number;
  /** Writes to one partition in one second that make it hot (default 1,000; Azure's target is 2,000). */
  readonly hotWritesPerSecond?: number;
  /** How far ahead growth is projected, in days (default 90). */
  readonly growthHorizonDays?: number;
  readonly onProgress?: (progress: AdviseProgress) => void;
  readonly abortSignal?: AbortSignal;
}

/**
 * Reads a table in key order — all of it, or a bounded sample: at most `maxPerPartition` entities
 * of each partition and `maxEntities` in all — and reports what in its keys and entities goes
 * against the catalogue. Memory stays bounded whatever the table's size (streaming statistics,
 * one partition's keys at a time, reservoir samples). See docs/advisor.md.
 *
 * @example const report = await adviseTable(store, "Orders"); // report.findings: [] when clean
 */
export async function adviseTable(
  store: Store,
  tableName: string,
  options: AdviseTableOptions = {},
): Promise<AdvisorReport> {
  const maxEntities = options.maxEntities ?? 200_000;
  const maxPerPartition = options.maxPerPartition ?? 20_000;
  const analyzer = new TableAnalyzer(settingsFor(store, options));
  const table = store.table(tableName);
  const pageSize = store.capabilities.limits.maxPageSize;
  let filter: string | undefined;
  let partial = 0;
  let complete = true;
  let inPartition = 0;
  let current: string | undefined;
  scan: for (;;) {
    const pages = table
      .listEntities({
        queryOptions: filter === undefined ? {} : { filter },
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      })
      .byPage({ maxPageSize: pageSize });
    let skipTo: string | undefined;
    for await (const page of pages) {
      for (const entity of page) {
        if (entity.partitionKey !== current) {
          current = entity.partitionKey;
          inPartition = 0;
        }
        analyzer.add(entity);
        inPartition++;
        if (analyzer.entities >= maxEntities) {
          complete = false;
          break scan;
        }
        if (inPartition >= maxPerPartition) {
          skipTo = current;
          break;
        }
      }
      options.onProgress?.({ entities: analyzer.entities, partitions: analyzer.partitions });
      if (skipTo !== undefined) break;
    }
    if (skipTo === undefined) break;
    // The rest of a large partition is skipped: the next query starts after it.
    partial++;
    analyzer.endPartition(true);
    filter = odata`PartitionKey gt ${skipTo}`;
  }
  options.onProgress?.({ entities: analyzer.entities, partitions: analyzer.partitions });
  if (!complete) analyzer.endPartition(true);
  const findings = analyzer.findings();
  return {
    subject: tableName,
    source: "table",
    read: {
      entities: analyzer.entities,
      partitions: analyzer.partitions,
      partialPartitions: partial + (complete ? 0 : 1),
      complete,
    },
    findings,
  };
}

function settingsFor(store: Store, options: AdviseTableOptions): AnalyzerSettings {
  return {
    limits: store.capabilities.limits,
    keyOrder: store.capabilities.keyOrder,
    nearLimit: options.nearLimit ?? 0.9,
    hotWritesPerSecond: options.hotWritesPerSecond ?? 1000,
    growthHorizonDays: options.growthHorizonDays ?? 90,
    models: (options.models ?? []).map((m) => m.compiled),
  };
}
