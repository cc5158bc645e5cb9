import type { ContentHeaders, Metadata, StoredContainer } from "../../blobs/blob-backend.js";
import type { StoredLease } from "../../blobs/blob-leases.js";
import { EmbeddedBlobAnnotations } from "./blob-annotations.js";
import type { EmbeddedBlobContent } from "./blob-content.js";
import { COPY_SCHEMA, EmbeddedCopies } from "./blob-copy-records.js";
import {
  type BlobRow,
  type CommittedBlocks,
  type ContainerRow,
  containerOf,
  newEtag,
  parseLease,
  propsJson,
} from "./blob-row.js";
import { addMissingBlobColumns, BLOB_COLUMNS, BLOB_SCHEMA, withStaged } from "./blob-schema.js";
import { addSnapshotColumns, EmbeddedSnapshots, SNAPSHOT_SCHEMA } from "./blob-snapshots.js";
import { addDeletedBlobColumns, EmbeddedSoftDeletes, SOFT_DELETE_SCHEMA } from "./blob-soft-delete.js";
import { type Db, withBusyWait } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

/**
 * The blob port's rows in the store's SQLite database: containers, and one row per blob naming its
 * content, length, ETag and properties. Created on first use (IF NOT EXISTS, under the write lock),
 * so a database that never held a blob has no blob tables. Names sort by SQLite's BINARY collation:
 * UTF-8 bytes, which is code-point order.
 */
export type { BlobRow } from "./blob-row.js";

export { newEtag, parseLease, propertiesOf, propsJson } from "./blob-row.js";

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

export type { CommittedBlocks } from "./blob-row.js";

/** Prepared statements over the blob tables of one database. */
export class EmbeddedBlobCatalogue {
  private readonly sql: Record<string, SqliteStatement>;
  /** Index tags and access tiers (blob-annotations.ts). */
  readonly annotations: EmbeddedBlobAnnotations;
  /** The blobs' snapshots (blob-snapshots.ts). */
  readonly snapshots: EmbeddedSnapshots;
  /** The copy properties of blobs a copy wrote (blob-copies.ts). */
  readonly copies: EmbeddedCopies;
  /** Soft-deleted blobs and snapshots (blob-soft-delete.ts). */
  readonly softDeletes: EmbeddedSoftDeletes;

