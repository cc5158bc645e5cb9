import { type PageFetcher, type PageSettings, pagedIterator } from "../paging.js";

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
  /** `tokenScope` binds continuation tokens to one listing (see paging.ts): `blobScope()`. */
  options: { defaultPageSize: number; maxPageSize: number; tokenScope: string },
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
