import { randomInt } from "node:crypto";
import { Readable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import type {
  BackendConditions,
  BackendCopy,
  BackendCopySource,
  BackendCreatePageBlob,
  BackendPageBlobChange,
  BackendPageRangesQuery,
  BackendPageWrite,
  BackendPageWriteResult,
  BackendRange,
  BackendWriteResult,
  PageBlobBackend,
  StoredBlobProperties,
  StoredCopy,
  StoredPageRange,
} from "../../blobs/blob-backend.js";
import { checkLease } from "../../blobs/blob-leases.js";
import { sequenceConditionNotMet, sequenceConditionsHold } from "../../blobs/blob-rules.js";
import type { CallOptions } from "../../call-options.js";
import { type BlobRow, newEtag, parseLease, propertiesOf, propsJson } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { copyIncremental } from "./blob-incremental-copy.js";
import { diffPageRanges, type StampedRange } from "./blob-page-diff.js";
import { type SnapshotRow, snapshotPagesKey } from "./blob-snapshots.js";
import { blobNotFound, checkWrite, conditionNotMet, containerNotFound } from "./blob-write-checks.js";
import type { SqliteStatement } from "./sqlite-database.js";

/**
 * Page blobs of the embedded engine, sparse: the blob's row (type PageBlob, `length` its size,
 * `blocks` its sequence number, no content) and one row of `tk_pages` per written range
 * (`[start, end)`, never overlapping, each at most one write long: 4 MiB). A write or clear cuts the
 * ranges it overlaps in the same IMMEDIATE transaction, so a 1 TiB blob with three pages written
 * holds three small rows. Reads compose zeros and ranges as they stream.
 */

/** The longest stored range: no write is longer, and cutting only shortens. */
const MAX_RANGE = 4 * 1024 * 1024;
/** Zeros are streamed in chunks of this size, from one shared buffer. */
const ZERO_CHUNK = 1024 * 1024;
const ZEROS = Buffer.alloc(ZERO_CHUNK);
/** Ranges read per read transaction while streaming (at most 4 × 4 MiB held at once). */
const RANGES_PER_READ = 4;

interface PageRow {
  readonly start: number;
  readonly end: number;
  readonly data: Buffer;
  readonly stamp: number | null;
}

/** A fresh write stamp: which write put a range there (random, so writers in two processes never share one). */
function newStamp(): number {
  return randomInt(1, 2 ** 48);
}

export class EmbeddedPageBlobs implements PageBlobBackend {
  private readonly sql: Record<string, SqliteStatement>;

  constructor(
    private readonly host: EmbeddedContainerHost,
    private readonly containerName: string,
  ) {
    const db = host.catalogue.db;
    this.sql = {
      overlapping: db.prepare(`SELECT start, end, data, stamp FROM tk_pages
        WHERE container = ? AND blob = ? AND start > ? AND start < ? AND end > ? ORDER BY start`),
      // Ranges overlapping [from, to) in order, at most `limit`: the reads' batches.
      from: db.prepare(`SELECT start, end, data FROM tk_pages
        WHERE container = ? AND blob = ? AND start > ? AND start < ? AND end > ? ORDER BY start LIMIT ?`),
      // Without the stamp: it sits after the bytes (an added column), so reading it walks them.
      bounds: db.prepare(`SELECT start, end, NULL AS stamp FROM tk_pages
        WHERE container = ? AND blob = ? AND start > ? AND start < ? AND end > ? ORDER BY start`),
      stamped: db.prepare(`SELECT start, end, stamp FROM tk_pages
        WHERE container = ? AND blob = ? AND start > ? AND start < ? AND end > ? ORDER BY start`),
      remove: db.prepare("DELETE FROM tk_pages WHERE container = ? AND blob = ? AND start = ?"),
      insert: db.prepare(
        "INSERT INTO tk_pages (container, blob, start, end, data, stamp) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      dropFrom: db.prepare("DELETE FROM tk_pages WHERE container = ? AND blob = ? AND start >= ?"),
      changed: db.prepare(
        "UPDATE tk_blobs SET length = ?, blocks = ?, etag = ?, modified = ? WHERE container = ? AND name = ?",
      ),
    };
  }

  async createPageBlob(
    name: string,
    create: BackendCreatePageBlob,
    _call: CallOptions,
  ): Promise<BackendWriteResult> {
    const { catalogue } = this.host;
    const row = {
      name,
      content: "",
      length: create.size,
      etag: newEtag(),
      modified: Date.now(),
      type: "PageBlob" as const,
      blocks: create.sequenceNumber,
      content_type: create.contentType ?? null,
      metadata: JSON.stringify(create.metadata),
      data: null,
    };
    const freed = this.host.immediate(() => {
      const { container, row: current } = this.lookup(name);
      checkWrite(current, create.conditions);
      catalogue.annotations.checkTagConditions(container, name, current !== undefined, create.conditions);
      catalogue.upsert(
        { ...row, container, props: propsJson(create.headers, current, row.modified) },
        current,
      );
      // A new blob: its tags are the ones given, its tier none (page blobs have no access tier here).
      catalogue.annotations.replace(container, name, create.tags ? { tags: create.tags } : {});
      catalogue.setCommittedBlocks(container, name, undefined);
      const dropped = catalogue.dropStaged(container, name);
      return current?.content ? [...dropped, current.content] : dropped;
    });
    this.host.removeContent(...freed);
    return { etag: row.etag, lastModified: propertiesOf({ ...row, container: 0 }).lastModified };
  }

  async writePages(
    name: string,
    write: BackendPageWrite,
    _call: CallOptions,
  ): Promise<BackendPageWriteResult> {
    return this.host.immediate(() => {
      const { container, row } = this.pageBlob(name, write.conditions);
      if (!sequenceConditionsHold(write.conditions, row.blocks)) throw sequenceConditionNotMet();
      const end = write.offset + write.count;
      if (end > row.length) {
        throw new TableKitError("InvalidPageRange", "The page range specified is invalid.", {
          details: { offset: write.offset, count: write.count, size: row.length },
        });
      }
      this.cut(container, name, write.offset, end);
      if (write.bytes) {
        this.sql.insert!.run(container, name, write.offset, end, Buffer.from(write.bytes), newStamp());
      }
      return this.changed(container, row, row.length, row.blocks);
    });
  }

  async getPageRanges(
    name: string,
    range: BackendRange | undefined,
    conditions: BackendConditions,
    _call: CallOptions,
    query: BackendPageRangesQuery = {},
  ): Promise<{
    ranges: StoredPageRange[];
    clearRanges?: StoredPageRange[];
    properties: StoredBlobProperties;
  }> {
    return this.host.guard(() => {
      const { container, row } =
        query.snapshot === undefined
          ? this.pageBlob(name, conditions, "read")
          : this.snapshotPageBlob(name, query.snapshot);
      if (range && range.offset >= row.length) {
        throw new TableKitError(
          "InvalidRange",
          "The range specified is invalid for the current size of the resource.",
          {
            details: { offset: range.offset, size: row.length },
          },
        );
      }
      const from = range?.offset ?? 0;
      const to = Math.min(row.length, range?.count === undefined ? row.length : from + range.count);
      const key = query.snapshot === undefined ? name : snapshotPagesKey(name, query.snapshot);
      const clip = (rows: StampedRange[]) =>
        rows.map((r) => ({ start: Math.max(r.start, from), end: Math.min(r.end, to), stamp: r.stamp }));
      const stamped = query.previousSnapshot !== undefined;
      const rowsOf = (blob: string) =>
        clip(
          (stamped ? this.sql.stamped! : this.sql.bounds!).all(
            container,
            blob,
            from - MAX_RANGE,
            to,
            from,
          ) as StampedRange[],
        );
      const properties = propertiesOf(row);
      if (query.previousSnapshot === undefined) {
        // As written: a write's range stays one range, cut where later writes overlap it (Azurite's
        // answer too; the service documents no coalescing).
        return { ranges: rowsOf(key).map((r) => ({ start: r.start, end: r.end - 1 })), properties };
      }
      if (query.snapshot !== undefined && query.previousSnapshot >= query.snapshot) {
        throw new TableKitError(
          "PreviousSnapshotCannotBeNewer",
          "The prevsnapshot query parameter value cannot be newer than snapshot query parameter value.",
          { details: { snapshot: query.snapshot, previousSnapshot: query.previousSnapshot } },
        );
      }
      const previous = this.host.catalogue.snapshots.one(container, name, query.previousSnapshot);
      if (!previous) {
        throw new TableKitError("PreviousSnapshotNotFound", "The previous snapshot is not found.", {
          details: { blobName: name, previousSnapshot: query.previousSnapshot },
        });
      }
      const diff = diffPageRanges(rowsOf(key), rowsOf(snapshotPagesKey(name, query.previousSnapshot)));
      return { ranges: diff.changed, clearRanges: diff.cleared, properties };
    });
  }

  async changePageBlob(
    name: string,
    change: BackendPageBlobChange,
    _call: CallOptions,
  ): Promise<BackendPageWriteResult> {
    return this.host.immediate(() => {
      const { container, row } = this.pageBlob(name, change.conditions);
      const size = change.size ?? row.length;
      if (size < row.length) this.shrink(container, name, size);
      const given = change.sequenceNumber ?? 0;
      const sequence =
        change.sequenceNumberAction === "update"
          ? given
          : change.sequenceNumberAction === "max"
            ? Math.max(row.blocks, given)
            : change.sequenceNumberAction === "increment"
              ? row.blocks + 1
              : row.blocks;
      if (!Number.isSafeInteger(sequence)) {
        throw new TableKitError("InvalidInput", "The sequence number cannot pass 2^53-1 here");
      }
      return this.changed(container, row, size, sequence);
    });
  }

  async copyIncremental(
    name: string,
    source: BackendCopySource & { readonly snapshot: string },
    copy: BackendCopy,
    _call: CallOptions,
  ): Promise<BackendWriteResult & { copy: StoredCopy }> {
    return copyIncremental(this.host, this.containerName, name, source, copy);
  }

  /**
   * `count` bytes from `offset` of a page blob's row (read in the caller's transaction): zeros
   * where no page was written. Ranges are read a few at a time; a blob written between two reads
   * ends the stream with ServerBusy, never with bytes of two versions.
   */
  openRead(row: BlobRow | SnapshotRow, offset: number, count: number): Readable {
    const { container, name, etag } = row;
    const { host, sql, containerName } = this;
    const snapshot = "snapshot" in row ? row.snapshot : undefined;
    const key = snapshot === undefined ? name : snapshotPagesKey(name, snapshot);
    // A snapshot never changes: only its delete ends the read.
    const unchanged = () =>
      snapshot === undefined
        ? host.catalogue.blobIn(containerName, name)?.row?.etag === etag
        : host.catalogue.snapshots.has(container, name, snapshot);
    // Each batch in its own read transaction, checked against the version the read started on.
    const batchFrom = (at: number, end: number) =>
      host.read(() => {
        if (!unchanged()) {
          throw new TableKitError(
            "ServerBusy",
            "The page blob was written while it was being read; read it again",
          );
        }
        return sql.from!.all(container, key, at - MAX_RANGE, end, at, RANGES_PER_READ) as PageRow[];
      });
    async function* bytes(): AsyncGenerator<Buffer> {
      let at = offset;
      const end = offset + count;
      while (at < end) {
        const batch = batchFrom(at, end);
        for (const page of batch) {
          const start = Math.max(page.start, at);
          yield* zeros(start - at);
          const stop = Math.min(page.end, end);
          yield page.data.subarray(start - page.start, stop - page.start);
          at = stop;
        }
        if (batch.length < RANGES_PER_READ) break;
      }
      yield* zeros(end - at);
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  /** Removes [from, to) from the stored ranges: the ranges it overlaps are cut to what lies outside it. */
  private cut(container: number, name: string, from: number, to: number): void {
    const rows = this.sql.overlapping!.all(container, name, from - MAX_RANGE, to, from) as PageRow[];
    for (const r of rows) {
      this.sql.remove!.run(container, name, r.start);
      // What is left of a range stays the same write's (its stamp), for Get Page Ranges' diff.
      if (r.start < from)
        this.sql.insert!.run(container, name, r.start, from, r.data.subarray(0, from - r.start), r.stamp);
      if (r.end > to)
        this.sql.insert!.run(container, name, to, r.end, r.data.subarray(to - r.start), r.stamp);
    }
  }

  /** Drops every page at or past `size`: the range across it is cut, the ones past it deleted. */
  private shrink(container: number, name: string, size: number): void {
    const across = this.sql.overlapping!.all(container, name, size - MAX_RANGE, size, size) as PageRow[];
    for (const r of across) {
      this.sql.remove!.run(container, name, r.start);
      this.sql.insert!.run(container, name, r.start, size, r.data.subarray(0, size - r.start), r.stamp);
    }
    this.sql.dropFrom!.run(container, name, size);
  }

  private changed(container: number, row: BlobRow, size: number, sequence: number): BackendPageWriteResult {
    const etag = newEtag();
    const modified = Date.now();
    this.sql.changed!.run(size, sequence, etag, modified, container, row.name);
    return { etag, lastModified: propertiesOf({ ...row, modified }).lastModified, sequenceNumber: sequence };
  }

  /** The page blob's row: ContainerNotFound, BlobNotFound, ConditionNotMet, InvalidBlobType. */
  private pageBlob(
    name: string,
    conditions: BackendConditions,
    use: "read" | "write" = "write",
  ): { container: number; row: BlobRow } {
    const { container, row } = this.lookup(name);
    if (!row) throw blobNotFound(this.containerName, name);
    checkLease(parseLease(row.lease), conditions.leaseId, use, Date.now());
    this.host.catalogue.annotations.checkTagConditions(container, name, true, conditions);
    if (conditions.ifMatch !== undefined && conditions.ifMatch !== "*" && conditions.ifMatch !== row.etag) {
      throw conditionNotMet(name);
    }
    if (conditions.ifNoneMatch === "*") throw conditionNotMet(name);
    if (row.type !== "PageBlob") {
      throw new TableKitError("InvalidBlobType", "The blob type is invalid for this operation.", {
        details: { blobName: name, blobType: row.type },
      });
    }
    return { container, row };
  }

  /** A page blob's snapshot row: ContainerNotFound, BlobNotFound, InvalidBlobType. */
  private snapshotPageBlob(name: string, snapshot: string): { container: number; row: SnapshotRow } {
    const container = this.host.catalogue.containerId(this.containerName);
    if (container === undefined) throw containerNotFound(this.containerName);
    const row = this.host.catalogue.snapshots.one(container, name, snapshot);
    if (!row) throw blobNotFound(this.containerName, name);
    if (row.type !== "PageBlob") {
      throw new TableKitError("InvalidBlobType", "The blob type is invalid for this operation.", {
        details: { blobName: name, blobType: row.type, snapshot },
      });
    }
    return { container, row };
  }

  private lookup(name: string): { container: number; row: BlobRow | undefined } {
    const found = this.host.catalogue.blobIn(this.containerName, name);
    if (!found) throw containerNotFound(this.containerName);
    return found;
  }
}

function* zeros(count: number): Generator<Buffer> {
  for (let left = count; left > 0; left -= ZERO_CHUNK) yield ZEROS.subarray(0, Math.min(ZERO_CHUNK, left));
}
