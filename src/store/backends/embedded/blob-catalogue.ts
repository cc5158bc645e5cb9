import { randomBytes } from "node:crypto";
import type { BlobType, Metadata, StoredBlobProperties, StoredContainer } from "../../blobs/blob-backend.js";
import { COPY_SCHEMA, EmbeddedCopies } from "./blob-copies.js";
import { EmbeddedSnapshots, SNAPSHOT_SCHEMA } from "./blob-snapshots.js";
import type { Db } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

/**
 * The blob port's rows in the store's SQLite database: containers, and one row per blob naming its
 * content, length, ETag and properties. Created on first use (IF NOT EXISTS, under the write lock),
 * so a database that never held a blob has no blob tables. Names sort by SQLite's BINARY collation:
 * UTF-8 bytes, which is code-point order.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS tk_containers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    etag TEXT NOT NULL,
    modified INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS tk_blobs (
    container INTEGER NOT NULL,
    name TEXT NOT NULL,
    content TEXT NOT NULL,
    length INTEGER NOT NULL,
    etag TEXT NOT NULL,
    modified INTEGER NOT NULL,
    type TEXT NOT NULL,
    blocks INTEGER NOT NULL,
    content_type TEXT,
    metadata TEXT NOT NULL,
    data BLOB,
    PRIMARY KEY (container, name)
  );
  CREATE TABLE IF NOT EXISTS tk_staged_blocks (
    container INTEGER NOT NULL,
    blob TEXT NOT NULL,
    id TEXT NOT NULL,
    size INTEGER NOT NULL,
    content TEXT NOT NULL,
    data BLOB,
    PRIMARY KEY (container, blob, id)
  );
  CREATE TABLE IF NOT EXISTS tk_block_lists (
    container INTEGER NOT NULL,
    blob TEXT NOT NULL,
    blocks TEXT NOT NULL,
    PRIMARY KEY (container, blob)
  );`;

/**
 * A staged block: its bytes in content (`content`), or inline (`data`, `content` empty) when small.
 * Rows of one blob come back in the order they were staged (restaging an id moves it last).
 */
export interface StagedBlockRow {
  readonly id: string;
  readonly size: number;
  readonly content: string;
  readonly data: Buffer | null;
}

/** A committed block list as stored: `[[id, size], …]` in order. */
export type CommittedBlocks = readonly (readonly [id: string, size: number])[];

/** Every column but the inline bytes: what listings read. */
const COLUMNS = "container, name, content, length, etag, modified, type, blocks, content_type, metadata";

export interface BlobRow {
  readonly container: number;
  readonly name: string;
  readonly content: string;
  readonly length: number;
  readonly etag: string;
  readonly modified: number;
  readonly type: BlobType;
  readonly blocks: number;
  readonly content_type: string | null;
  readonly metadata: string;
  /** The bytes of a small block blob, kept in the row (`content` is then empty); null otherwise. */
  readonly data?: Buffer | null;
}

/** A new ETag, quoted, in the service's `0x…` style. */
export function newEtag(): string {
  return `"0x${randomBytes(8).toString("hex").toUpperCase()}"`;
}

/** The properties a row describes (times at the service's one-second precision). */
export function propertiesOf(row: BlobRow): StoredBlobProperties {
  return {
    etag: row.etag,
    lastModified: wholeSeconds(row.modified),
    contentLength: row.length,
    ...(row.content_type === null ? {} : { contentType: row.content_type }),
    metadata: JSON.parse(row.metadata) as Metadata,
    blobType: row.type,
    ...(row.type === "AppendBlob" ? { committedBlockCount: row.blocks } : {}),
  };
}

