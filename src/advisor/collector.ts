/**
 * The advisor reads a table once, in key order, and hands each entity to collectors: each keeps
 * bounded statistics (counters, a few examples, reservoirs) and turns them into findings at the end.
 */
import type { Limits, TableEntityResult, TypedValue } from "../model/index.js";
import type { CompiledModel } from "../patterns/entity-models/define-model.js";
import type { AdvisorFinding } from "./findings.js";

/** One entity as the collectors see it. */
export interface ScannedEntity {
  readonly partitionKey: string;
  readonly rowKey: string;
  /** The store's Timestamp, ms since the Unix epoch. */
  readonly timestampMs: number;
  readonly properties: ReadonlyMap<string, TypedValue>;
  /** The entity as read (models decode from it). */
  readonly result: TableEntityResult;
}

/** What every collector is told, and what it may be asked. */
export interface Collector {
  /** Called before the first entity of each partition. */
  startPartition?(partitionKey: string): void;
  /** Called for each entity, in key order (partitions arrive whole, one after the other). */
  add(entity: ScannedEntity): void;
  /** Called after the last entity of a partition; `truncated` when the scan skipped the rest of it. */
  endPartition(partitionKey: string, truncated: boolean): void;
  findings(): AdvisorFinding[];
}

/** The thresholds the checks use (docs/advisor.md). */
export interface AnalyzerSettings {
  readonly limits: Limits;
  /** The order the store returns keys in; the other one is checked against it. */
  readonly keyOrder: "utf16" | "utf8";
  /** A fraction of a limit that counts as near it (default 0.9). */
  readonly nearLimit: number;
  /** Writes in one second to one partition that make it hot (default 1,000: half of Azure's 2,000/s target). */
  readonly hotWritesPerSecond: number;
  /** How far ahead a growth trend is projected, in days (default 90). */
  readonly growthHorizonDays: number;
  readonly models: readonly CompiledModel[];
}

/** At most `max` distinct examples, the first ones seen. */
export class Examples {
  private readonly items: string[] = [];
  constructor(private readonly max = 5) {}

  add(example: string): void {
    if (this.items.length < this.max && !this.items.includes(example)) this.items.push(example);
  }

  get list(): readonly string[] {
    return this.items;
  }
}

/** A map that stops taking new keys at `max` entries (existing ones still update). */
export function boundedGet<K, V>(map: Map<K, V>, key: K, max: number, create: () => V): V | undefined {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= max) return undefined;
    value = create();
    map.set(key, value);
  }
  return value;
}

export const KEY_KINDS = ["PartitionKey", "RowKey"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** `n thing` or `n things`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
