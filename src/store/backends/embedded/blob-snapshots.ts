import type { BlobTags } from "../../blobs/blob-tags.js";
import type { EmbeddedBlobContent } from "./blob-content.js";
import { composedContent, type Extent, extentsOf, isComposed } from "./blob-extents.js";
import type { BlobRow, CommittedBlocks } from "./blob-row.js";
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

/**
 * Columns added after the first release (guarded ALTER TABLE, as tk_blobs'): what else a snapshot
 * keeps of its blob. `props` its content headers and creation time, `sealed` an append blob's seal,
 * `tags` JSON of its index tags (kept here, not in tk_blob_tags: Find Blobs by Tags finds base blobs
 * only), `block_list` JSON of its committed block list. A page blob snapshot's pages are rows of
 * tk_pages under `snapshotPagesKey`.
 */
const ADDED_COLUMNS: readonly (readonly [column: string, type: string])[] = [
  ["props", "TEXT"],
  ["sealed", "INTEGER NOT NULL DEFAULT 0"],
  ["tags", "TEXT"],
  ["block_list", "TEXT"],
];

/** Adds the columns a database made before lacks (inside the catalogue's schema transaction). */
export function addSnapshotColumns(db: Db): void {
  const columns = db.prepare("PRAGMA table_info(tk_snapshots)").all() as { name: string }[];
  for (const [column, type] of ADDED_COLUMNS) {
    if (!columns.some((c) => c.name === column))
      db.exec(`ALTER TABLE tk_snapshots ADD COLUMN ${column} ${type}`);
  }
}

/** A snapshot's row: a blob row and its time, with the tags and block list it keeps. */
export interface SnapshotRow extends BlobRow {
  readonly snapshot: string;
  /** JSON of its index tags; null: none. */
  readonly tags?: string | null;
  /** JSON of its committed block list (`[[id, size], …]`); null: none. */
  readonly block_list?: string | null;
}

/**
 * The `blob` under which tk_pages keeps a page blob snapshot's pages: a blob name never holds a
 * control character (validateBlobName), so no blob's own pages can sit under it.
 */
export function snapshotPagesKey(name: string, snapshot: string): string {
  return `${name}\u0001${snapshot}`;
}

/** The committed block list a snapshot keeps (empty: none). */
export function snapshotBlocks(row: SnapshotRow): CommittedBlocks {
  return row.block_list ? (JSON.parse(row.block_list) as CommittedBlocks) : [];
}

/** The index tags a snapshot keeps. */
export function snapshotTags(row: SnapshotRow): BlobTags {
  return row.tags ? (JSON.parse(row.tags) as BlobTags) : {};
}

const COLUMNS =
  "container, name, snapshot, content, length, etag, modified, type, blocks, content_type, metadata, props, sealed, tags, block_list";

/** Prepared statements over tk_snapshots (the table exists: the catalogue creates it). */
export class EmbeddedSnapshots {
  private readonly sql: Record<string, SqliteStatement>;

  constructor(db: Db) {
    const prepare = (text: string) => db.prepare(text);
    this.sql = {
      insert: prepare(`INSERT INTO tk_snapshots
        (container, name, snapshot, content, length, etag, modified, type, blocks, content_type, metadata, data,
          props, sealed, tags, block_list)
        VALUES (@container, @name, @snapshot, @content, @length, @etag, @modified, @type, @blocks, @content_type,
          @metadata, @data, @props, @sealed, @tags, @block_list)`),
      one: prepare("SELECT * FROM tk_snapshots WHERE container = ? AND name = ? AND snapshot = ?"),
      setTags: prepare("UPDATE tk_snapshots SET tags = ? WHERE container = ? AND name = ? AND snapshot = ?"),
      latest: prepare("SELECT max(snapshot) FROM tk_snapshots WHERE container = ? AND name = ?").pluck(),
      exists: prepare("SELECT 1 FROM tk_snapshots WHERE container = ? AND name = ? AND snapshot = ?").pluck(),
      any: prepare("SELECT 1 FROM tk_snapshots WHERE container = ? AND name = ? LIMIT 1").pluck(),
      contentsOfBlob: prepare(
        "SELECT content FROM tk_snapshots WHERE container = ? AND name = ? AND content <> ''",
      ).pluck(),
      deleteOfBlob: prepare("DELETE FROM tk_snapshots WHERE container = ? AND name = ?"),
      deleteOne: prepare("DELETE FROM tk_snapshots WHERE container = ? AND name = ? AND snapshot = ?"),
      // Every snapshot's pages of one blob: the keys between `name\u0001` and `name\u0002`.
      deletePagesOfBlob: prepare("DELETE FROM tk_pages WHERE container = ? AND blob > ? AND blob < ?"),
      deletePages: prepare("DELETE FROM tk_pages WHERE container = ? AND blob = ?"),
      copyPages: prepare(`INSERT INTO tk_pages (container, blob, start, end, data, stamp)
        SELECT container, ?, start, end, data, stamp FROM tk_pages WHERE container = ? AND blob = ?`),
      ofNames: prepare(
        `SELECT ${COLUMNS} FROM tk_snapshots WHERE container = ? AND name >= ? AND name <= ? ORDER BY name, snapshot`,
      ),
    };
  }

  insert(row: SnapshotRow): void {
    this.sql.insert!.run({
      ...row,
      data: row.data ?? null,
      props: row.props ?? null,
      sealed: row.sealed ?? 0,
      tags: row.tags ?? null,
      block_list: row.block_list ?? null,
    });
    // A page blob's pages as they are now: copied rows, so later writes to the blob leave them be.
    if (row.type === "PageBlob") {
      this.sql.copyPages!.run(snapshotPagesKey(row.name, row.snapshot), row.container, row.name);
    }
  }

  /** Replaces a snapshot's index tags (`{}`: none). */
  setTags(container: number, name: string, snapshot: string, tags: BlobTags): void {
    const text = Object.keys(tags).length > 0 ? JSON.stringify(tags) : null;
    this.sql.setTags!.run(text, container, name, snapshot);
  }

  one(container: number, name: string, snapshot: string): SnapshotRow | undefined {
    return this.sql.one!.get(container, name, snapshot) as SnapshotRow | undefined;
  }

  latest(container: number, name: string): string | undefined {
    return (this.sql.latest!.get(container, name) as string | null | undefined) ?? undefined;
  }

  /** Whether the blob has any snapshot (or, given `snapshot`, that one). */
  has(container: number, name: string, snapshot?: string): boolean {
    if (snapshot !== undefined) return this.sql.exists!.get(container, name, snapshot) !== undefined;
    return this.sql.any!.get(container, name) !== undefined;
  }

  /** Forgets every snapshot of the blob; returns the content they held. */
  dropAll(container: number, name: string): string[] {
    const contents = this.sql.contentsOfBlob!.all(container, name) as string[];
    this.sql.deleteOfBlob!.run(container, name);
    this.sql.deletePagesOfBlob!.run(container, `${name}\u0001`, `${name}\u0002`);
    return contents;
  }

  /** Forgets one snapshot; its content, or undefined when there was none of that time. */
  drop(container: number, name: string, snapshot: string): string | undefined {
    const row = this.one(container, name, snapshot);
    if (!row) return undefined;
    this.sql.deleteOne!.run(container, name, snapshot);
    if (row.type === "PageBlob") this.sql.deletePages!.run(container, snapshotPagesKey(name, snapshot));
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
