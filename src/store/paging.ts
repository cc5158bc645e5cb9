import { TableKitError } from "../model/index.js";

/** One page of results, as `@azure/data-tables` returns them: an array with its continuation token. */
export type Page<T> = T[] & { continuationToken?: string };

export interface PageSettings {
  /** At most this many items in a page (the service caps it at 1,000). */
  maxPageSize?: number;
  /** Resume where a previous page ended. */
  continuationToken?: string;
}

/** An async iterable over every item, with `byPage()` for page-at-a-time access. */
export interface PagedAsyncIterableIterator<T> extends AsyncIterableIterator<T> {
  byPage(settings?: PageSettings): AsyncIterableIterator<Page<T>>;
}

/** Fetches one page given a backend continuation and a page size. */
export type PageFetcher<T> = (
  maxPageSize: number,
  continuation: string | undefined,
) => Promise<{ items: T[]; continuation?: string }>;

const TOKEN_PREFIX = "tk1.";

/** Wraps a backend continuation into the opaque token callers see. */
export function encodeContinuationToken(backendContinuation: string): string {
  return TOKEN_PREFIX + Buffer.from(backendContinuation, "utf8").toString("base64url");
}

/** Unwraps a caller's token; a token tablekit did not make is InvalidContinuationToken. */
export function decodeContinuationToken(token: string): string {
  if (
    typeof token !== "string" ||
    !token.startsWith(TOKEN_PREFIX) ||
    !/^[A-Za-z0-9_-]*$/.test(token.slice(4))
  ) {
    throw new TableKitError("InvalidContinuationToken", "The continuation token is malformed");
  }
  return Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString("utf8");
}

/**
 * Builds the paged iterator. `validatePageSize` runs when a page size is chosen, so a bad
 * `maxPageSize` rejects on the first `next()`, as the SDK's iterators do.
 */
export function pagedIterator<T>(
  fetchPage: PageFetcher<T>,
  options: { defaultPageSize: number; maxPageSize: number },
): PagedAsyncIterableIterator<T> {
  async function* pages(settings: PageSettings = {}): AsyncIterableIterator<Page<T>> {
    const size = settings.maxPageSize ?? options.defaultPageSize;
    if (!Number.isInteger(size) || size < 1 || size > options.maxPageSize) {
      throw new TableKitError(
        "InvalidInput",
        `maxPageSize must be an integer from 1 to ${options.maxPageSize}`,
        {
          details: { maxPageSize: size },
        },
      );
    }
    let continuation =
      settings.continuationToken === undefined
        ? undefined
        : decodeContinuationToken(settings.continuationToken);
    do {
      const { items, continuation: next } = await fetchPage(size, continuation);
      const page = items as Page<T>;
      if (next !== undefined) page.continuationToken = encodeContinuationToken(next);
      continuation = next;
      yield page;
    } while (continuation !== undefined);
  }

  // Hand-rolled rather than `yield*` per page: a generator resumption per item costs ~1 µs.
  const source = pages();
  let buffer: T[] = [];
  let index = 0;
  let done = false;
  const iterator: PagedAsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      while (index >= buffer.length) {
        if (done) return { done: true, value: undefined };
        const page = await source.next();
        if (page.done) {
          done = true;
          return { done: true, value: undefined };
        }
        buffer = page.value;
        index = 0;
      }
      return { done: false, value: buffer[index++]! };
    },
    async return(): Promise<IteratorResult<T>> {
      done = true;
      buffer = [];
      await source.return?.(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
    byPage: (settings?: PageSettings) => pages(settings),
  };
  return iterator;
}
