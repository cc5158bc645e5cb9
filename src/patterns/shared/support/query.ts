import { odata } from "../../../filter/index.js";
import { type TableEntityResult, TableKitError } from "../../../model/index.js";
import type { Page, PageSettings, Table } from "../../../store/index.js";
import type { KeyMatch } from "../schema/key-spec.js";

/**
 * The result of a pattern's query: iterate it (`for await`), collect it (`toArray()`), take the
 * first item, or walk it page by page with a continuation token, as `listEntities` does.
 */
export interface Query<T> extends AsyncIterable<T> {
  toArray(): Promise<T[]>;
  /** The first item, or undefined (reads one entity). */
  first(): Promise<T | undefined>;
  byPage(settings?: PageSettings): AsyncIterableIterator<Page<T>>;
}

/** Options every pattern query takes. */
export interface QueryOptions {
  /** Stop after this many items (a positive integer); it also bounds the page size asked for. */
  readonly limit?: number;
  readonly abortSignal?: AbortSignal;
}

/** `PartitionKey eq pk and <the key match on RowKey>`. */
export function rowRangeFilter(partitionKey: string, match: KeyMatch): string {
  let filter = odata`PartitionKey eq ${partitionKey}`;
  if ("eq" in match) return `${filter} and ${odata`RowKey eq ${match.eq}`}`;
  if (match.lower !== "") filter += ` and ${odata`RowKey ge ${match.lower}`}`;
  if (match.upper !== undefined) {
    filter += match.upperInclusive
      ? ` and ${odata`RowKey le ${match.upper}`}`
      : ` and ${odata`RowKey lt ${match.upper}`}`;
  }
  return filter;
}

function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new TableKitError("InvalidInput", `limit must be a positive integer, got ${limit}`);
  }
}

/**
 * A lazy query over `table` with `filter`; `decode` turns each entity into the pattern's item and
 * may return undefined to skip it (it is still counted against nothing: `limit` counts items).
 */
export function entityQuery<T>(
  table: Table,
  filter: string,
  decode: (entity: TableEntityResult) => T | undefined,
  options: QueryOptions = {},
): Query<T> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const listOptions = {
    queryOptions: { filter },
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  };

  async function* pages(settings: PageSettings = {}): AsyncIterableIterator<Page<T>> {
    checkLimit(options.limit);
    let remaining = limit;
    // Ask for no more than the limit needs; otherwise leave the page size to the caller or the store.
    const capped = Number.isFinite(remaining)
      ? Math.min(settings.maxPageSize ?? remaining, remaining, 1000)
      : undefined;
    const source = table
      .listEntities(listOptions)
      .byPage(capped === undefined ? settings : { ...settings, maxPageSize: capped });
    for await (const page of source) {
      const items: T[] = [];
      for (const entity of page) {
        if (remaining <= 0) break;
        const item = decode(entity);
        if (item === undefined) continue;
        items.push(item);
        remaining--;
      }
      const out = items as Page<T>;
      if (remaining > 0 && page.continuationToken) out.continuationToken = page.continuationToken;
      yield out;
      if (remaining <= 0) return;
    }
  }

  return queryOfPages(pages);
}

/** The `Query` over a page source: items, `toArray`, `first` (a page of one) and `byPage` itself. */
export function queryOfPages<T>(
  pages: (settings?: PageSettings) => AsyncIterableIterator<Page<T>>,
): Query<T> {
  async function* items(): AsyncIterableIterator<T> {
    for await (const page of pages()) yield* page;
  }
  return {
    [Symbol.asyncIterator]: items,
    byPage: pages,
    async toArray() {
      const out: T[] = [];
      for await (const item of items()) out.push(item);
      return out;
    },
    async first() {
      for await (const page of pages({ maxPageSize: 1 })) if (page.length > 0) return page[0];
      return undefined;
    },
  };
}

/**
 * A query built on first use, so a bad argument rejects the first `next()` (as `listEntities`
 * does) instead of throwing where the query is made. `make` may be async (a query whose parts
 * come from a listing).
 */
export function deferQuery<T>(make: () => Query<T> | Promise<Query<T>>): Query<T> {
  let built: Promise<Query<T>> | undefined;
  const get = () => {
    built ??= (async () => make())();
    return built;
  };
  return {
    [Symbol.asyncIterator]: () => lazyIterator(async () => (await get())[Symbol.asyncIterator]()),
    byPage: (settings) => lazyIterator(async () => (await get()).byPage(settings)),
    toArray: async () => (await get()).toArray(),
    first: async () => (await get()).first(),
  };
}

/** A query with no items. */
export function emptyQuery<T>(): Query<T> {
  return queryOfPages(async function* () {});
}

function lazyIterator<T>(make: () => Promise<AsyncIterator<T>>): AsyncIterableIterator<T> {
  let it: Promise<AsyncIterator<T>> | undefined;
  const self: AsyncIterableIterator<T> = {
    next: async () => {
      it ??= make();
      return (await it).next();
    },
    return: async (value?: unknown) => {
      const iterator = it ? await it : undefined;
      return iterator?.return ? iterator.return(value) : { done: true, value: value as T };
    },
    [Symbol.asyncIterator]: () => self,
  };
  return self;
}
