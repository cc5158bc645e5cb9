import type { Table, TransactionAction } from "../../src/index.js";
import type { Query } from "../../src/patterns/index.js";

/** What an instrumented table saw: point reads, queries started, and page requests in flight now, at most, and in all. */
export interface PageRequests {
  pointReads: number;
  queries: number;
  active: number;
  max: number;
  total: number;
}

/**
 * The table, with every page request counted and passed through `around` (which may delay it,
 * fail it, or just call it): how a test watches and disturbs a parallel query's requests.
 */
export function instrumented(
  table: Table,
  around: (request: () => Promise<unknown>, filter: string | undefined) => Promise<unknown> = (r) => r(),
): { table: Table; requests: PageRequests } {
  const requests: PageRequests = { pointReads: 0, queries: 0, active: 0, max: 0, total: 0 };
  const proxy = new Proxy(table, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t);
      if (prop === "getEntity") {
        return (...args: Parameters<Table["getEntity"]>) => {
          requests.pointReads++;
          return t.getEntity(...args);
        };
      }
      if (prop !== "listEntities") return typeof value === "function" ? value.bind(t) : value;
      return (options?: { queryOptions?: { filter?: string } }) => {
        requests.queries++;
        const listed = t.listEntities(options);
        return {
          ...listed,
          byPage: (settings?: object) => {
            const pages = listed.byPage(settings);
            return {
              next: async () => {
                requests.active++;
                requests.total++;
                requests.max = Math.max(requests.max, requests.active);
                try {
                  return await around(() => pages.next(), options?.queryOptions?.filter);
                } finally {
                  requests.active--;
                }
              },
              return: (v?: unknown) => pages.return!(v),
              [Symbol.asyncIterator]() {
                return this;
              },
            };
          },
        };
      };
    },
  });
  return { table: proxy, requests };
}

/** `pk/rk` of each entity. */
export const keyText = (e: object) => {
  const { partitionKey, rowKey } = e as { partitionKey?: unknown; rowKey?: unknown };
  return `${String(partitionKey)}/${String(rowKey)}`;
};

/**
 * Every item of a query read page by page with `pageSize`, starting a new iteration from the
 * token after every `resumeEvery` pages (a caller resuming later), so tokens are exercised.
 */
export async function readAllPages<T>(query: Query<T>, pageSize: number, resumeEvery = 1): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  for (;;) {
    const pages = query.byPage({
      maxPageSize: pageSize,
      ...(token === undefined ? {} : { continuationToken: token }),
    });
    let read = 0;
    token = undefined;
    for await (const page of pages) {
      if (page.length > pageSize) throw new Error(`a page of ${page.length} items exceeds ${pageSize}`);
      out.push(...page);
      token = page.continuationToken;
      if (++read >= resumeEvery) break;
    }
    if (token === undefined) return out;
  }
}

/** Writes entities partition by partition in transactions of at most 100. */
export async function writeAll(table: Table, entities: readonly Record<string, unknown>[]): Promise<void> {
  const byPartition = new Map<string, TransactionAction[]>();
  for (const e of entities) {
    const pk = e.partitionKey as string;
    const list = byPartition.get(pk) ?? [];
    list.push(["create", e as TransactionAction[1]]);
    byPartition.set(pk, list);
  }
  for (const actions of byPartition.values()) {
    for (let i = 0; i < actions.length; i += 100) await table.submitTransaction(actions.slice(i, i + 100));
  }
}
