/**
 * A scan across many small partitions through the official SDK: 500 entities over 10 partitions,
 * read whole (every page) again and again. Pages that fill across partitions read it in one round
 * trip; pages that end at each partition boundary (`--pages partition`) take one per partition.
 */
import { TableClient } from "@azure/data-tables";
import { sized } from "./bench-mode.js";
import { processTreeCpuMicros } from "./process-cpu.js";

export interface ScanTarget {
  readonly name: string;
  readonly connectionString: string;
  /** The server's process, to charge it its CPU. */
  readonly pid: number;
}

export interface ScanResult {
  /** Median milliseconds per whole scan. */
  readonly ms: number;
  /** Pages per scan. */
  readonly pages: number;
  /** The server's CPU milliseconds per scan (steadier than wall time on a busy machine). */
  readonly cpuMs: number | undefined;
}

const PARTITIONS = 10;
const PER_PARTITION = 50;
const SCANS = sized(40, 2);

/** Fills a fresh table of `target` and times whole scans of it; the median of `SCANS` runs. */
export async function scanAcrossPartitions(target: ScanTarget): Promise<ScanResult> {
  const table = TableClient.fromConnectionString(target.connectionString, `Scan${target.name}`, {
    allowInsecureConnection: true,
  });
  await table.createTable();
  for (let p = 0; p < PARTITIONS; p++) {
    await table.submitTransaction(
      Array.from({ length: PER_PARTITION }, (_, r) => [
        "create",
        { partitionKey: `p${p}`, rowKey: String(r).padStart(4, "0"), n: r, s: `item ${r}` },
      ]),
    );
  }
  const times: number[] = [];
  let pages = 0;
  let cpuBefore: number | undefined;
  for (let i = 0; i < SCANS + 1; i++) {
    const started = performance.now();
    let count = 0;
    pages = 0;
    for await (const page of table.listEntities().byPage()) {
      count += page.length;
      pages++;
    }
    if (count !== PARTITIONS * PER_PARTITION) throw new Error(`${target.name}: scanned ${count}`);
    if (i > 0) times.push(performance.now() - started);
    else cpuBefore = processTreeCpuMicros(target.pid); // the first scan warms up
  }
  const cpuAfter = processTreeCpuMicros(target.pid);
  times.sort((a, b) => a - b);
  const cpuMs =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / 1000 / SCANS;
  return { ms: times[Math.floor(times.length / 2)]!, pages, cpuMs };
}

/** The rows: tablekit filling pages, tablekit paging per partition, Azurite; ratios are Azurite's over tablekit's. */
export function scanRows(
  fill: ScanResult,
  partition: ScanResult,
  azurite: ScanResult,
): Record<string, Record<string, string>> {
  const label = `scan ${PARTITIONS * PER_PARTITION} entities over ${PARTITIONS} partitions`;
  const wall = (r: ScanResult) => `${r.ms.toFixed(1)} (${r.pages})`;
  const cpu = (r: ScanResult) => (r.cpuMs === undefined ? "-" : r.cpuMs.toFixed(2));
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? "-" : `${(a / b).toFixed(1)}x`;
  return {
    [`${label}, ms end to end (pages)`]: {
      tablekit: wall(fill),
      azurite: wall(azurite),
      ratio: ratio(azurite.ms, fill.ms),
    },
    [`${label}, server CPU ms`]: {
      tablekit: cpu(fill),
      azurite: cpu(azurite),
      ratio: ratio(azurite.cpuMs, fill.cpuMs),
    },
    [`${label}, --pages partition, ms end to end (pages)`]: {
      tablekit: wall(partition),
      azurite: wall(azurite),
      ratio: ratio(azurite.ms, partition.ms),
    },
    [`${label}, --pages partition, server CPU ms`]: {
      tablekit: cpu(partition),
      azurite: cpu(azurite),
      ratio: ratio(azurite.cpuMs, partition.cpuMs),
    },
  };
}
