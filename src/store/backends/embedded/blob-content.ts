import { randomBytes } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { EmbeddedFileRangeReader, type FileRange } from "./blob-file-reader.js";

/**
 * Where blob bytes live. Rows in SQLite say which content a blob has; content is written whole
 * before its row commits and removed after the row that named it is gone, so a reader that holds
 * content never sees it change (appends only add bytes past every reader's length).
 */
export interface EmbeddedBlobContent {
  /** Starts new content; nothing refers to it until a row does. */
  create(): ContentWriter;
  /**
   * Opens `count` bytes at `offset` of content `id`, synchronously: once this returns, the bytes
   * stay readable whatever writers do next. Undefined when the content is gone (a writer replaced
   * it between the caller's row read and now: read the row again).
   */
  open(id: string, offset: number, count: number): Readable | undefined;
  /**
   * File content only: the bytes of file ranges in order, each range's file opened now while
   * `openedAhead` last (the rest opened as the read reaches them). Undefined when a file opened now
   * is gone.
   */
  openRanges?(ranges: readonly ContentRange[], openedAhead: number): Readable | undefined;
  /** Writes `bytes` at `offset` (an append, inside the caller's write transaction), durably. */
  writeAt(id: string, offset: number, bytes: Uint8Array): void;
  /** Forgets content no row refers to any more. */
  remove(id: string): void;
  /**
   * File content only: new content, one per source, durable once this returns — a hard link to a
   * durable file or to existing content (so removing either name leaves the other's bytes), or bytes.
   */
  adopt?(sources: readonly AdoptedSource[]): string[];
  /** Whether content `id` is still there (a writer checks under the write lock before its row names it). */
  exists(id: string): boolean;
  /** File content only: removes content not `named` and not written to for `graceMs`; how many it removed. */
  sweep?(named: ReadonlySet<string>, graceMs: number): number;
}

/** `length` bytes at `offset` of content `id`. */
export type ContentRange = readonly [id: string, offset: number, length: number];

export type AdoptedSource =
  | { readonly path: string }
  | { readonly id: string }
  | { readonly bytes: Uint8Array };

export interface ContentWriter {
  readonly id: string;
  write(chunk: Uint8Array): Promise<void>;
  /** Makes the bytes durable; returns how many were written. */
  finish(): Promise<number>;
  /** Throws away what was written. */
  discard(): Promise<void>;
}

/** A fresh content id: 128 random bits in hex. */
function newId(): string {
  return randomBytes(16).toString("hex");
}

const WRITE_CHUNK = 1024 * 1024;

/**
 * Content as files beside the database (`app.db.blobs/ab/ab12…`): bytes stream in and out at file
 * speed with bounded memory, and an open file stays readable after a writer unlinks it.
 */
export class EmbeddedFileContent implements EmbeddedBlobContent {
  private readonly made = new Set<string>();

  constructor(private readonly root: string) {}

  private path(id: string): string {
    return join(this.root, id.slice(0, 2), id);
  }

  private dirOf(id: string): string {
    const dir = join(this.root, id.slice(0, 2));
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    return dir;
  }

