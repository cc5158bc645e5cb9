import type { PagedAsyncIterableIterator as StorePagedIterator } from "../store/paging.js";
import type { PagedAsyncIterableIterator, PageSettings } from "./models.js";

/**
 * A store listing as the SDK's paged iterator: each item converted, each page an array with its
 * `continuationToken` (present, undefined on the last page, as the SDK's). The listing opens on
 * the first `next()`, because the client's store may not be open yet; errors go through `fail`.
 * Without `convert` the store's items are the SDK's already.
 */
export function sdkPagedIterator<R, T>(
  open: () => Promise<StorePagedIterator<R>>,
  convert: ((item: R) => T) | undefined,
  fail: (err: unknown) => unknown,
): PagedAsyncIterableIterator<T, T[] & { continuationToken?: string }> {
  // Page by page underneath, so that an item costs one promise (this `next`), as in the store's own.
  let source: AsyncIterableIterator<R[]> | undefined;
  let buffer: T[] = [];
  let index = 0;
  let finished = false;
  const iterator: PagedAsyncIterableIterator<T, T[] & { continuationToken?: string }> = {
    async next(): Promise<IteratorResult<T>> {
      while (index >= buffer.length) {
        if (finished) return { done: true, value: undefined };
        try {
          source ??= (await open()).byPage();
          const page = await source.next();
          if (page.done) {
            finished = true;
            return { done: true, value: undefined };
          }
          buffer = convertAll(page.value, convert);
          index = 0;
        } catch (err) {
          throw fail(err);
        }
      }
      return { done: false, value: buffer[index++]! };
    },
    async return(): Promise<IteratorResult<T>> {
      finished = true;
      buffer = [];
      await source?.return?.(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
    byPage: (settings?: PageSettings) => pages(open, convert, fail, settings),
  };
  return iterator;
}

async function* pages<R, T>(
  open: () => Promise<StorePagedIterator<R>>,
  convert: ((item: R) => T) | undefined,
  fail: (err: unknown) => unknown,
  settings: PageSettings | undefined,
): AsyncGenerator<T[] & { continuationToken?: string }> {
  let source: AsyncIterableIterator<R[] & { continuationToken?: string }>;
  try {
    source = (await open()).byPage(settings);
  } catch (err) {
    throw fail(err);
  }
  for (;;) {
    let page: IteratorResult<R[] & { continuationToken?: string }>;
    try {
      page = await source.next();
    } catch (err) {
      throw fail(err);
    }
    if (page.done) return;
    const converted = convertAll(page.value, convert) as T[] & { continuationToken?: string };
    converted.continuationToken = page.value.continuationToken;
    yield converted;
  }
}

function convertAll<R, T>(items: R[], convert: ((item: R) => T) | undefined): T[] {
  if (convert === undefined) return items as unknown as T[]; // the store's own page array: no one else holds it
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) out.push(convert(items[i]!));
  return out;
}
