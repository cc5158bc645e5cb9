import { createInterface } from "node:readline";
import { TableKitError } from "../../model/index.js";
import type { BlobContainer, OperationOptions, Store } from "../../store/index.js";
import { LogNames, type PeriodMinutes } from "./log-names.js";
import { AppendSink, type BlobLogStats, BlockSink, type LogSink } from "./log-sinks.js";
import { BlobLogWriter, type BlobLogWriterOptions } from "./log-writer.js";

export interface BlobLogOptions {
  /** The container the log's blobs go to (it must exist). */
  readonly container: BlobContainer;
  /** The log's name: the first segment of its blob names. */
  readonly source: string;
  /** Minutes per blob folder, dividing an hour (default 60, as Storage Analytics; 1 reads minute ranges exactly). */
  readonly periodMinutes?: PeriodMinutes;
  /** Size cap of one blob (default 64 MiB): past it a writer moves to the next blob of the period. */
  readonly maxBlobBytes?: number;
  /** "append": shared append blobs; "block": one new block blob per chunk. Default: "append" where the backend has append blobs and conditional writes. */
  readonly mode?: "append" | "block";
}

export interface ReadLogOptions extends OperationOptions {
  /** Records at or after this instant. */
  readonly from: Date;
  /** Records before this instant. */
  readonly to: Date;
}

/** A record as a reader returns it. */
export interface BlobLogEntry {
  readonly time: Date;
  /** The fields written, without `time`. */
  readonly fields: Record<string, unknown>;
  /** The blob it was read from. */
  readonly blob: string;
}

const DEFAULT_MAX_BLOB_BYTES = 64 * 1024 * 1024;
/** Largest chunk a block-blob writer uploads (a flush larger than this becomes several blobs). */
const MAX_BLOCK_CHUNK = 64 * 1024 * 1024;

/**
 * Log data in blobs (seed 001's log data anti-pattern and its Storage Analytics solution): records
 * as NDJSON lines in blobs named by time, `<source>/<yyyy>/<MM>/<dd>/<HHmm>/<000001>.log`, written
 * through a buffered `writer()` and read back for a time range by listing only the prefixes that
 * range needs.
 */
export class BlobLog {
  readonly names: LogNames;
  readonly container: BlobContainer;
  readonly mode: "append" | "block";
  readonly maxBlobBytes: number;
  private readonly store: Store;

  constructor(store: Store, options: BlobLogOptions) {
    const caps = store.blobCapabilities;
    if (!caps) throw new TableKitError("NotSupported", `The store ${store.url} has no blob port`);
    this.store = store;
    this.container = options.container;
    this.names = new LogNames(options.source, options.periodMinutes ?? 60);
    const canAppend = caps.appendBlobs && caps.conditionalWrites;
    this.mode = options.mode ?? (canAppend ? "append" : "block");
    if (this.mode === "append" && !canAppend) {
      throw new TableKitError(
        "NotSupported",
        `${caps.backend} has no append blobs with conditional writes: use mode "block"`,
      );
    }
    if (this.mode !== "append" && this.mode !== "block") {
      throw new TableKitError("InvalidInput", `mode must be "append" or "block", got ${String(this.mode)}`);
    }
    this.maxBlobBytes = options.maxBlobBytes ?? DEFAULT_MAX_BLOB_BYTES;
    if (
      !Number.isSafeInteger(this.maxBlobBytes) ||
      this.maxBlobBytes < 1 ||
      this.maxBlobBytes > caps.maxBlobBytes
    ) {
      throw new TableKitError(
        "InvalidInput",
        `maxBlobBytes must be a whole number from 1 to ${caps.maxBlobBytes}, got ${this.maxBlobBytes}`,
      );
    }
  }

  /** A new buffered writer (each has its own buffer; close it to flush). */
  writer(options: BlobLogWriterOptions = {}): BlobLogWriter {
    const caps = this.store.blobCapabilities!;
    const stats: BlobLogStats = {
      records: 0,
      flushedRecords: 0,
      flushedBytes: 0,
      flushes: 0,
      blobWrites: 0,
      creates: 0,
      lists: 0,
      rollovers: 0,
      failures: 0,
      busy: 0,
    };
    const sink: LogSink =
      this.mode === "append"
        ? new AppendSink(
            this.container,
            this.names,
            Math.min(caps.maxAppendBlockBytes, this.maxBlobBytes),
            this.maxBlobBytes,
            caps.maxAppendBlocks,
            stats,
          )
        : new BlockSink(this.container, this.names, Math.min(MAX_BLOCK_CHUNK, this.maxBlobBytes), stats);
    return new BlobLogWriter(this.names, sink, stats, options);
  }

  /** The name prefixes a read of [from, to) lists: the fewest that hold every period it overlaps. */
  prefixes(from: Date, to: Date): string[] {
    return this.names.prefixes(instant("from", from), instant("to", to));
  }

  /** The blobs a read of [from, to) downloads, in the order it reads them. */
  async *blobs(options: ReadLogOptions): AsyncGenerator<string> {
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    for (const prefix of this.prefixes(options.from, options.to)) {
      for await (const item of this.container.listBlobsFlat({ ...call, prefix })) {
        if (this.names.parse(item.name)) yield item.name;
      }
    }
  }

  /**
   * Every record whose time is in [from, to): blob by blob in name order (period, then number),
   * each blob's lines in the order they were written, streamed (memory bounded by one line).
   * Records of concurrent writers interleave by blob, not by time: sort them if you need to.
   */
  async *read(options: ReadLogOptions): AsyncGenerator<BlobLogEntry> {
    const from = instant("from", options.from);
    const to = instant("to", options.to);
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    for await (const blob of this.blobs(options)) {
      const download = await this.container.getBlobClient(blob).download(undefined, undefined, call);
      const lines = createInterface({
        input: download.readableStreamBody,
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      let number = 0;
      for await (const line of lines) {
        number++;
        if (line === "") continue;
        const entry = parseLine(line, blob, number);
        const ms = entry.time.getTime();
        if (ms >= from && ms < to) yield entry;
      }
    }
  }
}

function parseLine(line: string, blob: string, number: number): BlobLogEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    throw malformed(blob, number, err);
  }
  const { time, ...fields } = (parsed ?? {}) as Record<string, unknown>;
  const date = typeof time === "string" ? new Date(time) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw malformed(blob, number);
  return { time: date, fields, blob };
}

function malformed(blob: string, line: number, cause?: unknown): TableKitError {
  return new TableKitError("BackendError", `Log blob ${blob}, line ${line}: not a log record`, {
    details: { blob, line },
    ...(cause === undefined ? {} : { cause }),
  });
}

function instant(name: string, at: Date): number {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new TableKitError("InvalidInput", `${name} must be a valid Date`);
  }
  return at.getTime();
}