  create(): ContentWriter {
    const id = newId();
    this.dirOf(id);
    const path = this.path(id);
    const handle = open(path, "wx");
    let written = 0;
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await (await handle).close();
    };
    return {
      id,
      async write(chunk) {
        const h = await handle;
        let done = 0;
        // Large bodies go in 1 MiB writes, as fs.writeFile does: one huge write is slower.
        while (done < chunk.byteLength) {
          const length = Math.min(WRITE_CHUNK, chunk.byteLength - done);
          const { bytesWritten } = await h.write(chunk, done, length);
          done += bytesWritten;
        }
        written += chunk.byteLength;
      },
      async finish() {
        const h = await handle;
        await h.datasync();
        await close();
        return written;
      },
      async discard() {
        await close().catch(() => {});
        rmSync(path, { force: true });
      },
    };
  }

  open(id: string, offset: number, count: number): Readable | undefined {
    return this.openRanges([[id, offset, count]], 1);
  }

  openRanges(ranges: readonly ContentRange[], openedAhead: number): Readable | undefined {
    const opened: FileRange[] = [];
    for (const [id, offset, length] of ranges) {
      const open = () => this.openFd(id);
      if (opened.length >= openedAhead) {
        opened.push({ open, offset, length });
        continue;
      }
      const fd = open();
      if (fd === undefined) {
        for (const range of opened) if (range.fd !== undefined) closeSync(range.fd);
        return undefined;
      }
      opened.push({ fd, open, offset, length });
    }
    return new EmbeddedFileRangeReader(opened);
  }

  /** An fd on content `id`, or undefined when it is gone. */
  private openFd(id: string): number | undefined {
    try {
      return openSync(this.path(id), "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  writeAt(id: string, offset: number, bytes: Uint8Array): void {
    const fd = openSync(this.path(id), "r+");
    try {
      let done = 0;
      while (done < bytes.byteLength)
        done += writeSync(fd, bytes, done, bytes.byteLength - done, offset + done);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  remove(id: string): void {
    try {
      unlinkSync(this.path(id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }

  exists(id: string): boolean {
    return existsSync(this.path(id));
  }

  sweep(named: ReadonlySet<string>, graceMs: number): number {
    let removed = 0;
    const before = Date.now() - graceMs;
    let dirs: string[];
    try {
      dirs = readdirSync(this.root);
    } catch {
      return 0; // no blob file was ever written
    }
    for (const dir of dirs) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const id of readdirSync(join(this.root, dir))) {
        if (named.has(id)) continue;
        const path = join(this.root, dir, id);
        const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
        if (modified === undefined || modified >= before) continue;
        rmSync(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  adopt(sources: readonly AdoptedSource[]): string[] {
    // One directory for them all, so one directory sync makes every new name durable.
    const prefix = newId().slice(0, 2);
    const dir = this.dirOf(prefix);
    const ids: string[] = [];
    try {
      for (const source of sources) {
        const id = prefix + newId().slice(2);
        const path = this.path(id);
        ids.push(id);
        if ("bytes" in source) writeDurably(path, source.bytes);
        else linkOrCopy("path" in source ? source.path : this.path(source.id), path);
      }
      const fd = openSync(dir, "r");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      for (const id of ids) this.remove(id);
      throw err;
    }
    return ids;
  }
}

/** A hard link; a durable copy when the two are on different file systems. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    copyFileSync(from, to);
    const fd = openSync(to, "r+");
    try {
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

function writeDurably(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, "wx");
  try {
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Content in process memory, for `memory:` stores (shared by every store of one in-memory database). */
export class EmbeddedMemoryContent implements EmbeddedBlobContent {
  private readonly contents = new Map<string, { chunks: Buffer[]; length: number }>();

  create(): ContentWriter {
    const id = newId();
    const content = { chunks: [] as Buffer[], length: 0 };
    const contents = this.contents;
    return {
      id,
      async write(chunk) {
        content.chunks.push(Buffer.from(chunk)); // a copy: the caller may reuse its buffer
        content.length += chunk.byteLength;
      },
      async finish() {
        contents.set(id, content);
        return content.length;
      },
      async discard() {
        content.chunks = [];
      },
    };
  }

  open(id: string, offset: number, count: number): Readable | undefined {
    const content = this.contents.get(id);
    if (!content) return undefined;
    const end = offset + count;
    const parts: Buffer[] = [];
    let at = 0;
    for (const chunk of content.chunks) {
      if (at >= end) break;
      const next = at + chunk.length;
      if (next > offset)
        parts.push(chunk.subarray(Math.max(0, offset - at), Math.min(chunk.length, end - at)));
      at = next;
    }
    return Readable.from(parts, { objectMode: false });
  }

  writeAt(id: string, offset: number, bytes: Uint8Array): void {
    const content = this.contents.get(id)!;
    if (content.length > offset) {
      // Bytes past `offset` belong to an append whose row never committed: drop them, as the file
      // store overwrites them. Readers keep the chunks they hold: none is changed in place.
      let at = 0;
      const kept: Buffer[] = [];
      for (const chunk of content.chunks) {
        if (at >= offset) break;
        kept.push(chunk.subarray(0, Math.min(chunk.length, offset - at)));
        at += chunk.length;
      }
      content.chunks = kept;
      content.length = offset;
    }
    content.chunks.push(Buffer.from(bytes));
    content.length += bytes.byteLength;
  }

  remove(id: string): void {
    this.contents.delete(id);
  }

  exists(id: string): boolean {
    return this.contents.has(id);
  }

  /** New content sharing the chunks of the source (never changed in place): no byte copied. */
  adopt(sources: readonly AdoptedSource[]): string[] {
    return sources.map((source) => {
      const id = newId();
      if ("bytes" in source) {
        const bytes = Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength);
        this.contents.set(id, { chunks: [bytes], length: bytes.length });
      } else if ("id" in source) {
        const from = this.contents.get(source.id);
        if (!from) throw new Error(`blob content ${source.id} is gone`);
        this.contents.set(id, { chunks: [...from.chunks], length: from.length });
      } else {
        const bytes = readFileSync(source.path);
        this.contents.set(id, { chunks: [bytes], length: bytes.length });
      }
      return id;
    });
  }
}
