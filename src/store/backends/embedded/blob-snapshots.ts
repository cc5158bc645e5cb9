import type { EmbeddedBlobContent } from "./blob-content.js";
import { composedContent, type Extent, extentsOf, isComposed } from "./blob-extents.js";
import type { BlobRow } from "./blob-row.js";
import type { Db } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

/**
 * Snapshots in their own table (so columns other features add to tk_blobs never meet them): a row
 * per snapshot holding what the blob's row held when it was taken. Its content is hard links of its
 * own to the blob's files (no byte copied; memory content shares chunks), so replacing or deleting
 * the blob never touches a snapshot's bytes.
 */
export const SNAPSHOT_SCHEMA = `
  CREATE TABLE IF NOT EXISTS tk_snapshots (
    container INTEGER NOT NULL,
    name TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    content TEXT NOT NULL,
    length INTEGER NOT NULL,
    etag TEXT NOT NULL,
    modified INTEGER NOT NULL,
    type TEXT NOT NULL,
    blocks INTEGER NOT NULL,
    content_type TEXT,
    metadata TEXT NOT NULL,
    data BLOB,
    PRIMARY KEY (container, name, snapshot)
  );`;

/** A snapshot's row: a blob row and its time. */
export interface SnapshotRow extends BlobRow {
  readonly snapshot: string;
}

const COLUMNS =
  "container, name, snapshot, content, length, etag, modified, type, blocks, content_type, metadata";

/** Prepared statements over tk_snapshots (the table exists: the catalogue creates it). */
export class EmbeddedSnapshots {
  private readonly sql: Record<string, SqliteStatement>;

  constructor(db: Db) {
    const prepare = (text: string) => db.prepare(text);
    this.sql = {
      insert: prepare(`INSERT INTO tk_snapshots
        (container, name, snapshot, content, length, etag, modified, type, blocks, content_type, metadata, data)
        VALUES (@container, @name, @snapshot, @content, @length, @etag, @modified, @type, @blocks, @content_type, @metadata, @data)`),
      one: prepare("SELECT * FROM tk_snapshots WHERE container = ? AND name = ? AND snapshot = ?"),
      latest: prepare("SELECT max(snapshot) FROM tk_snapshots WHERE container = ? AND name = ?").pluck(),
      any: prepare("SELECT 1 FROM tk_snapshots WHERE container = ? AND name = ? LIMIT 1").pluck(),
      contentsOfBlob: prepare(
        "SELECT content FROM tk_snapshots WHERE container = ? AND name = ? AND content <> ''",
      ).pluck(),
      deleteOfBlob: prepare("DELETE FROM tk_snapshots WHERE container = ? AND name = ?"),
      deleteOne: prepare("DELETE FROM tk_snapshots WHERE container = ? AND name = ? AND snapshot = ?"),
      ofNames: prepare(
        `SELECT ${COLUMNS} FROM tk_snapshots WHERE container = ? AND name >= ? AND name <= ? ORDER BY name, snapshot`,
      ),
    };
  }

  insert(row: SnapshotRow): void {
    this.sql.insert!.run({ ...row, data: row.data ?? null });
  }

  one(container: number, name: string, snapshot: string): SnapshotRow | undefined {
    return this.sql.one!.get(container, name, snapshot) as SnapshotRow | undefined;
  }

  latest(container: number, name: string): string | undefined {
    return (this.sql.latest!.get(container, name) as string | null | undefined) ?? undefined;
  }

  has(container: number, name: string): boolean {
    return this.sql.any!.get(container, name) !== undefined;
  }

  /** Forgets every snapshot of the blob; returns the content they held. */
  dropAll(container: number, name: string): string[] {
    const contents = this.sql.contentsOfBlob!.all(container, name) as string[];
    this.sql.deleteOfBlob!.run(container, name);
    return contents;
  }

  /** Forgets one snapshot; its content, or undefined when there was none of that time. */
  drop(container: number, name: string, snapshot: string): string | undefined {
    const row = this.one(container, name, snapshot);
    if (!row) return undefined;
    this.sql.deleteOne!.run(container, name, snapshot);
    return row.content;
  }

  /** The snapshots of every name from `first` to `last`, by name then time (without inline bytes). */
  ofNames(container: number, first: string, last: string): SnapshotRow[] {
    return this.sql.ofNames!.all(container, first, last) as SnapshotRow[];
  }
}

/** Ticks of 100 ns since the epoch last handed out by this process: snapshot times only grow. */
let lastTicks = 0n;

/**
 * A snapshot time as the service writes it (seven fractional digits), later than `after` (the
 * blob's latest snapshot, when it has one) and than any this process made.
 */
export function snapshotTime(now: number, after: string | undefined): string {
  let ticks = BigInt(now) * 10_000n;
  if (ticks <= lastTicks) ticks = lastTicks + 1n;
  if (after !== undefined) {
    const previous = ticksOf(after);
    if (ticks <= previous) ticks = previous + 1n;
  }
  lastTicks = ticks;
  return textOf(ticks);
}

function ticksOf(snapshot: string): bigint {
  const ms = Date.parse(`${snapshot.slice(0, 19)}Z`);
  const fraction = (snapshot.slice(20, 27) || "0").padEnd(7, "0");
  return BigInt(ms) * 10_000n + BigInt(fraction);
}

function textOf(ticks: bigint): string {
  const ms = Number(ticks / 10_000n);
  const fraction = (ticks % 10_000n).toString().padStart(4, "0");
  const iso = new Date(ms).toISOString(); // …ss.mmmZ
  return `${iso.slice(0, 23)}${fraction}Z`;
}

/**
 * The content of a new row holding the same bytes as `row`, sharing them: inline bytes are copied
 * (they are small), each file becomes a hard link of the new row's own.
 */
export function sharedContent(
  content: EmbeddedBlobContent,
  row: BlobRow,
): { content: string; data: Buffer | null } {
  if (row.data) return { content: "", data: Buffer.from(row.data) };
  if (row.content === "") return { content: "", data: null };
  if (!isComposed(row.content)) {
    const [id] = content.adopt!([{ id: row.content }]);
    return { content: id!, data: null };
  }
  const extents = extentsOf(row.content, row.length);
  const sources = [...new Set(extents.map(([id]) => id))];
  const ids = content.adopt!(sources.map((id) => ({ id })));
  const linkOf = new Map(sources.map((id, i) => [id, ids[i]!]));
  const linked: Extent[] = extents.map(([id, offset, length]) => [linkOf.get(id)!, offset, length]);
  return { content: composedContent(linked), data: null };
}
