import { TableKitError } from "../../../model/index.js";
import type {
  BackendCopy,
  BackendCopySource,
  BackendWriteResult,
  StoredBlobProperties,
  StoredCopy,
} from "../../blobs/blob-backend.js";
import { type BlobRow, newEtag, propertiesOf } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { sharedContent } from "./blob-snapshots.js";
import { checkWrite, containerNotFound } from "./blob-write-checks.js";
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

/** A row's properties with the copy that wrote it, when one did. */
export function withCopy(host: EmbeddedContainerHost, row: BlobRow): StoredBlobProperties {
  const copy = host.catalogue.copies.of(row.container, row.name, row.etag);
  return { ...propertiesOf(row), ...(copy ? { copy } : {}) };
}

/**
 * Copy Blob inside the store, in one write transaction: the destination becomes a row sharing the
 * source's bytes (hard links, as a snapshot does), its committed block list the source's.
 */
export function copyBlob(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  source: BackendCopySource,
  copy: BackendCopy,
): BackendWriteResult & { copy: StoredCopy } {
  const { catalogue, content } = host;
  let made: string | undefined;
  const freed: string[] = [];
  try {
    const result = host.immediate(() => {
      const from = catalogue.blobIn(source.container, source.name);
      const sourceRow =
        from &&
        (source.snapshot === undefined
          ? from.row
          : catalogue.snapshots.one(from.container, source.name, source.snapshot));
      if (!from || !sourceRow) {
        throw new TableKitError("CannotVerifyCopySource", "The specified blob does not exist.", {
          details: { source: true, containerName: source.container, blobName: source.name },
        });
      }
      if (source.ifMatch !== undefined && source.ifMatch !== "*" && source.ifMatch !== sourceRow.etag) {
        throw new TableKitError(
          "SourceConditionNotMet",
          "The source condition specified using HTTP conditional header(s) is not met.",
          { details: { source: true } },
        );
      }
      const to = catalogue.blobIn(container, name);
      if (!to) throw containerNotFound(container);
      checkWrite(to.row, copy.conditions);
      const shared = sharedContent(content, sourceRow);
      made = shared.content || undefined;
      const row: BlobRow = {
        ...sourceRow,
        ...shared,
        container: to.container,
        name,
        etag: newEtag(),
        modified: Date.now(),
        ...(copy.metadata === undefined ? {} : { metadata: JSON.stringify(copy.metadata) }),
      };
      catalogue.upsert(row);
      const blocks =
        source.snapshot === undefined ? catalogue.committedBlocks(from.container, source.name) : [];
      catalogue.setCommittedBlocks(to.container, name, blocks.length > 0 ? blocks : undefined);
      freed.push(...catalogue.dropStaged(to.container, name));
      if (to.row?.content) freed.push(to.row.content);
      const recorded: StoredCopy = {
        id: copy.id,
        status: "success",
        source: copy.sourceUrl,
        progress: `${row.length}/${row.length}`,
        completedOn: new Date(Math.floor(row.modified / 1000) * 1000),
      };
      catalogue.copies.record(to.container, name, row.etag, recorded);
      return { ...propertiesOf(row), copy: recorded };
    });
    made = undefined;
    host.removeContent(...freed);
    return { etag: result.etag, lastModified: result.lastModified, copy: result.copy };
  } catch (err) {
    if (made) host.removeContent(made);
    throw err;
  }
}
