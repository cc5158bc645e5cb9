import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { BackendListPage, BackendListQuery, StoredBlobItem } from "../../blobs/blob-backend.js";
import { type BlobRow, type EmbeddedBlobCatalogue, propertiesOf } from "./blob-catalogue.js";
import { deletedInfo, type ListedRow } from "./blob-soft-delete.js";

/**
 * Rows plus statements one synchronous chunk of a listing may cost before other requests get the
 * event loop (a few milliseconds of SQLite); a page that needs more continues on a later turn.
 */
export const LISTING_CHUNK_WORK = 512;

/** What one listing page cost the engine: counted, so a test can bound it without timing it. */
export interface ListingWork {
  /** Rows the page's statements returned. */
  readonly rowsRead: number;
  /** Statements executed (one per seek or batch). */
  readonly statements: number;
  /** Synchronous chunks the page ran in (each its own read transaction). */
  readonly chunks: number;
}

let listingObserver: ((work: ListingWork) => void) | undefined;

/** Sets (or, with undefined, clears) the observer told what each listing page cost. */
export function observeListing(observer: ((work: ListingWork) => void) | undefined): void {
  listingObserver = observer;
}

/** How the listing reaches the rows: `read` runs one synchronous chunk in a read transaction. */
export interface ListingSource {
  readonly catalogue: EmbeddedBlobCatalogue;
  read<T>(work: () => T): T;
  /** The container's id (ContainerNotFound when it has none); asked once, in the first chunk. */
  containerId(): number;
}

/**
 * One listing page over the blob rows of a container: names from the prefix on, in order, each
 * name holding the delimiter after the prefix rolled up into one virtual directory. The
 * continuation is the last item returned (`b:` a blob, `p:` a directory, whose names are skipped).
 *
 * After a directory the listing seeks past every name inside it (the primary key's order) and
 * reads one row; batches then double while they hold only blobs. So a page reads at most about
 * twice its size in rows however the names nest, and runs in chunks of bounded work.
 */
export async function listPage(source: ListingSource, query: BackendListQuery): Promise<BackendListPage> {
  const state: PageState = {
    query,
    items: [],
    cursor: startOf(query),
    batch: query.delimiter === undefined ? Number.POSITIVE_INFINITY : 1,
    container: 0,
    rowsRead: 0,
    statements: 0,
    now: Date.now(),
    ...(query.continuation?.startsWith("s:")
      ? { resumeAfter: JSON.parse(query.continuation.slice(2)) as [string, string] }
      : {}),
  };
  let chunks = 0;
  let page: BackendListPage | undefined;
  while (page === undefined) {
    if (chunks > 0) await nextTurn();
    chunks++;
    page = source.read(() => {
      if (chunks === 1) state.container = source.containerId();
      return chunk(source.catalogue, state);
    });
  }
  listingObserver?.({ rowsRead: state.rowsRead, statements: state.statements, chunks });
  return page;
}

interface PageState {
  readonly query: BackendListQuery;
  readonly items: BackendListPage["items"][number][];
  /** Where the next read starts; undefined when nothing can follow (the listing ends). */
  cursor: Cursor | undefined;
  /** Rows the next read asks for: 1 after a seek, doubling while rows are blobs. */
  batch: number;
  container: number;
  rowsRead: number;
  statements: number;
  /** The page's clock: which soft-deleted rows are still kept, and their days left. */
  readonly now: number;
  /** A page that ended inside a blob's snapshots: that blob's name and the last snapshot listed. */
  resumeAfter?: [name: string, snapshot: string];
}

/** Reads until the page is complete (returned) or this chunk's work is spent (undefined). */
function chunk(catalogue: EmbeddedBlobCatalogue, s: PageState): BackendListPage | undefined {
  const { prefix, delimiter, maxPageSize } = s.query;
  let work = 0;
  while (work < LISTING_CHUNK_WORK) {
    if (s.cursor === undefined) return { items: s.items };
    const want = Math.min(maxPageSize - s.items.length + 1, s.batch, LISTING_CHUNK_WORK - work);
    // With includeDeleted the soft-deleted rows' reader lists live and deleted blobs (staged-only
    // names are not among them: include=deleted,uncommittedblobs lists no uncommitted names).
    const rows: ListedRow[] = s.query.includeDeleted
      ? catalogue.softDeletes.listed(s.container, s.cursor.from, s.cursor.inclusive, want, s.now)
      : catalogue.blobs(
          s.container,
          s.cursor.from,
          s.cursor.inclusive,
          want,
          s.query.includeUncommitted === true,
        );
    s.statements++;
    s.rowsRead += rows.length;
    work += rows.length + 1;
    let sought = false;
    for (const row of rows) {
      if (!row.name.startsWith(prefix)) return { items: s.items };
      if (s.items.length === maxPageSize)
        return { items: s.items, continuation: continuationOf(s.items.at(-1)!) };
      const cut = delimiter === undefined ? -1 : row.name.indexOf(delimiter, prefix.length);
      if (cut >= 0) {
        const directory = row.name.slice(0, cut + delimiter!.length);
        s.items.push({ kind: "prefix", name: directory });
        s.cursor = pastDirectory(directory);
        s.batch = 1;
        sought = true;
        break;
      }
      if (row.etag === "") {
        s.items.push(uncommittedItem(row));
        s.cursor = { from: row.name, inclusive: false };
        continue;
      }
      if (s.query.includeSnapshots) {
        const full = pushWithSnapshots(catalogue, s, row);
        if (full) return full;
        continue;
      }
      s.items.push(blobItem(row, catalogue, s.query, s.now));
      s.cursor = { from: row.name, inclusive: false };
    }
    if (sought) continue;
    // Fewer rows than asked for: the container ends here.
    if (rows.length < want) return { items: s.items };
    s.batch *= 2;
  }
  return undefined;
}

