import { TableKitError } from "../../model/index.js";
import {
  type NameMarkers,
  type PageFetcher,
  type PageSettings,
  type PagingOptions,
  pagedIterator,
} from "../paging.js";
import type { BackendListQuery } from "./blob-backend.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import { FORBIDDEN_IN_NAME } from "./blob-rules.js";

/**
 * A listing shaped like `@azure/storage-blob`'s: iterating yields items, `byPage()` yields the
 * service's segment objects (`{ segment: { blobItems }, continuationToken }` and the like) rather
 * than arrays. Built on the table port's paged iterator, so tokens and page-size checks are shared.
 */
export interface SegmentedAsyncIterableIterator<T, S> extends AsyncIterableIterator<T> {
  byPage(settings?: PageSettings): AsyncIterableIterator<S>;
}

export function segmentedIterator<T, S>(
  fetchPage: PageFetcher<T>,
  /**
   * `tokenScope` binds checksummed tokens to one listing (see paging.ts): `blobScope()`; `names`
   * where the backend takes names as markers (`nameMarkers` below).
   */
  options: PagingOptions<T>,
  toSegment: (items: T[], continuationToken: string | undefined) => S,
): SegmentedAsyncIterableIterator<T, S> {
  const inner = pagedIterator(fetchPage, options);
  async function* segments(settings?: PageSettings): AsyncIterableIterator<S> {
    for await (const page of inner.byPage(settings)) yield toSegment([...page], page.continuationToken);
  }
  const iterator: SegmentedAsyncIterableIterator<T, S> = {
    next: () => inner.next(),
    return: () => inner.return!(),
    [Symbol.asyncIterator]: () => iterator,
    byPage: segments,
  };
  return iterator;
}

/**
 * What a blob listing's tokens are bound to: containers by prefix, or one container's blobs by
 * prefix and delimiter (flat: none). `includeMetadata` and the page size do not move a token.
 */
export function blobScope(
  listing: "containers" | "blobs",
  container: string,
  prefix: unknown,
  delimiter = "",
): string {
  return `${listing}\n${container}\n${typeof prefix === "string" ? prefix : ""}\n${delimiter}`;
}

/**
 * Name markers of a blob listing, where the backend takes them (capabilities.nameMarkers;
 * docs/blobs.md, Semantics: Listing): a page ending on a blob gets its name as its token. Not on a directory,
 * a snapshot, or in a listing with soft-deleted blobs (a live and a deleted blob share a name):
 * those keep a checksummed token. A name token holding what no blob name may (a control
 * character, an unpaired surrogate) is InvalidContinuationToken.
 */
export function blobNameMarkers<T extends { name: string; snapshot?: string; kind?: string }>(
  capabilities: BlobCapabilities,
  includeDeleted: boolean,
): NameMarkers<T> | undefined {
  if (!capabilities.nameMarkers) return undefined;
  return {
    nameOf: (item) =>
      includeDeleted || item.snapshot !== undefined || item.kind === "prefix" ? undefined : item.name,
    read: (token) => readMarker(token, (name) => !FORBIDDEN_IN_NAME.test(name)),
  };
}

/** Container names as markers: a token of anything but lowercase letters, digits and hyphens is refused. */
export function containerNameMarkers<T extends { name: string }>(
  capabilities: BlobCapabilities,
): NameMarkers<T> | undefined {
  if (!capabilities.nameMarkers) return undefined;
  return {
    nameOf: (item) => item.name,
    read: (token) => readMarker(token, (name) => /^[a-z0-9-]*$/.test(name)),
  };
}

function readMarker(token: unknown, allowed: (name: string) => boolean): string {
  if (typeof token === "string" && allowed(token)) return token;
  throw new TableKitError(
    "InvalidContinuationToken",
    "The continuation token is malformed: neither a token a listing gave nor a name",
  );
}

/**
 * Where a listing resumes after the name `marker`: after the item holding it. With a delimiter, a
 * name inside a virtual directory of the listing (the delimiter after the prefix) resumes after
 * that whole directory, which was listed before it. Undefined: the marker sorts before the prefix,
 * so the listing starts at the beginning.
 */
export function resumeAfter(
  marker: string,
  prefix: string,
  delimiter: string | undefined,
  nameOrder: BlobCapabilities["nameOrder"],
): BackendListQuery["after"] {
  if (!marker.startsWith(prefix)) {
    const before =
      nameOrder === "utf8" ? Buffer.compare(Buffer.from(marker), Buffer.from(prefix)) < 0 : marker < prefix;
    return before ? undefined : { name: marker, directory: false };
  }
  const cut = delimiter ? marker.indexOf(delimiter, prefix.length) : -1;
  return cut < 0
    ? { name: marker, directory: false }
    : { name: marker.slice(0, cut + delimiter!.length), directory: true };
}
