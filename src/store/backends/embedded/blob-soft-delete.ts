import type { AccessTier } from "../../blobs/blob-backend.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import type { EmbeddedBlobAnnotations } from "./blob-annotations.js";
import type { EmbeddedBlobContent } from "./blob-content.js";
import type { BlobRow } from "./blob-row.js";
import { type SnapshotRow, sharedContent, snapshotPagesKey, snapshotTime } from "./blob-snapshots.js";
import type { Db } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

/**
 * Soft-deleted blobs and snapshots (the Blob service's delete retention policy), in their own
 * table so no read, listing, lease or tag search of the live tables ever meets them: a row per
 * deleted blob (`snapshot` empty) or snapshot, holding what its live row held, when it was deleted
 * and when it expires (the retention in force at the delete, as the service keeps it). A deleted
 * page blob's pages move to a key no blob name can take (names hold no U+0000). Expired rows are
 * swept by the next write that meets soft-deleted data.
 */
export const SOFT_DELETE_SCHEMA = `
  CREATE TABLE IF NOT EXISTS tk_deleted_blobs (
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
    props TEXT,
    sealed INTEGER NOT NULL DEFAULT 0,
    kept TEXT,
    tags TEXT,
    block_list TEXT,
    deleted INTEGER NOT NULL,
    expires INTEGER NOT NULL,
    PRIMARY KEY (container, name, snapshot)
  );
  CREATE INDEX IF NOT EXISTS tk_deleted_blobs_by_expiry ON tk_deleted_blobs (expires);`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Adds the snapshot columns a tk_deleted_blobs made before them lacks (inside the schema transaction). */
export function addDeletedBlobColumns(db: Db): void {
  const columns = db.prepare("PRAGMA table_info(tk_deleted_blobs)").all() as { name: string }[];
  for (const column of ["tags", "block_list"]) {
    if (!columns.some((c) => c.name === column))
      db.exec(`ALTER TABLE tk_deleted_blobs ADD COLUMN ${column} TEXT`);
  }
}

/** What a deleted blob keeps beside its row, to come back whole: its tags, tier and block list. */
interface KeptAnnotations {
  readonly tags?: BlobTags;
  readonly tier?: { tier: AccessTier; changed: number };
  readonly blocks?: readonly (readonly [string, number])[];
}

/** A listed row: a live one, or a soft-deleted one with its times. */
export type ListedRow = BlobRow & { readonly deleted?: number | null; readonly expires?: number | null };

const ROW = "container, name, content, length, etag, modified, type, blocks, content_type, metadata";
/** Every column a snapshot keeps (blob-snapshots.ts): a soft-deleted snapshot comes back whole. */
const SNAPSHOT_COLUMNS = `${ROW}, snapshot, data, props, sealed, tags, block_list`;
const LISTED = `${ROW}, props, lease, sealed`;

/** The key a deleted page blob's pages are kept under (the blob's `snapshot` empty for itself). */
export function keptPagesKey(name: string, snapshot: string): string {
  return `\u0000${snapshot}\u0000${name}`;
}

/** Prepared statements over tk_deleted_blobs (the catalogue creates the table). */
export class EmbeddedSoftDeletes {
  private readonly sql: Record<string, SqliteStatement>;
  /** Prepared on first use: tk_service_properties is the state's table (made when a store opens). */
  private policy?: SqliteStatement;
  /** Content no row names any more, removed once the transaction that freed it has committed. */
  private freed: string[] = [];

