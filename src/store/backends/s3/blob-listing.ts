import type { BackendListPage, BackendListQuery } from "../../blobs/blob-backend.js";
import type { S3ListOutput } from "./blob-sdk.js";

/** List Blobs over S3 listings: items as the port lists them, and hierarchical pages rolled up from flat ones. */

export type ListItem = BackendListPage["items"][number];

export function blobItem(c: { Key?: string; ETag?: string; LastModified?: Date; Size?: number }): ListItem {
  return {
    kind: "blob",
    name: c.Key!,
    properties: {
      etag: c.ETag ?? "",
      lastModified: c.LastModified ?? new Date(0),
      contentLength: c.Size ?? 0,
      metadata: {},
      blobType: "BlockBlob",
    },
  };
}

export function continuationOf(item: ListItem): string {
  return `${item.kind === "prefix" ? "p" : "b"}:${item.name}`;
}

/**
 * A hierarchical page from flat listings (the emulator's delimiter listing is wrong): each key
 * holding the delimiter after the prefix rolls up into its directory, whose other keys are skipped.
 */
export async function rolledUpPage(
  query: BackendListQuery,
  listFlat: (startAfter: string | undefined) => Promise<S3ListOutput>,
): Promise<BackendListPage> {
  const delimiter = query.delimiter!;
  const c = query.continuation;
  let skip = c?.startsWith("p:") ? c.slice(2) : undefined;
  let startAfter = skip === undefined ? c?.slice(2) : pastKeysOf(skip);
  // Each directory is sought past once: a key beyond the seek target must not send it back.
  let sought = skip;
  const items: ListItem[] = [];
  for (;;) {
    const out = await listFlat(startAfter);
    for (const object of out.Contents ?? []) {
      const key = object.Key!;
      startAfter = key;
      if (skip !== undefined && key.startsWith(skip)) continue;
      if (items.length === query.maxPageSize) return { items, continuation: continuationOf(items.at(-1)!) };
      const cut = key.indexOf(delimiter, query.prefix.length);
      if (cut < 0) {
        items.push(blobItem(object));
        continue;
      }
      skip = key.slice(0, cut + delimiter.length);
      items.push({ kind: "prefix", name: skip });
    }
    if (!out.IsTruncated) return { items };
    // Inside a directory already returned: seek past its keys rather than list them all.
    if (skip !== undefined && skip !== sought && startAfter?.startsWith(skip)) {
      startAfter = pastKeysOf(skip);
      sought = skip;
    }
  }
}

/**
 * A StartAfter that skips the keys starting with `directory` (nearly all of them; the page drops
 * any that remain): it, followed by the highest code point.
 */
function pastKeysOf(directory: string): string {
  return `${directory}\u{10FFFF}`;
}
