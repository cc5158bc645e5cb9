/**
 * Runs every collector over entities read in key order, and sorts their findings. It holds one
 * partition's state at a time plus bounded statistics, so memory does not grow with the table.
 */
import { DateTime, type TableEntityResult, typedProperties } from "../model/index.js";
import type { AnalyzerSettings, Collector } from "./collector.js";
import type { AdvisorFinding } from "./findings.js";
import { KeyText } from "./key-text.js";
import { ModelEntities } from "./model-entities.js";
import { NumericKeys } from "./numeric-keys.js";
import { Partitions } from "./partitions.js";
import { Properties } from "./properties.js";

export class TableAnalyzer {
  private readonly collectors: Collector[];
  private partitionKey: string | undefined;
  entities = 0;
  partitions = 0;

  constructor(settings: AnalyzerSettings) {
    this.collectors = [
      new NumericKeys(),
      new KeyText(settings),
      new Partitions(settings),
      new Properties(settings),
      new ModelEntities(settings.models),
    ];
  }

  /** The next entity in key order. */
  add(result: TableEntityResult): void {
    const partitionKey = result.partitionKey ?? "";
    if (partitionKey !== this.partitionKey) {
      this.endPartition(false);
      this.partitionKey = partitionKey;
      this.partitions++;
      for (const c of this.collectors) c.startPartition?.(partitionKey);
    }
    this.entities++;
    const entity = {
      partitionKey,
      rowKey: result.rowKey ?? "",
      timestampMs: result.timestamp ? timestampMs(result.timestamp) : 0,
      properties: typedProperties(result as Record<string, unknown>),
      result,
    };
    for (const c of this.collectors) c.add(entity);
  }

  /** Ends the current partition; `truncated` when the rest of it will not be read. */
  endPartition(truncated: boolean): void {
    if (this.partitionKey === undefined) return;
    for (const c of this.collectors) c.endPartition(this.partitionKey, truncated);
    this.partitionKey = undefined;
  }

  /** Every finding, errors first, then by id. */
  findings(): AdvisorFinding[] {
    this.endPartition(false);
    return sortFindings(this.collectors.flatMap((c) => c.findings()));
  }
}

/** Milliseconds of a Timestamp: the engine's ISO parser (fast), else the exact one (years before 100). */
function timestampMs(text: string): number {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? DateTime.parse(text).epochMilliseconds : ms;
}

/** Errors before warnings, then by id and subject: a stable order for reports and tests. */
export function sortFindings(findings: AdvisorFinding[]): AdvisorFinding[] {
  const rank = (f: AdvisorFinding) => (f.severity === "error" ? 0 : 1);
  return findings.sort(
    (a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id) || a.subject.localeCompare(b.subject),
  );
}