  constructor(
    private readonly db: Db,
    private readonly content: EmbeddedBlobContent,
    private readonly annotations: EmbeddedBlobAnnotations,
  ) {
    const prepare = (text: string) => db.prepare(text);
    this.sql = {
      keepBlob: prepare(`INSERT OR REPLACE INTO tk_deleted_blobs
        (${ROW}, snapshot, data, props, sealed, kept, deleted, expires)
        VALUES (@container, @name, @content, @length, @etag, @modified, @type, @blocks, @content_type, @metadata,
          @snapshot, @data, @props, @sealed, @kept, @deleted, @expires)`),
      keepSnapshots: prepare(`INSERT OR REPLACE INTO tk_deleted_blobs (${SNAPSHOT_COLUMNS}, deleted, expires)
        SELECT ${SNAPSHOT_COLUMNS}, @deleted, @expires FROM tk_snapshots
        WHERE container = @container AND name = @name AND (@snapshot IS NULL OR snapshot = @snapshot)`),
      dropSnapshots: prepare(`DELETE FROM tk_snapshots
        WHERE container = @container AND name = @name AND (@snapshot IS NULL OR snapshot = @snapshot)`),
      base: prepare(
        "SELECT * FROM tk_deleted_blobs WHERE container = ? AND name = ? AND snapshot = '' AND expires > ?",
      ),
      restoreSnapshots: prepare(`INSERT OR IGNORE INTO tk_snapshots (${SNAPSHOT_COLUMNS})
        SELECT ${SNAPSHOT_COLUMNS} FROM tk_deleted_blobs
        WHERE container = ? AND name = ? AND snapshot <> '' AND expires > ?`),
      latest: prepare(`SELECT max(s) FROM (
          SELECT max(snapshot) AS s FROM tk_snapshots WHERE container = ? AND name = ?
          UNION ALL SELECT max(snapshot) FROM tk_deleted_blobs WHERE container = ? AND name = ? AND snapshot <> '')`).pluck(),
      dropOf: prepare("DELETE FROM tk_deleted_blobs WHERE container = ? AND name = ? AND snapshot = ?"),
      dropAllOf: prepare("DELETE FROM tk_deleted_blobs WHERE container = ? AND name = ?"),
      anyOf: prepare(
        "SELECT 1 FROM tk_deleted_blobs WHERE container = ? AND name = ? AND expires > ?",
      ).pluck(),
      restoreBlob: prepare(`INSERT INTO tk_blobs (${ROW}, data, props, lease, sealed)
        SELECT ${ROW}, data, props, NULL, sealed FROM tk_deleted_blobs
        WHERE container = ? AND name = ? AND snapshot = ''`),
      asSnapshot: prepare(
        "UPDATE tk_deleted_blobs SET snapshot = ? WHERE container = ? AND name = ? AND snapshot = ''",
      ),
      expired: prepare(
        "SELECT container, name, snapshot, type, content FROM tk_deleted_blobs WHERE expires <= ?",
      ),
      dropExpired: prepare("DELETE FROM tk_deleted_blobs WHERE expires <= ?"),
      movePages: prepare("UPDATE tk_pages SET blob = ? WHERE container = ? AND blob = ?"),
      dropPages: prepare("DELETE FROM tk_pages WHERE container = ? AND blob = ?"),
      contentsOf: prepare(
        "SELECT content FROM tk_deleted_blobs WHERE container = ? AND content <> ''",
      ).pluck(),
      dropContainer: prepare("DELETE FROM tk_deleted_blobs WHERE container = ?"),
      snapshotsOf: prepare(`SELECT ${ROW}, snapshot, deleted, expires FROM tk_deleted_blobs
        WHERE container = ? AND name = ? AND snapshot <> '' AND expires > ? ORDER BY snapshot`),
      listFrom: prepare(`SELECT * FROM (
          SELECT ${LISTED}, NULL AS deleted, NULL AS expires FROM tk_blobs WHERE container = @c AND name >= @from
          UNION ALL
          SELECT ${LISTED.replace("lease", "NULL AS lease")}, deleted, expires FROM tk_deleted_blobs
            WHERE container = @c AND name >= @from AND snapshot = '' AND expires > @now)
        ORDER BY name LIMIT @limit`),
      listAfter: prepare(`SELECT * FROM (
          SELECT ${LISTED}, NULL AS deleted, NULL AS expires FROM tk_blobs WHERE container = @c AND name > @from
          UNION ALL
          SELECT ${LISTED.replace("lease", "NULL AS lease")}, deleted, expires FROM tk_deleted_blobs
            WHERE container = @c AND name > @from AND snapshot = '' AND expires > @now)
        ORDER BY name LIMIT @limit`),
    };
  }