function wholeSeconds(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

/** Prepared statements over the blob tables of one database. */
export class EmbeddedBlobCatalogue {
  private readonly sql: Record<string, SqliteStatement>;
  /** The blobs' snapshots (blob-snapshots.ts). */
  readonly snapshots: EmbeddedSnapshots;
  /** The copy properties of blobs a copy wrote (blob-copies.ts). */
  readonly copies: EmbeddedCopies;

  constructor(readonly db: Db) {
    db.transaction(() => db.exec(SCHEMA + SNAPSHOT_SCHEMA + COPY_SCHEMA)).immediate();
    this.snapshots = new EmbeddedSnapshots(db);
    this.copies = new EmbeddedCopies(db);
    const prepare = (text: string) => db.prepare(text);
    this.sql = {
      containerId: prepare("SELECT id FROM tk_containers WHERE name = ?").pluck(),
      container: prepare("SELECT name, etag, modified FROM tk_containers WHERE name = ?"),
      insertContainer: prepare("INSERT OR IGNORE INTO tk_containers (name, etag, modified) VALUES (?, ?, ?)"),
      deleteContainer: prepare("DELETE FROM tk_containers WHERE id = ?"),
      containersFrom: prepare(
        "SELECT name, etag, modified FROM tk_containers WHERE name >= ? AND name > ? ORDER BY name LIMIT ?",
      ),
      contentsOf: prepare("SELECT content FROM tk_blobs WHERE container = ? AND content <> ''").pluck(),
      allContents: prepare(`SELECT content FROM tk_blobs WHERE content <> ''
        UNION ALL SELECT content FROM tk_staged_blocks WHERE content <> ''
        UNION ALL SELECT content FROM tk_snapshots WHERE content <> ''`).pluck(),
      snapshotContentsOf: prepare(
        "SELECT content FROM tk_snapshots WHERE container = ? AND content <> ''",
      ).pluck(),
      deleteSnapshotsOf: prepare("DELETE FROM tk_snapshots WHERE container = ?"),
      deleteBlobsOf: prepare("DELETE FROM tk_blobs WHERE container = ?"),
      stagedContentsOf: prepare(
        "SELECT content FROM tk_staged_blocks WHERE container = ? AND content <> ''",
      ).pluck(),
      deleteStagedOf: prepare("DELETE FROM tk_staged_blocks WHERE container = ?"),
      deleteListsOf: prepare("DELETE FROM tk_block_lists WHERE container = ?"),
      stagedSizes: prepare(
        "SELECT id, size, content, NULL AS data FROM tk_staged_blocks WHERE container = ? AND blob = ? ORDER BY rowid",
      ),
      stagedData: prepare(
        "SELECT data FROM tk_staged_blocks WHERE container = ? AND blob = ? AND id = ?",
      ).pluck(),
      stagedOne: prepare(
        "SELECT id, content FROM tk_staged_blocks WHERE container = ? AND blob = ? AND id = ?",
      ),
      stagedAny: prepare("SELECT id FROM tk_staged_blocks WHERE container = ? AND blob = ? LIMIT 1").pluck(),
      stagedCount: prepare("SELECT count(*) FROM tk_staged_blocks WHERE container = ? AND blob = ?").pluck(),
      stage: prepare(`INSERT OR REPLACE INTO tk_staged_blocks (container, blob, id, size, content, data)
        VALUES (?, ?, ?, ?, ?, ?)`),
      deleteStaged: prepare("DELETE FROM tk_staged_blocks WHERE container = ? AND blob = ?"),
      blockList: prepare("SELECT blocks FROM tk_block_lists WHERE container = ? AND blob = ?").pluck(),
      setBlockList: prepare(
        "INSERT OR REPLACE INTO tk_block_lists (container, blob, blocks) VALUES (?, ?, ?)",
      ),
      deleteBlockList: prepare("DELETE FROM tk_block_lists WHERE container = ? AND blob = ?"),
      // One statement for the container's id and the blob's row (columns null when it has none).
      blobIn: prepare(`SELECT c.id AS container_id, b.* FROM tk_containers c
        LEFT JOIN tk_blobs b ON b.container = c.id AND b.name = ? WHERE c.name = ?`),
      upsert: prepare(`INSERT OR REPLACE INTO tk_blobs
        (container, name, content, length, etag, modified, type, blocks, content_type, metadata, data)
        VALUES (@container, @name, @content, @length, @etag, @modified, @type, @blocks, @content_type, @metadata, @data)`),
      appended: prepare(
        "UPDATE tk_blobs SET length = ?, blocks = ?, etag = ?, modified = ? WHERE container = ? AND name = ?",
      ),
      deleteBlob: prepare("DELETE FROM tk_blobs WHERE container = ? AND name = ?"),
      blobsAfter: prepare(
        `SELECT ${COLUMNS} FROM tk_blobs WHERE container = ? AND name > ? ORDER BY name LIMIT ?`,
      ),
      blobsFrom: prepare(
        `SELECT ${COLUMNS} FROM tk_blobs WHERE container = ? AND name >= ? ORDER BY name LIMIT ?`,
      ),
    };
  }

  containerId(name: string): number | undefined {
    return this.sql.containerId!.get(name) as number | undefined;
  }

  container(name: string): StoredContainer | undefined {
    const row = this.sql.container!.get(name) as { name: string; etag: string; modified: number } | undefined;
    return row && { name: row.name, etag: row.etag, lastModified: wholeSeconds(row.modified) };
  }

  /** False when the name is taken. */
  insertContainer(name: string): boolean {
    return this.sql.insertContainer!.run(name, newEtag(), Date.now()).changes === 1;
  }

  /** Deletes the container and its rows; returns the content its blobs and staged blocks held. */
  deleteContainer(id: number): string[] {
    const contents = [
      ...(this.sql.contentsOf!.all(id) as string[]),
      ...(this.sql.stagedContentsOf!.all(id) as string[]),
      ...(this.sql.snapshotContentsOf!.all(id) as string[]),
    ];
    this.sql.deleteBlobsOf!.run(id);
    this.sql.deleteSnapshotsOf!.run(id);
    this.copies.dropContainer(id);
    this.sql.deleteStagedOf!.run(id);
    this.sql.deleteListsOf!.run(id);
    this.sql.deleteContainer!.run(id);
    return contents;
  }

  /** The staged blocks of a blob, in staging order (without their inline bytes: `stagedData` reads those). */
  stagedBlocks(container: number, blob: string): StagedBlockRow[] {
    return this.sql.stagedSizes!.all(container, blob) as StagedBlockRow[];
  }

  /** The bytes of a small staged block, kept in its row. */
  stagedData(container: number, blob: string, id: string): Buffer {
    return (this.sql.stagedData!.get(container, blob, id) as Buffer | null | undefined) ?? Buffer.alloc(0);
  }

  /** One staged id of the blob (any), how many it has, and the content `id` staged now, if any. */
  stagedSummary(
    container: number,
    blob: string,
    id: string,
  ): { anyId: string | undefined; count: number; replaced: string | undefined } {
    const anyId = this.sql.stagedAny!.get(container, blob) as string | undefined;
    const count = anyId === undefined ? 0 : (this.sql.stagedCount!.get(container, blob) as number);
    const same = this.sql.stagedOne!.get(container, blob, id) as { content: string } | undefined;
    return { anyId, count, replaced: same?.content };
  }

  stage(container: number, blob: string, row: StagedBlockRow): void {
    this.sql.stage!.run(container, blob, row.id, row.size, row.content, row.data);
  }

  /** Forgets the blob's staged blocks; returns the content they held. */
  dropStaged(container: number, blob: string): string[] {
    const contents = this.stagedBlocks(container, blob)
      .map((b) => b.content)
      .filter((c) => c !== "");
    this.sql.deleteStaged!.run(container, blob);
    return contents;
  }

  /** The blob's committed block list (empty when it was written another way). */
  committedBlocks(container: number, blob: string): CommittedBlocks {
    const text = this.sql.blockList!.get(container, blob) as string | undefined;
    return text === undefined ? [] : (JSON.parse(text) as CommittedBlocks);
  }

  /** Sets (or, with undefined, drops) the blob's committed block list: in the caller's transaction, with the row. */
  setCommittedBlocks(container: number, blob: string, blocks: CommittedBlocks | undefined): void {
    if (blocks === undefined) this.sql.deleteBlockList!.run(container, blob);
    else this.sql.setBlockList!.run(container, blob, JSON.stringify(blocks));
  }

  /** The content of every blob row and staged block: what the files beside the database may hold. */
  allContents(): string[] {
    return this.sql.allContents!.all() as string[];
  }

  /** Containers named `from` or later and after `after`, in name order. */
  containers(from: string, after: string, limit: number): StoredContainer[] {
    return (
      this.sql.containersFrom!.all(from, after, limit) as { name: string; etag: string; modified: number }[]
    ).map((r) => ({ name: r.name, etag: r.etag, lastModified: wholeSeconds(r.modified) }));
  }

  /** The container's id and the blob's row, in one statement; undefined when the container does not exist. */
  blobIn(containerName: string, name: string): { container: number; row: BlobRow | undefined } | undefined {
    const found = this.sql.blobIn!.get(name, containerName) as
      | (BlobRow & { container_id: number; name: string | null })
      | undefined;
    if (!found) return undefined;
    const { container_id, ...row } = found;
    return { container: container_id, row: row.name === null ? undefined : (row as BlobRow) };
  }

  upsert(row: BlobRow): void {
    this.sql.upsert!.run({ ...row, data: row.data ?? null });
  }

  appended(row: BlobRow, length: number, etag: string, modified: number): void {
    this.sql.appended!.run(length, row.blocks + 1, etag, modified, row.container, row.name);
  }

  deleteBlob(container: number, name: string): void {
    this.sql.deleteBlob!.run(container, name);
  }

  /** Up to `limit` rows in name order from `from` (inclusive, or exclusive when `after`). */
  blobs(container: number, from: string, inclusive: boolean, limit: number): BlobRow[] {
    return (inclusive ? this.sql.blobsFrom! : this.sql.blobsAfter!).all(container, from, limit) as BlobRow[];
  }
}
