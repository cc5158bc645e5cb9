/**
 * How writes spread over partitions: PartitionKeys that are instants (the prepend/append
 * anti-pattern of seed 001: every insert of a moment goes to one partition), and partitions that
 * took many writes in one second, read from the entities' Timestamps.
 */
import { type AnalyzerSettings, type Collector, Examples, plural, type ScannedEntity } from "./collector.js";
import { type AdvisorFinding, finding } from "./findings.js";
import { keyInstant, showKey } from "./key-shapes.js";
import { Reservoir } from "./reservoir.js";

interface Hot {
  readonly partitionKey: string;
  readonly peak: number;
  readonly second: number;
  readonly entities: number;
}

export class Partitions implements Collector {
  private partitions = 0;
  private timed = 0;
  private readonly timedExamples = new Examples(3);
  private lastTimed: string | undefined;
  /** (instant of the key, newest Timestamp in the partition) of time-keyed partitions. */
  private readonly timedSample = new Reservoir<[number, number]>(1000);
  private readonly hot: Hot[] = [];
  private hotCount = 0;
  /** Writes per second over the whole table (bounded: at most one entry per entity read). */
  private readonly tableSeconds = new Map<number, number>();
  // The current partition.
  private instant: number | undefined;
  private seconds = new Map<number, number>();
  private count = 0;
  private newest = 0;

  constructor(private readonly settings: AnalyzerSettings) {}

  startPartition(partitionKey: string): void {
    this.partitions++;
    this.instant = keyInstant(partitionKey);
    if (this.instant !== undefined) {
      this.timed++;
      this.timedExamples.add(showKey(partitionKey));
      this.lastTimed = partitionKey;
    }
    this.seconds = new Map();
    this.count = 0;
    this.newest = 0;
  }

  add(entity: ScannedEntity): void {
    this.count++;
    const second = Math.floor(entity.timestampMs / 1000);
    this.seconds.set(second, (this.seconds.get(second) ?? 0) + 1);
    if (this.tableSeconds.size < 1_000_000 || this.tableSeconds.has(second))
      this.tableSeconds.set(second, (this.tableSeconds.get(second) ?? 0) + 1);
    if (entity.timestampMs > this.newest) this.newest = entity.timestampMs;
  }

  endPartition(partitionKey: string): void {
    if (this.instant !== undefined) this.timedSample.add([this.instant, this.newest]);
    let peak = 0;
    let at = 0;
    for (const [second, n] of this.seconds) if (n > peak) [peak, at] = [n, second];
    if (peak >= this.settings.hotWritesPerSecond) {
      this.hotCount++;
      this.hot.push({ partitionKey, peak, second: at, entities: this.count });
      this.hot.sort((a, b) => b.peak - a.peak);
      if (this.hot.length > 5) this.hot.pop();
    }
  }

  findings(): AdvisorFinding[] {
    const out: AdvisorFinding[] = [];
    if (this.partitions >= 2 && this.timed >= 0.8 * this.partitions) {
      const rho = rankCorrelation(this.timedSample.items);
      const trend =
        rho >= 0.5
          ? ` Partitions with later keys hold the newer writes (rank correlation ${rho.toFixed(2)}): the current one takes every insert.`
          : "";
      if (this.lastTimed !== undefined) this.timedExamples.add(showKey(this.lastTimed));
      out.push(
        finding("partition-key-grows-with-time", "warning", {
          subject: "PartitionKey",
          count: this.timed,
          message: `${plural(this.timed, "PartitionKey")} of ${this.partitions.toLocaleString("en-US")} are instants (dates, hours, ticks): writes go to the partition of the current time.${trend}`,
          examples: this.timedExamples.list,
        }),
      );
    }
    if (this.hot.length > 0) {
      const top = this.hot[0]!;
      const inSecond = this.tableSeconds.get(top.second) ?? top.peak;
      out.push(
        finding("hot-partition", "warning", {
          subject: "PartitionKey",
          count: this.hotCount,
          message: `${plural(this.hotCount, "partition")} took ${this.settings.hotWritesPerSecond.toLocaleString("en-US")} or more writes in one second (by Timestamp); ${showKey(top.partitionKey)} took ${top.peak.toLocaleString("en-US")} at ${new Date(top.second * 1000).toISOString()}, ${Math.round((100 * top.peak) / inSecond)}% of the table's writes that second.`,
          examples: this.hot.map(
            (h) => `${showKey(h.partitionKey)}: ${h.peak.toLocaleString("en-US")} writes/s`,
          ),
        }),
      );
    }
    return out;
  }
}

/** Spearman's rank correlation of pairs (0 when it is undefined). */
export function rankCorrelation(pairs: readonly (readonly [number, number])[]): number {
  if (pairs.length < 3) return 0;
  const rank = (values: number[]) => {
    const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
    const ranks = new Array<number>(values.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
      for (let k = i; k <= j; k++) ranks[order[k]![1]] = (i + j) / 2;
      i = j + 1;
    }
    return ranks;
  };
  const x = rank(pairs.map((p) => p[0]));
  const y = rank(pairs.map((p) => p[1]));
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}
