import type { StoredCopy } from "../../blobs/blob-backend.js";
import type { Db } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

/**
 * The copy properties of blobs, in their own table (never a column of tk_blobs): a row names the
 * ETag the copy wrote, so any later write of the blob (a new ETag) leaves it stale without touching
 * it, as the service clears x-ms-copy-* once the blob is modified.
 */
export const COPY_SCHEMA = `
  CREATE TABLE IF NOT EXISTS tk_blob_copies (
    container INTEGER NOT NULL,
    name TEXT NOT NULL,
    etag TEXT NOT NULL,
    copy TEXT NOT NULL,
    PRIMARY KEY (container, name)
  );`;

export class EmbeddedCopies {
  private readonly sql: Record<string, SqliteStatement>;

  constructor(db: Db) {
    this.sql = {
      record: db.prepare(
        "INSERT OR REPLACE INTO tk_blob_copies (container, name, etag, copy) VALUES (?, ?, ?, ?)",
      ),
      of: db.prepare("SELECT etag, copy FROM tk_blob_copies WHERE container = ? AND name = ?"),
      dropOf: db.prepare("DELETE FROM tk_blob_copies WHERE container = ?"),
    };
  }

  record(container: number, name: string, etag: string, copy: StoredCopy): void {
    this.sql.record!.run(container, name, etag, JSON.stringify(copy));
  }

  /** The copy that wrote the blob at `etag`, if that is still the blob's ETag. */
  of(container: number, name: string, etag: string): StoredCopy | undefined {
    const row = this.sql.of!.get(container, name) as { etag: string; copy: string } | undefined;
    if (!row || row.etag !== etag) return undefined;
    const copy = JSON.parse(row.copy) as StoredCopy & { completedOn?: string };
    return { ...copy, ...(copy.completedOn ? { completedOn: new Date(copy.completedOn) } : {}) };
  }

  dropContainer(container: number): void {
    this.sql.dropOf!.run(container);
  }
}
