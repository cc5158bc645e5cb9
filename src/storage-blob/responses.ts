import { requestId, responseDate } from "../data-tables/responses.js";
import { toStorageRestError } from "../data-tables/rest-error.js";

/** The service version `@azure/storage-blob` 12.32 sends, which the service's answers echo. */
export const BLOB_SERVICE_VERSION = "2026-04-06";

/** The headers every `@azure/storage-blob` response carries (tablekit answers without HTTP). */
export interface BlobResponseHeaders {
  clientRequestId?: string;
  requestId?: string;
  version?: string;
  date?: Date;
}

export function blobHeaders(): BlobResponseHeaders {
  return {
    clientRequestId: requestId(),
    requestId: requestId(),
    version: BLOB_SERVICE_VERSION,
    date: responseDate(),
  };
}

/** A TableKitError as the Blob SDK's RestError (`code`, `statusCode`, `details.errorCode`). */
export function blobError(err: unknown, url: string, method: string): unknown {
  return toStorageRestError(err, { url, method }, BLOB_SERVICE_VERSION);
}

/** The SDK's paged iterator over a port listing: errors as RestErrors, each segment given `extra`, "" as the last token. */
export function blobListing<T, S extends { continuationToken?: string }, R>(
  open: () => Promise<AsyncIterableIterator<T> & { byPage(settings?: object): AsyncIterableIterator<S> }>,
  segment: (s: S) => R,
  fail: (err: unknown) => unknown,
): AsyncIterableIterator<T> & {
  byPage(settings?: {
    continuationToken?: string;
    maxPageSize?: number;
  }): AsyncIterableIterator<R & BlobResponseHeaders & { continuationToken: string }>;
} {
  async function* pages(settings?: { continuationToken?: string; maxPageSize?: number }) {
    let source: AsyncIterableIterator<S>;
    try {
      source = (await open()).byPage({
        ...(settings?.maxPageSize !== undefined ? { maxPageSize: settings.maxPageSize } : {}),
        ...(settings?.continuationToken ? { continuationToken: settings.continuationToken } : {}),
      });
    } catch (err) {
      throw fail(err);
    }
    for (;;) {
      let page: IteratorResult<S>;
      try {
        page = await source.next();
      } catch (err) {
        throw fail(err);
      }
      if (page.done) return;
      yield {
        ...blobHeaders(),
        ...segment(page.value),
        continuationToken: page.value.continuationToken ?? "",
      };
    }
  }
  async function* items(): AsyncGenerator<T> {
    let source: AsyncIterableIterator<T>;
    try {
      source = await open();
    } catch (err) {
      throw fail(err);
    }
    for (;;) {
      let item: IteratorResult<T>;
      try {
        item = await source.next();
      } catch (err) {
        throw fail(err);
      }
      if (item.done) return;
      yield item.value;
    }
  }
  const iterator = items() as AsyncGenerator<T> & { byPage: typeof pages };
  iterator.byPage = pages;
  return iterator;
}
