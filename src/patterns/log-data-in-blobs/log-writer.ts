import { TableKitError } from "../../model/index.js";
import type { OperationOptions } from "../../store/index.js";
import {
  BUSY_RETRY,
  type RetryOptions,
  type RetryPolicy,
  retryPolicy,
  retryWhileBusy,
} from "../shared/support/retry.js";
import type { LogNames } from "./log-names.js";
import type { BlobLogStats, LogChunk, LogSink } from "./log-sinks.js";

/** A record to log: a JSON object; the writer adds its `time`. */
export type LogFields = Readonly<Record<string, unknown>>;

export interface BlobLogWriterOptions {
  /** Flush once this many bytes are buffered (default 1 MiB). */
  readonly flushBytes?: number;
  /** Flush at most this long after a record was buffered (default 1,000 ms): the loss window. */
  readonly flushIntervalMs?: number;
  /** `write` returns false past this many buffered bytes (default 8 × flushBytes): await `flush()`. */
  readonly highWaterBytes?: number;
  /** Called with the error of a flush the timer or the size started (its records stay buffered). */
  readonly onError?: (error: unknown) => void;
  /** How a blob write retries while the store answers ServerBusy (default: 8 attempts, 25 ms doubling to 2 s). */
  readonly busyRetry?: Omit<RetryOptions, "abortSignal">;
}

export interface WriteLogOptions {
  /** The record's time (default: now); it decides the period, hence the blob. */
  readonly at?: Date;
}

interface Pending {
  readonly line: string;
  /** The line's length in UTF-8 bytes. */
  readonly bytes: number;
  readonly ms: number;
}

/**
 * A buffered writer of NDJSON records to time-named blobs (seed 001's Storage Analytics): `write`
 * only buffers; the buffer goes to the store when it reaches `flushBytes`, `flushIntervalMs` after
 * the first buffered record, on `flush()` and on `close()`. What a crash loses is what is buffered:
 * at most the last `flushIntervalMs` of records. One flush at a time; a failed flush keeps its
 * records, in order, for the next one.
 */
export class BlobLogWriter {
  readonly stats: BlobLogStats;
  private readonly flushBytes: number;
  private readonly flushIntervalMs: number;
  private readonly highWaterBytes: number;
  private readonly busyPolicy: RetryPolicy;
  /** Records by period folder, each in write order. */
  private buffers = new Map<string, Pending[]>();
  private buffered = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  private inBackground = false;

  constructor(
    private readonly names: LogNames,
    private readonly sink: LogSink,
    stats: BlobLogStats,
    private readonly options: BlobLogWriterOptions = {},
  ) {
    this.stats = stats;
    this.flushBytes = positive("flushBytes", options.flushBytes ?? 1024 * 1024);
    this.flushIntervalMs = positive("flushIntervalMs", options.flushIntervalMs ?? 1000);
    this.busyPolicy = retryPolicy({ ...BUSY_RETRY, ...options.busyRetry });
    this.highWaterBytes = positive("highWaterBytes", options.highWaterBytes ?? 8 * this.flushBytes);
  }

  /** Bytes waiting for a flush. */
  get bufferedBytes(): number {
    return this.buffered;
  }

  /**
   * Buffers one record as a line `{"time":"…",…fields}`; false once more than `highWaterBytes`
   * wait (await `flush()` before writing more). InvalidInput for what is not a JSON object, or
   * names `time`; RequestBodyTooLarge for a line larger than one write can carry.
   */
  write(fields: LogFields, options: WriteLogOptions = {}): boolean {
    if (this.closed) throw new TableKitError("InvalidInput", "The log writer is closed");
    const ms = timeOf(options.at);
    const period = this.names.periodOf(ms);
    const line = `${lineOf(fields, ms)}\n`;
    const bytes = Buffer.byteLength(line, "utf8");
    if (bytes > this.sink.maxChunkBytes) {
      throw new TableKitError(
        "RequestBodyTooLarge",
        `A log record of ${bytes} bytes is larger than one blob write (${this.sink.maxChunkBytes})`,
      );
    }
    const list = this.buffers.get(period);
    if (list) list.push({ line, bytes, ms });
    else this.buffers.set(period, [{ line, bytes, ms }]);
    this.buffered += bytes;
    this.stats.records++;
    if (this.buffered >= this.flushBytes) this.background();
    else this.timer ??= setTimeout(() => this.background(), this.flushIntervalMs).unref();
    return this.buffered <= this.highWaterBytes;
  }

