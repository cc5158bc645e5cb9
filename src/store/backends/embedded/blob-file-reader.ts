import { close, read } from "node:fs";
import { Readable, type Writable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import { sendBody } from "../../blobs/blob-body.js";

/**
 * A range of one file: its fd when already open (its bytes then survive any writer), or a way to
 * open it when the read reaches it (undefined once the file is gone: the blob was replaced).
 */
export interface FileRange {
  readonly fd?: number;
  readonly open: () => number | undefined;
  readonly offset: number;
  readonly length: number;
}

/** Bytes per file read and per socket write: large enough for few system calls, small enough to bound memory. */
const CHUNK = 1024 * 1024;

/** Buffers a `[sendBody]` uses: its reads stay up to this many chunks ahead of what the socket has taken. */
const SEND_BUFFERS = 4;

/**
 * The bytes of file ranges in order, read with positional reads (no stream per file). As a Readable
 * it reads ahead one chunk into fresh buffers; `[sendBody]` writes to a socket from a few buffers
 * it reuses once each write has left, so a 256 MiB download allocates 4 MiB and no garbage.
 */
export class EmbeddedFileRangeReader extends Readable {
  private part = 0;
  private within = 0;
  private reads = 0;
  private closeWhenIdle = false;
  private failure: Error | undefined;
  /** Each range's fd: undefined until opened, null once closed. */
  private readonly fds: (number | undefined | null)[];

  /** Bytes not yet read. */
  private left: number;

  constructor(private readonly ranges: readonly FileRange[]) {
    super({ highWaterMark: 2 * CHUNK });
    this.fds = ranges.map((r) => r.fd);
    this.left = ranges.reduce((sum, r) => sum + r.length, 0);
  }

  /** The next slice to read (at most `max` bytes, within one file), or undefined at the end. */
  private next(max: number): { fd: number; position: number; length: number } | undefined {
    while (this.part < this.ranges.length && this.within === this.ranges[this.part]!.length) {
      this.release(this.part);
      this.part++;
      this.within = 0;
    }
    const range = this.ranges[this.part];
    if (!range) return undefined;
    const held = this.fds[this.part];
    const fd = held === undefined ? range.open() : held;
    if (fd === undefined || fd === null) {
      throw new TableKitError("ServerBusy", "The blob was replaced while it was being read; read it again");
    }
    this.fds[this.part] = fd;
    return {
      fd,
      position: range.offset + this.within,
      length: Math.min(max, range.length - this.within),
    };
  }

  /** Reads one slice into `buffer`; calls back with the bytes read or the error (a file shorter than its range is one). */
  private readSlice(buffer: Buffer, done: (got: Buffer | Error) => void): boolean {
    let slice: ReturnType<EmbeddedFileRangeReader["next"]>;
    try {
      slice = this.next(buffer.length);
    } catch (err) {
      done(err as Error);
      return true;
    }
    if (!slice) return false;
    this.reads++;
    read(slice.fd, buffer, 0, slice.length, slice.position, (err, n) => {
      this.reads--;
      if (this.closeWhenIdle && this.reads === 0) this.releaseAll();
      if (err) return done(err);
      if (n === 0) return done(new TableKitError("BackendError", "A blob file is shorter than its row says"));
      this.within += n;
      this.left -= n;
      done(buffer.subarray(0, n));
    });
    return true;
  }

  override _read(): void {
    if (this.failure) {
      this.failAfterBuffered();
      return;
    }
    // A small range gets a buffer of its size, not a whole chunk.
    const started = this.readSlice(Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, this.left))), (got) => {
      if (got instanceof Error) {
        this.failure = got;
        this.failAfterBuffered();
      } else this.push(got);
    });
    if (!started) this.push(null);
  }

  /** The reader gets every byte read before the failure, then the error (destroying drops what is buffered). */
  private failAfterBuffered(): void {
    if (this.readableLength === 0) this.destroy(this.failure);
    else this.push(Buffer.alloc(0)); // nothing to add: lets the next read() call _read again
  }

  override _destroy(err: Error | null, callback: (err: Error | null) => void): void {
    // An fd is closed only once no read uses it: a closed number can be reused by the next open.
    if (this.reads === 0) this.releaseAll();
    else this.closeWhenIdle = true;
    callback(err);
  }

  private release(part: number): void {
    const fd = this.fds[part];
    if (typeof fd === "number") close(fd, () => {});
    this.fds[part] = null;
  }

  private releaseAll(): void {
    for (let i = 0; i < this.fds.length; i++) this.release(i);
  }

  /**
   * Writes every byte to `out` (a response whose headers are set) and ends it; resolves once sent.
   * A read that fails destroys `out`; `out` closed early stops the reads. Only on an unread body.
   */
  [sendBody](out: Writable): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const free: Buffer[] = [];
      let buffers = 0;
      let reading = false;
      let writing = 0;
      let ended = false;
      let failed = false;
      const fail = (err: Error) => {
        if (failed) return;
        failed = true;
        this.destroy();
        out.destroy(err);
        reject(err);
      };
      out.once("finish", () => resolve());
      out.once("close", () => {
        if (ended) return resolve();
        this.destroy();
        if (!failed) reject(new TableKitError("Aborted", "The response closed before the blob was sent"));
        failed = true;
      });
      const finish = () => {
        ended = true;
        this.destroy();
        out.end();
      };
      const pump = () => {
        if (failed || ended || reading) return;
        if (this.left === 0) {
          if (writing === 0) finish();
          return;
        }
        let buffer = free.pop();
        if (!buffer && buffers < SEND_BUFFERS) {
          buffer = Buffer.allocUnsafeSlow(Math.min(CHUNK, this.left)); // a small body: a buffer of its size
          buffers++;
        }
        if (!buffer) return; // every buffer is on its way to the socket: its write's callback resumes
        const owned = buffer;
        reading = true;
        const started = this.readSlice(owned, (got) => {
          reading = false;
          if (failed) return; // the response closed while this read was under way
          if (got instanceof Error) return fail(got);
          writing++;
          out.write(got, (writeErr) => {
            writing--;
            free.push(owned);
            if (writeErr) return fail(writeErr);
            pump();
          });
          pump();
        });
        if (!started) {
          reading = false;
          if (writing === 0) finish();
        }
      };
      pump();
    });
  }
}
