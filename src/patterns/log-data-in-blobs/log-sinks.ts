import { randomBytes } from "node:crypto";
import { isTableKitError } from "../../model/index.js";
import type { BlobContainer, OperationOptions } from "../../store/index.js";
import type { LogNames } from "./log-names.js";

/** A run of whole NDJSON lines of one period, with the times of its first and last record. */
export interface LogChunk {
  readonly bytes: Uint8Array;
  readonly records: number;
  readonly firstMs: number;
  readonly lastMs: number;
}

/** What a writer counts: every request it made to the store, by kind. */
export interface BlobLogStats {
  /** Records handed to `write`. */
  records: number;
  /** Records on the store (their flush completed). */
  flushedRecords: number;
  flushedBytes: number;
  flushes: number;
  /** Append-block calls (append blobs) or uploads (block blobs): one per chunk written. */
  blobWrites: number;
  /** Append blobs created. */
  creates: number;
  /** Listings (one per period an append writer starts writing to). */
  lists: number;
  /** Times a writer moved to the next blob of a period: full (50,000 appends), or at the size cap. */
  rollovers: number;
  /** Flushes that failed (their records stay buffered and are written by a later flush). */
  failures: number;
  /** Blob writes the store refused with ServerBusy, each retried after a backoff. */
  busy: number;
}

/** Where flushed chunks go: append blobs shared by writers, or one new block blob per chunk. */
export interface LogSink {
  /** Largest chunk this sink writes in one request (the writer cuts chunks at whole lines). */
  readonly maxChunkBytes: number;
  write(period: string, chunk: LogChunk, options: OperationOptions): Promise<void>;
}

/**
 * Append blobs (where the backend has them and conditional writes): every writer of a source
 * appends to the same `<period>/NNNNNN.log`; a block of whole lines lands atomically, so records
 * of concurrent writers never mix. A writer finds a period's current blob by listing it once,
 * creates it with `ifNoneMatch: "*"` (one of several racing writers wins, the others append), and
 * moves to the next number when the blob is full (`BlockCountExceedsLimit`, or reaching the
 * block limit) or would pass the size cap (`maxSize` condition: `MaxBlobSizeConditionNotMet`).
 */
export class AppendSink implements LogSink {
  private readonly current = new Map<string, number>();

  constructor(
    private readonly container: BlobContainer,
    private readonly names: LogNames,
    readonly maxChunkBytes: number,
    private readonly maxBlobBytes: number,
    private readonly maxBlocks: number,
    private readonly stats: BlobLogStats,
  ) {}

  async write(period: string, chunk: LogChunk, options: OperationOptions): Promise<void> {
    let number = this.current.get(period);
    if (number === undefined) {
      const last = await this.lastNumber(period, options);
      number = last ?? 1;
      if (last === undefined) await this.create(period, number, options); // a new period: skip the failing append
    }
    for (;;) {
      this.current.set(period, number);
      const blob = this.container.getAppendBlobClient(this.names.blobName(period, number));
      try {
        this.stats.blobWrites++;
        const done = await blob.appendBlock(chunk.bytes, chunk.bytes.byteLength, {
          ...options,
          conditions: { maxSize: this.maxBlobBytes },
        });
        if (done.blobCommittedBlockCount >= this.maxBlocks) this.rollOver(period, number);
        return;
      } catch (err) {
        if (isTableKitError(err, "BlobNotFound")) await this.create(period, number, options);
        else if (isTableKitError(err, "BlockCountExceedsLimit", "MaxBlobSizeConditionNotMet")) {
          number = this.rollOver(period, number);
        } else throw err;
      }
    }
  }

  private rollOver(period: string, number: number): number {
    this.stats.rollovers++;
    this.current.set(period, number + 1);
    return number + 1;
  }

  /** Creates a shared blob unless another writer did first (`ifNoneMatch: "*"`). */
  private async create(period: string, number: number, options: OperationOptions): Promise<void> {
    this.stats.creates++;
    await this.container
      .getAppendBlobClient(this.names.blobName(period, number))
      .createIfNotExists({ ...options, blobHTTPHeaders: { blobContentType: NDJSON } });
  }

  /** The highest numbered shared blob of a period; undefined when it has none yet. */
  private async lastNumber(period: string, options: OperationOptions): Promise<number | undefined> {
    this.stats.lists++;
    let last: number | undefined;
    for await (const item of this.container.listBlobsFlat({ ...options, prefix: period })) {
      const parsed = this.names.parse(item.name);
      if (parsed && parsed.writer === undefined) last = Math.max(last ?? 0, parsed.number);
    }
    return last;
  }
}

/**
 * Block blobs (S3, or any backend without append blobs): each chunk is a new blob
 * `<period>/NNNNNN-<writer>.log`, numbered per writer, the writer a random id: concurrent writers
 * never share a name, so no conditional write is needed. Each carries its first and last record
 * times as metadata (`starttime`, `endtime`), as Storage Analytics records them.
 */
export class BlockSink implements LogSink {
  readonly writer = randomBytes(5).toString("hex");
  private readonly numbers = new Map<string, number>();

  constructor(
    private readonly container: BlobContainer,
    private readonly names: LogNames,
    readonly maxChunkBytes: number,
    private readonly stats: BlobLogStats,
  ) {}

  async write(period: string, chunk: LogChunk, options: OperationOptions): Promise<void> {
    const number = this.numbers.get(period) ?? 1;
    const name = this.names.blobName(period, number, this.writer);
    this.stats.blobWrites++;
    await this.container.getBlockBlobClient(name).upload(chunk.bytes, chunk.bytes.byteLength, {
      ...options,
      blobHTTPHeaders: { blobContentType: NDJSON },
      metadata: {
        starttime: new Date(chunk.firstMs).toISOString(),
        endtime: new Date(chunk.lastMs).toISOString(),
      },
    });
    this.numbers.set(period, number + 1);
  }
}

const NDJSON = "application/x-ndjson";