  /** The retention in days the service's properties set now, or undefined when soft delete is off. */
  retentionDays(): number | undefined {
    this.policy ??= this.db
      .prepare("SELECT properties FROM tk_service_properties WHERE service = 'blob'")
      .pluck();
    const text = this.policy.get() as string | undefined;
    if (text === undefined) return undefined;
    const policy = (JSON.parse(text) as { deleteRetentionPolicy?: { enabled: boolean; days?: number } })
      .deleteRetentionPolicy;
    return policy?.enabled && policy.days !== undefined ? policy.days : undefined;
  }

  /**
   * Keeps the live blob `row` as soft-deleted (its content and pages move; nothing is freed), with
   * its tags, tier and committed block list. The caller then deletes the live row.
   */
  keepBlob(row: BlobRow, blocks: readonly (readonly [string, number])[], days: number, now: number): void {
    const tags = this.annotations.tags(row.container, row.name);
    const tier = this.annotations.tier(row.container, row.name);
    const kept: KeptAnnotations = {
      ...(Object.keys(tags).length > 0 ? { tags } : {}),
      ...(tier ? { tier } : {}),
      ...(blocks.length > 0 ? { blocks } : {}),
    };
    if (row.type === "PageBlob") this.movePages(row.container, row.name, keptPagesKey(row.name, ""));
    this.insert(row, "", JSON.stringify(kept), days, now);
  }

  /** Moves the blob's snapshots (or the one named) from tk_snapshots to the soft-deleted ones. */
  keepSnapshots(
    container: number,
    name: string,
    snapshot: string | undefined,
    days: number,
    now: number,
  ): void {
    const params = {
      container,
      name,
      snapshot: snapshot ?? null,
      deleted: now,
      expires: now + days * DAY_MS,
    };
    this.sql.keepSnapshots!.run(params);
    this.sql.dropSnapshots!.run({ container, name, snapshot: snapshot ?? null });
  }

  /**
   * A write replaces the blob `current` (or writes over a soft-deleted one), as Put Blob, Put Block
   * List and Copy Blob do: with soft delete on, the state before the write is kept as a soft-deleted
   * snapshot sharing its bytes; a soft-deleted blob becomes one of its snapshots (of another blob
   * type: it is gone, as the service drops it). Archived and page blobs are not kept (docs/blobs.md).
   */
  beforeWrite(written: BlobRow, current: BlobRow | undefined, now: number): void {
    this.sweep(now);
    const { container, name } = written;
    if (current) {
      const days = this.retentionDays();
      if (days === undefined || current.type === "PageBlob") return;
      if (this.annotations.tier(container, name)?.tier === "Archive") return;
      const shared = sharedContent(this.content, current);
      const latest = this.latestSnapshot(container, name);
      this.insert({ ...current, ...shared }, snapshotTime(now, latest), null, days, now);
      return;
    }
    const base = this.sql.base!.get(container, name, now) as (BlobRow & { snapshot: string }) | undefined;
    if (!base) return;
    if (base.type !== written.type || base.type === "PageBlob") {
      this.purge(container, name, "", base.type, base.content);
      return;
    }
    this.sql.asSnapshot!.run(snapshotTime(now, this.latestSnapshot(container, name)), container, name);
  }

  /**
   * Undelete Blob: the soft-deleted blob back (when no live blob has its name) and every
   * soft-deleted snapshot. Undefined when the name has neither a live blob nor anything
   * soft-deleted; else the restored blob's committed block list, if it had one.
   */
  undelete(
    container: number,
    name: string,
    live: boolean,
    now: number,
  ): { blocks?: readonly (readonly [string, number])[] } | undefined {
    this.sweep(now);
    const base = this.sql.base!.get(container, name, now) as (BlobRow & { kept: string | null }) | undefined;
    if (!live && !base && this.sql.anyOf!.get(container, name, now) === undefined) return undefined;
    let blocks: readonly (readonly [string, number])[] | undefined;
    if (base && live) {
      // Written over without becoming a snapshot (a database older than this table's rules): one now.
      this.sql.asSnapshot!.run(snapshotTime(now, this.latestSnapshot(container, name)), container, name);
    } else if (base) {
      this.sql.restoreBlob!.run(container, name);
      const kept = base.kept ? (JSON.parse(base.kept) as KeptAnnotations) : {};
      if (kept.tags) this.annotations.setTags(container, name, kept.tags);
      if (kept.tier) this.annotations.setTier(container, name, kept.tier.tier, kept.tier.changed);
      if (base.type === "PageBlob") this.movePages(container, keptPagesKey(name, ""), name);
      this.sql.dropOf!.run(container, name, "");
      blocks = kept.blocks;
    }
    this.sql.restoreSnapshots!.run(container, name, now);
    this.sql.dropAllOf!.run(container, name);
    return blocks ? { blocks } : {};
  }

