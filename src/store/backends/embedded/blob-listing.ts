import type { BackendListPage, BackendListQuery, StoredBlobItem } from "../../blobs/blob-backend.js";
import { type BlobRow, type EmbeddedBlobCatalogue, propertiesOf } from "./blob-catalogue.js";

/**
 * One listing page over the blob rows of a container: names from the prefix on, in order, each
 * name holding the delimiter after the prefix rolled up into one virtual directory. The
 * continuation is the last item returned (`b:` a blob, `p:` a directory, whose names are skipped).
 */
export function listPage(
  catalogue: EmbeddedBlobCatalogue,
  container: number,
  query: BackendListQuery,
): BackendListPage {
  const { prefix, delimiter, maxPageSize } = query;
  const items: BackendListPage["items"][number][] = [];
  let cursor = startOf(query);
  for (;;) {
    const want = maxPageSize - items.length + 1;
    const rows = catalogue.blobs(container, cursor.from, cursor.inclusive, want);
    let reseek = false;
    for (const row of rows) {
      if (!row.name.startsWith(prefix)) return { items };
      if (cursor.skip !== undefined && row.name.startsWith(cursor.skip)) {
        cursor = { from: row.name, inclusive: false, skip: cursor.skip };
        continue;
      }
      if (items.length === maxPageSize) return { items, continuation: continuationOf(items.at(-1)!) };
      const cut = delimiter === undefined ? -1 : row.name.indexOf(delimiter, prefix.length);
      if (cut >= 0) {
        const directory = row.name.slice(0, cut + delimiter!.length);
        items.push({ kind: "prefix", name: directory });
        cursor = pastDirectory(directory);
        reseek = true;
        break;
      }
      items.push(blobItem(row));
      cursor = { from: row.name, inclusive: false };
    }
    // Fewer rows than asked for, and no seek pending: the container ends here.
    if (!reseek && rows.length < want) return { items };
  }
}

interface Cursor {
  readonly from: string;
  readonly inclusive: boolean;
  /** Names starting with this are inside a directory already returned. */
  readonly skip?: string;
}

function startOf(query: BackendListQuery): Cursor {
  const c = query.continuation;
  if (c === undefined) return { from: query.prefix, inclusive: true };
  const name = c.slice(2);
  return c.startsWith("p:") ? pastDirectory(name) : { from: name, inclusive: false };
}

/** Seeks past every name starting with `directory`: to the next code point after its last one. */
function pastDirectory(directory: string): Cursor {
  const lastChar = Array.from(directory).at(-1)!;
  const last = lastChar.codePointAt(0)!;
  const head = directory.slice(0, directory.length - lastChar.length);
  if (last >= 0x10ffff) return { from: directory, inclusive: true, skip: directory };
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return { from: head + String.fromCodePoint(next), inclusive: true };
}

function continuationOf(item: BackendListPage["items"][number]): string {
  return `${item.kind === "prefix" ? "p" : "b"}:${item.name}`;
}

function blobItem(row: BlobRow): StoredBlobItem {
  return { kind: "blob", name: row.name, properties: propertiesOf(row) };
}