interface Cursor {
  readonly from: string;
  readonly inclusive: boolean;
}

/**
 * A blob's snapshots (oldest first), then the blob, as the service lists them: a page that fills
 * among them ends with an `s:` continuation naming the last snapshot listed. The page, when full.
 */
function pushWithSnapshots(
  catalogue: EmbeddedBlobCatalogue,
  s: PageState,
  row: BlobRow,
): BackendListPage | undefined {
  const live = catalogue.snapshots.ofNames(s.container, row.name, row.name);
  const snapshots: ((typeof live)[number] & ListedRow)[] = s.query.includeDeleted
    ? [...live, ...catalogue.softDeletes.deletedSnapshots(s.container, row.name, s.now)].sort((a, b) =>
        a.snapshot < b.snapshot ? -1 : 1,
      )
    : live;
  s.statements++;
  s.rowsRead += snapshots.length;
  const resume = s.resumeAfter?.[0] === row.name ? s.resumeAfter[1] : undefined;
  s.resumeAfter = undefined;
  for (const snap of snapshots) {
    if (resume !== undefined && snap.snapshot <= resume) continue;
    if (s.items.length === s.query.maxPageSize)
      return { items: s.items, continuation: continuationOf(s.items.at(-1)!) };
    // A snapshot lists its own properties as it was taken (no tags or tier of the blob now).
    const deleted = deletedInfo(snap, s.now);
    s.items.push({
      kind: "blob",
      name: snap.name,
      properties: propertiesOf(snap),
      snapshot: snap.snapshot,
      ...(deleted ? { deleted } : {}),
    });
  }
  if (s.items.length === s.query.maxPageSize)
    return { items: s.items, continuation: continuationOf(s.items.at(-1)!) };
  s.items.push(blobItem(row, catalogue, s.query, s.now));
  s.cursor = { from: row.name, inclusive: false };
  return undefined;
}

function startOf(query: BackendListQuery): Cursor | undefined {
  const { after } = query;
  if (after !== undefined)
    return after.directory ? pastDirectory(after.name) : { from: after.name, inclusive: false };
  const c = query.continuation;
  if (c === undefined) return { from: query.prefix, inclusive: true };
  if (c.startsWith("s:")) return { from: (JSON.parse(c.slice(2)) as [string, string])[0], inclusive: true };
  const name = c.slice(2);
  return c.startsWith("p:") ? pastDirectory(name) : { from: name, inclusive: false };
}

/**
 * The first name after every name starting with `directory`, in code-point order (SQLite compares
 * UTF-8 bytes): its last code point below U+10FFFF raised by one, what follows it dropped.
 * Undefined when the directory is all U+10FFFF (nothing can follow it).
 */
export function pastDirectory(directory: string): Cursor | undefined {
  const points = Array.from(directory);
  while (points.length > 0 && points.at(-1)!.codePointAt(0)! >= 0x10ffff) points.pop();
  if (points.length === 0) return undefined;
  const last = points.pop()!.codePointAt(0)!;
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return { from: points.join("") + String.fromCodePoint(next), inclusive: true };
}

function continuationOf(item: BackendListPage["items"][number]): string {
  if (item.kind === "blob" && item.snapshot !== undefined) {
    return `s:${JSON.stringify([item.name, item.snapshot])}`;
  }
  return `${item.kind === "prefix" ? "p" : "b"}:${item.name}`;
}

/**
 * A name with staged blocks only, as the service lists it: an empty block blob. Its ETag and time
 * are the listing's (no blob was written yet): a hash of the name and now.
 */
function uncommittedItem(row: BlobRow): StoredBlobItem {
  const now = Date.now();
  const etag = `"0x${createHash("sha1").update(row.name).digest("hex").slice(0, 16).toUpperCase()}"`;
  return {
    kind: "blob",
    name: row.name,
    uncommitted: true,
    properties: { ...propertiesOf({ ...row, modified: now }), etag },
  };
}

function blobItem(
  row: ListedRow,
  catalogue: EmbeddedBlobCatalogue,
  query: BackendListQuery,
  now: number,
): StoredBlobItem {
  const deleted = deletedInfo(row, now);
  const { annotations } = catalogue;
  const includeTags = query.includeTags === true;
  // An incremental copy blob is listed as one (IncrementalCopy) whatever the listing includes.
  const found =
    query.includeCopy === true || row.type === "PageBlob"
      ? catalogue.copies.of(row.container, row.name, row.etag)
      : undefined;
  const copy = query.includeCopy === true || found?.incremental ? found : undefined;
  const properties = {
    ...annotations.describe(row.container, row.name, propertiesOf(row)),
    ...(copy ? { copy } : {}),
  };
  return {
    kind: "blob",
    name: row.name,
    properties,
    ...(includeTags && properties.tagCount ? { tags: annotations.tags(row.container, row.name) } : {}),
    ...(deleted ? { deleted } : {}),
  };
}
