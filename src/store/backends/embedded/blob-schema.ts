import type { Db } from "./connection.js";

/** The blob tables of the embedded engine (snapshots, copies and soft deletes add theirs), the columns added since, and the listing queries' columns. */

export const BLOB_SCHEMA = `
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
  CREATE TABLE IF NOT EXISTS tk_pages (
    container INTEGER NOT NULL,
    blob TEXT NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (container, blob, start)
  );
  CREATE TABLE IF NOT EXISTS tk_block_lists (
    container INTEGER NOT NULL,
    blob TEXT NOT NULL,
    blocks TEXT NOT NULL,
    PRIMARY KEY (container, blob)
  );`;

/**
 * Columns added after the first release, each by a guarded ALTER TABLE (only when missing), so a
 * database made before keeps working: a blob's other properties (`props`: JSON of its content
 * headers and creation time) and the leases of blobs and containers (JSON of a StoredLease).
 */
const ADDED_COLUMNS: readonly (readonly [table: string, column: string, type: string])[] = [
  ["tk_blobs", "props", "TEXT"],
  ["tk_blobs", "lease", "TEXT"],
  ["tk_containers", "lease", "TEXT"],
  // Append blobs that can be sealed (0: not sealed).
  ["tk_blobs", "sealed", "INTEGER NOT NULL DEFAULT 0"],
  // Which write put a page range there (a cut keeps it): Get Page Ranges' diff compares them.
  ["tk_pages", "stamp", "INTEGER"],
];

export function addMissingBlobColumns(db: Db): void {
  for (const [table, column, type] of ADDED_COLUMNS) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

/** Every column but the inline bytes: what listings read. */
export const BLOB_COLUMNS =
  "container, name, content, length, etag, modified, type, blocks, content_type, metadata, props, lease, sealed";

/** Blob rows and staged-only names from a name on (`op`: `>` or `>=`), in name order. */
export function withStaged(op: ">" | ">="): string {
  return `SELECT ${BLOB_COLUMNS} FROM tk_blobs WHERE container = ? AND name ${op} ?
    UNION ALL
    SELECT s.container, s.blob, '', 0, '', 0, 'BlockBlob', 0, NULL, '{}', NULL, NULL, 0
      FROM (SELECT DISTINCT container, blob FROM tk_staged_blocks WHERE container = ? AND blob ${op} ?) s
      WHERE NOT EXISTS (SELECT 1 FROM tk_blobs b WHERE b.container = s.container AND b.name = s.blob)
    ORDER BY 2 LIMIT ?`;
}