  /** Rows from `from` on (inclusive or after), live and soft-deleted blobs together, in name order. */
  listed(container: number, from: string, inclusive: boolean, limit: number, now: number): ListedRow[] {
    const params = { c: container, from, now, limit };
    return (inclusive ? this.sql.listFrom! : this.sql.listAfter!).all(params) as ListedRow[];
  }

  /** The blob's soft-deleted snapshots, oldest first. */
  deletedSnapshots(container: number, name: string, now: number): (SnapshotRow & ListedRow)[] {
    return this.sql.snapshotsOf!.all(container, name, now) as (SnapshotRow & ListedRow)[];
  }

  /** The content the container's soft-deleted rows hold; forgets them (its pages go with the container's). */
  dropContainer(container: number): string[] {
    const contents = this.sql.contentsOf!.all(container) as string[];
    this.sql.dropContainer!.run(container);
    return contents;
  }

  /** Content freed by the last transaction; empties the list (call after it committed, or after a rollback to forget it). */
  takeFreed(): string[] {
    const out = this.freed;
    this.freed = [];
    return out;
  }

  /** Forgets what expired by `now`: rows, kept pages; their content is freed after the commit. */
  sweep(now: number): void {
    const rows = this.sql.expired!.all(now) as {
      container: number;
      name: string;
      snapshot: string;
      type: string;
      content: string;
    }[];
    if (rows.length === 0) return;
    for (const r of rows) {
      if (r.type === "PageBlob") this.dropPagesOf(r.container, r.name, r.snapshot);
      if (r.content) this.freed.push(r.content);
    }
    this.sql.dropExpired!.run(now);
  }

  private purge(container: number, name: string, snapshot: string, type: string, content: string): void {
    if (type === "PageBlob") this.dropPagesOf(container, name, snapshot);
    if (content) this.freed.push(content);
    this.sql.dropOf!.run(container, name, snapshot);
  }

  /** A kept page blob's pages: a deleted blob's under keptPagesKey, a deleted snapshot's where its snapshot kept them. */
  private dropPagesOf(container: number, name: string, snapshot: string): void {
    this.sql.dropPages!.run(container, keptPagesKey(name, snapshot));
    if (snapshot !== "") this.sql.dropPages!.run(container, snapshotPagesKey(name, snapshot));
  }

  /** The blob's latest snapshot time, live or soft-deleted: a new one must come after it. */
  private latestSnapshot(container: number, name: string): string | undefined {
    return (this.sql.latest!.get(container, name, container, name) as string | null | undefined) ?? undefined;
  }

  private insert(row: BlobRow, snapshot: string, kept: string | null, days: number, now: number): void {
    this.sql.keepBlob!.run({
      container: row.container,
      name: row.name,
      content: row.content,
      length: row.length,
      etag: row.etag,
      modified: row.modified,
      type: row.type,
      blocks: row.blocks,
      content_type: row.content_type,
      metadata: row.metadata,
      snapshot,
      data: row.data ?? null,
      props: row.props ?? null,
      sealed: row.sealed ?? 0,
      kept,
      deleted: now,
      expires: now + days * DAY_MS,
    });
  }

  private movePages(container: number, from: string, to: string): void {
    this.sql.movePages!.run(to, container, from);
  }
}

/** The listing's view of a soft-deleted row: when it was deleted, whole days of retention left. */
export function deletedInfo(
  row: ListedRow,
  now: number,
): { deletedOn: Date; remainingRetentionDays: number } | undefined {
  if (row.deleted === undefined || row.deleted === null || row.expires == null) return undefined;
  return {
    deletedOn: new Date(Math.floor(row.deleted / 1000) * 1000),
    remainingRetentionDays: Math.max(1, Math.ceil((row.expires - now) / DAY_MS)),
  };
}