  /** Writes everything buffered so far; rejects if the store refused (the records stay buffered). */
  async flush(options: OperationOptions = {}): Promise<void> {
    // A flush already running took its records; ours are what arrived since.
    while (this.flushing) await this.flushing.catch(() => {});
    if (this.buffered === 0) return;
    this.flushing = this.drain(options);
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  /** Flushes, then refuses further writes. */
  async close(options: OperationOptions = {}): Promise<void> {
    this.closed = true;
    await this.flush(options);
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * A flush the size or the timer asked for (one at a time): its failure goes to `onError`, and
   * the timer tries again; what arrived meanwhile is flushed next by size or by time.
   */
  private background(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.inBackground) return;
    this.inBackground = true;
    const next = () => {
      this.inBackground = false;
      if (this.buffered >= this.flushBytes) this.background();
      else if (this.buffered > 0)
        this.timer ??= setTimeout(() => this.background(), this.flushIntervalMs).unref();
    };
    this.flush().then(next, (err: unknown) => {
      this.options.onError?.(err);
      this.inBackground = false;
      if (this.buffered > 0) this.timer ??= setTimeout(() => this.background(), this.flushIntervalMs).unref();
    });
  }

  /** Takes the buffers and writes them, period by period, in chunks of whole lines. */
  private async drain(options: OperationOptions): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const taken = this.buffers;
    this.buffers = new Map();
    this.stats.flushes++;
    const periods = [...taken.keys()].sort();
    for (const [index, period] of periods.entries()) {
      const records = taken.get(period)!;
      let start = 0;
      try {
        while (start < records.length) {
          const { chunk, end } = cut(records, start, this.sink.maxChunkBytes);
          // ServerBusy: nothing was written (a throttled request, a lock held elsewhere): again, later.
          await retryWhileBusy(
            () => this.sink.write(period, chunk, options),
            this.busyPolicy,
            options.abortSignal,
            () => this.stats.busy++,
          );
          this.buffered -= chunk.bytes.byteLength;
          this.stats.flushedRecords += chunk.records;
          this.stats.flushedBytes += chunk.bytes.byteLength;
          start = end;
        }
      } catch (err) {
        this.stats.failures++;
        // Put back what was not written, ahead of what arrived meanwhile.
        this.restore(period, records.slice(start));
        for (const rest of periods.slice(index + 1)) this.restore(rest, taken.get(rest)!);
        throw err;
      }
    }
  }

  private restore(period: string, records: Pending[]): void {
    this.buffers.set(period, [...records, ...(this.buffers.get(period) ?? [])]);
  }
}

/** Records from `start` whose lines fit in `max` bytes, joined (at least one). */
function cut(records: readonly Pending[], start: number, max: number): { chunk: LogChunk; end: number } {
  let end = start;
  let bytes = 0;
  let firstMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  while (end < records.length && (end === start || bytes + records[end]!.bytes <= max)) {
    const r = records[end]!;
    bytes += r.bytes;
    firstMs = Math.min(firstMs, r.ms);
    lastMs = Math.max(lastMs, r.ms);
    end++;
  }
  const text = records
    .slice(start, end)
    .map((r) => r.line)
    .join("");
  return { chunk: { bytes: Buffer.from(text, "utf8"), records: end - start, firstMs, lastMs }, end };
}

function lineOf(fields: LogFields, ms: number): string {
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw new TableKitError("InvalidInput", "A log record is a JSON object");
  }
  if (Object.hasOwn(fields, "time")) {
    throw new TableKitError(
      "InvalidInput",
      "A log record must not name `time`: the writer sets it (use `at`)",
    );
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(fields);
  } catch (err) {
    throw new TableKitError("InvalidInput", "A log record must be JSON-serializable", { cause: err });
  }
  if (!text?.startsWith("{"))
    throw new TableKitError("InvalidInput", "A log record must serialize to a JSON object");
  const time = `{"time":"${new Date(ms).toISOString()}"`;
  return text === "{}" ? `${time}}` : `${time},${text.slice(1)}`;
}

function timeOf(at: Date | undefined): number {
  if (at === undefined) return Date.now();
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new TableKitError("InvalidInput", "`at` must be a valid Date");
  }
  return at.getTime();
}

function positive(name: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new TableKitError("InvalidInput", `${name} must be a whole number >= 1, got ${n}`);
  }
  return n;
}
