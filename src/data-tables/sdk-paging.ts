import type { PagedAsyncIterableIterator as StorePagedIterator } from "../store/paging.js";
import type { PagedAsyncIterableIterator, PageSettings } from "./models.js";

/**
 * A store listing as the SDK's paged iterator: each item converted, each page an array with its
 * `continuationToken` (present, undefined on the last page, as the SDK's). The listing opens on
 * the first `next()`, because the client's store may not be open yet; errors go through `fail`.
 */
export function sdkPagedIterator<R, T>(
  open: () => Promise<StorePagedIterator<R>>,
  convert: (item: R) => T,
  fail: (err: unknown) => unknown,
): PagedAsyncIterableIterator<T, T[] & { continuationToken?: string }> {
  let items: StorePagedIterator<R> | undefined;
  const iterator: PagedAsyncIterableIterator<T, T[] & { continuationToken?: string }> = {
    async next(): Promise<IteratorResult<T>> {
      try {
        items ??= await open();
        const result = await items.next();
        return result.done ? result : { done: false, value: convert(result.value) };
      } catch (err) {
        throw fail(err);
      }
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
  convert: (item: R) => T,
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
    const items = page.value;
    const converted = new Array<T>(items.length) as T[] & { continuationToken?: string };
    for (let i = 0; i < items.length; i++) converted[i] = convert(items[i]!);
    converted.continuationToken = items.continuationToken;
    yield converted;
  }
}