  constructor(
    readonly db: Db,
    content: EmbeddedBlobContent,
  ) {
    // Made on the blob port's first use, outside the store's lock wait: another process may be writing.
    this.annotations = withBusyWait(db, () => {
      db.transaction(() => {
        db.exec(BLOB_SCHEMA + SNAPSHOT_SCHEMA + COPY_SCHEMA + SOFT_DELETE_SCHEMA);
        addMissingBlobColumns(db);
        addSnapshotColumns(db);
        addDeletedBlobColumns(db);
      }).immediate();
      return db.transaction(() => new EmbeddedBlobAnnotations(db)).immediate();
    });
    this.snapshots = new EmbeddedSnapshots(db);
    this.copies = new EmbeddedCopies(db);
    this.softDeletes = new EmbeddedSoftDeletes(db, content, this.annotations);
    const prepare = (text: string) => db.prepare(text);
    this.sql = {
      containerId: prepare("SELECT id FROM tk_containers WHERE name = ?").pluck(),
      container: prepare("SELECT name, etag, modified, lease FROM tk_containers WHERE name = ?"),
      containerLease: prepare("SELECT id, etag, modified, lease FROM tk_containers WHERE name = ?"),
      setContainerLease: prepare("UPDATE tk_containers SET lease = ? WHERE id = ?"),
      setBlobLease: prepare("UPDATE tk_blobs SET lease = ? WHERE container = ? AND name = ?"),
      setHeaders: prepare(`UPDATE tk_blobs SET content_type = ?, props = ?, etag = ?, modified = ?
        WHERE container = ? AND name = ?`),
      setMetadata: prepare(
        "UPDATE tk_blobs SET metadata = ?, etag = ?, modified = ? WHERE container = ? AND name = ?",
      ),
      insertContainer: prepare("INSERT OR IGNORE INTO tk_containers (name, etag, modified) VALUES (?, ?, ?)"),
      deleteContainer: prepare("DELETE FROM tk_containers WHERE id = ?"),
      containersFrom: prepare(
        "SELECT name, etag, modified, lease FROM tk_containers WHERE name >= ? AND name > ? ORDER BY name LIMIT ?",
      ),
      contentsOf: prepare("SELECT content FROM tk_blobs WHERE container = ? AND content <> ''").pluck(),
      allContents: prepare(`SELECT content FROM tk_blobs WHERE content <> ''
        UNION ALL SELECT content FROM tk_staged_blocks WHERE content <> ''
        UNION ALL SELECT content FROM tk_snapshots WHERE content <> ''
        UNION ALL SELECT content FROM tk_deleted_blobs WHERE content <> ''`).pluck(),
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
      deletePagesOf: prepare("DELETE FROM tk_pages WHERE container = ?"),
      deletePages: prepare("DELETE FROM tk_pages WHERE container = ? AND blob = ?"),
      copyPages: prepare(`INSERT INTO tk_pages (container, blob, start, end, data, stamp)
        SELECT @toContainer, @toName, start, end, data, stamp FROM tk_pages WHERE container = @container AND blob = @name`),
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
        (container, name, content, length, etag, modified, type, blocks, content_type, metadata, data, props, lease)
        VALUES (@container, @name, @content, @length, @etag, @modified, @type, @blocks, @content_type, @metadata,
          @data, @props, @lease)`),
      appended: prepare(
        "UPDATE tk_blobs SET length = ?, blocks = ?, etag = ?, modified = ? WHERE container = ? AND name = ?",
      ),
      deleteBlob: prepare("DELETE FROM tk_blobs WHERE container = ? AND name = ?"),
      sealed: prepare(
        "UPDATE tk_blobs SET sealed = 1, etag = ?, modified = ? WHERE container = ? AND name = ?",
      ),
      blobsAfter: prepare(
        `SELECT ${BLOB_COLUMNS} FROM tk_blobs WHERE container = ? AND name > ? ORDER BY name LIMIT ?`,
      ),
      blobsFrom: prepare(
        `SELECT ${BLOB_COLUMNS} FROM tk_blobs WHERE container = ? AND name >= ? ORDER BY name LIMIT ?`,
      ),
      // The same with every name that has staged blocks and no row: an empty block blob row whose
      // etag is empty (what marks it uncommitted).
      withStagedAfter: prepare(withStaged(">")),
      withStagedFrom: prepare(withStaged(">=")),
    };
  }

  containerId(name: string): number | undefined {
    return this.sql.containerId!.get(name) as number | undefined;
  }

  container(name: string): StoredContainer | undefined {
    const row = this.sql.container!.get(name) as ContainerRow | undefined;
    return row && containerOf(row);
  }

  /** The container's id, times and lease, for a lease operation or a delete (in the caller's transaction). */
  containerLease(
    name: string,
  ): { id: number; etag: string; modified: number; lease: StoredLease | undefined } | undefined {
    const row = this.sql.containerLease!.get(name) as
      | { id: number; etag: string; modified: number; lease: string | null }
      | undefined;
    return row && { ...row, lease: parseLease(row.lease) };
  }

  setContainerLease(id: number, lease: StoredLease | undefined): void {
    this.sql.setContainerLease!.run(lease ? JSON.stringify(lease) : null, id);
  }

  setBlobLease(container: number, name: string, lease: StoredLease | undefined): void {
    this.sql.setBlobLease!.run(lease ? JSON.stringify(lease) : null, container, name);
  }

  /** Set Blob Properties: the content type and headers replaced, the creation time kept. */
  setHeaders(
    row: BlobRow,
    contentType: string | undefined,
    headers: ContentHeaders,
    etag: string,
    modified: number,
  ): void {
    const props = propsJson(headers, row, modified);
    this.sql.setHeaders!.run(contentType ?? null, props, etag, modified, row.container, row.name);
  }

  setMetadata(row: BlobRow, metadata: Metadata, etag: string, modified: number): void {
    this.sql.setMetadata!.run(JSON.stringify(metadata), etag, modified, row.container, row.name);
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
      ...this.softDeletes.dropContainer(id),
    ];
    this.sql.deleteBlobsOf!.run(id);
    this.sql.deleteSnapshotsOf!.run(id);
    this.copies.dropContainer(id);
    this.sql.deleteStagedOf!.run(id);
    this.sql.deleteListsOf!.run(id);
    this.annotations.dropContainer(id);
    this.sql.deletePagesOf!.run(id);
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
    return (this.sql.containersFrom!.all(from, after, limit) as ContainerRow[]).map(containerOf);
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

  /**
   * Writes the blob's row (a new version: not sealed, no pages of the version it replaces); `current`
   * is the row it replaces, whose lease it keeps (a lease outlives a rewrite). `keepPages`: a page
   * blob copied onto itself, whose pages are the new version's.
   */
  upsert(row: BlobRow, current?: BlobRow, options: { keepPages?: boolean } = {}): void {
    this.softDeletes.beforeWrite(row, current, Date.now());
    if (!options.keepPages) this.sql.deletePages!.run(row.container, row.name);
    this.sql.upsert!.run({
      ...row,
      data: row.data ?? null,
      props: row.props ?? propsJson(undefined, current, row.modified),
      lease: current?.lease ?? null,
    });
  }

  appended(row: BlobRow, length: number, etag: string, modified: number): void {
    this.sql.appended!.run(length, row.blocks + 1, etag, modified, row.container, row.name);
  }

  sealed(container: number, name: string, etag: string, modified: number): void {
    this.sql.sealed!.run(etag, modified, container, name);
  }

  /** A copy of a page blob's written pages under another blob (inside the caller's transaction). */
  copyPages(container: number, name: string, toContainer: number, toName: string): void {
    this.sql.copyPages!.run({ container, name, toContainer, toName });
  }

  deleteBlob(container: number, name: string): void {
    this.sql.deletePages!.run(container, name);
    this.sql.deleteBlob!.run(container, name);
    this.annotations.drop(container, name);
  }

  /**
   * Up to `limit` rows in name order from `from` (inclusive, or exclusive when `after`); with
   * `uncommitted`, names with staged blocks only as well (rows with an empty etag).
   */
  blobs(container: number, from: string, inclusive: boolean, limit: number, uncommitted = false): BlobRow[] {
    if (uncommitted) {
      const statement = inclusive ? this.sql.withStagedFrom! : this.sql.withStagedAfter!;
      return statement.all(container, from, container, from, limit) as BlobRow[];
    }
    return (inclusive ? this.sql.blobsFrom! : this.sql.blobsAfter!).all(container, from, limit) as BlobRow[];
  }
}
