/** What a browse page asks of a table: its request, its $filter, and a count of what matches. */
import { type CompareOp, comparison, filterToString, odata } from "../../filter/index.js";
import { isTableKitError, type TableEntityResult, TableKitError, toTyped } from "../../model/index.js";
import type { Store } from "../../store/index.js";
import { wholeNumberHint } from "../double-hint.js";
import { type EntityRow, rowFromResult, withoutInternal } from "../formats/entity-row.js";
import { requireEdmType } from "../formats/value-text.js";
import type { ImportOutcome } from "./import-route.js";

/** A count reads every matching entity's keys: it stops here and says "more than". */
const COUNT_LIMIT = 1_000_000;

/** What a browse page was asked for. */
export interface BrowseRequest {
  readonly partition: string;
  readonly filter: string;
  /** The page's continuation token ("" for the first page). */
  readonly pageToken: string;
  /** The tokens of the pages before this one, oldest first, joined by `~` (for "previous page"). */
  readonly trail: string;
  /** Partitions are listed after this one. */
  readonly after: string;
  /** Count every matching entity (a read of them all, so only when asked). */
  readonly count: boolean;
  /** Why the query builder's last condition was refused ("" when it was not). */
  readonly builderError: string;
  /** Show tablekit's internal properties (`internal=1`). */
  readonly internal?: boolean;
  /** The import just made, to report above the grid. */
  readonly imported?: ImportOutcome;
}

/** The entities matching `filter`, counted by reading their keys only, up to COUNT_LIMIT. */
export async function countMatching(
  table: ReturnType<Store["table"]>,
  filter: string | undefined,
): Promise<{ n: number; capped: boolean }> {
  let n = 0;
  const pages = table
    .listEntities({ queryOptions: { select: ["PartitionKey"], ...(filter ? { filter } : {}) } })
    .byPage({ maxPageSize: 1000 });
  for await (const page of pages) {
    n += page.length;
    if (n >= COUNT_LIMIT) return { n, capped: true };
  }
  return { n, capped: false };
}

/** The query of the browse page: the partition chosen and the user's filter. */
export function browseFilter(partition: string, filter: string): string | undefined {
  const parts = [
    partition ? odata`PartitionKey eq ${partition}` : "",
    filter.trim() ? `(${filter})` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" and ") : undefined;
}

/** How many of the store's pages one browse page may read while it fills (a sparse filter reads on and on). */
const PAGES_PER_VIEW = 20;

/**
 * Up to `size` entities matching `filter` from `pageToken` on, read from as many of the store's
 * pages as it takes: a store, or the service, may end a page at any partition boundary, and a view
 * across partitions must not show one partition (or one entity) a page. The token continues after
 * the last entity shown.
 */
export async function fillPage(
  table: ReturnType<Store["table"]>,
  filter: string | undefined,
  pageToken: string | undefined,
  size: number,
): Promise<{ entities: TableEntityResult[]; nextToken: string | undefined }> {
  const entities: TableEntityResult[] = [];
  let token = pageToken;
  for (let read = 0; read < PAGES_PER_VIEW && entities.length < size; read++) {
    const pages = table
      .listEntities({ queryOptions: filter ? { filter } : {} })
      .byPage({ maxPageSize: size - entities.length, ...(token ? { continuationToken: token } : {}) });
    const page = (await pages.next()).value;
    await pages.return?.(undefined);
    entities.push(...(page ?? []));
    token = page?.continuationToken;
    if (!token) break;
  }
  return { entities, nextToken: token };
}

/**
 * The rows a browse page shows: tablekit's internal properties left out unless asked, and, when
 * `hintFilter` (the user's filter, on a first page) matched nothing, the whole-number hint.
 */
export async function shownRows(
  table: ReturnType<Store["table"]>,
  entities: readonly TableEntityResult[],
  request: BrowseRequest,
  hintFilter: string | undefined,
): Promise<{ rows: EntityRow[]; internal: boolean; hidInternal: boolean; hint?: string }> {
  const read = entities.map(rowFromResult);
  const rows = request.internal ? read : read.map(withoutInternal);
  const hint = read.length === 0 && hintFilter ? await wholeNumberHint(table, hintFilter) : undefined;
  return {
    rows,
    internal: request.internal === true,
    hidInternal: rows.some((r, i) => r !== read[i]),
    ...(hint ? { hint } : {}),
  };
}

/** The browse request of a table's first page, nothing asked. */
export const FIRST_PAGE: BrowseRequest = {
  partition: "",
  filter: "",
  pageToken: "",
  trail: "",
  after: "",
  count: false,
  builderError: "",
};

/** The import an import's redirect reports (`imported`, `file`, `check`). */
export function importedFromQuery(url: URL): ImportOutcome {
  const q = (name: string) => url.searchParams.get(name) ?? "";
  return { file: q("file"), entities: Number(q("imported")) || 0, check: q("check") === "1" };
}

/** The comparison operators of the Table service's $filter, as the query builder offers them. */
export const COMPARE_OPS: readonly CompareOp[] = ["eq", "ne", "gt", "ge", "lt", "le"];

/**
 * The query builder: the condition its form describes (`add-prop`, `add-op`, `add-type`,
 * `add-value`), written by the filter layer (quotes doubled, `L`, `datetime'…'`, `guid'…'`,
 * `X'…'`) and joined to the current $filter with `and`; or the filter unchanged and why not.
 */
export function filterWithCondition(query: URLSearchParams): { filter: string; problem?: string } {
  const q = (name: string) => query.get(name) ?? "";
  const current = q("filter").trim();
  try {
    const type = requireEdmType(`Edm.${q("add-type")}`, "the condition's type");
    const op = q("add-op");
    if (!COMPARE_OPS.includes(op as CompareOp))
      throw new TableKitError("InvalidInput", `Unknown operator ${op}`);
    const clause = filterToString(
      comparison(q("add-prop"), op as CompareOp, toTyped(q("add-prop"), type, q("add-value"))),
    );
    return { filter: current ? `${current} and ${clause}` : clause };
  } catch (err) {
    if (!isTableKitError(err)) throw err;
    return { filter: current, problem: `${err.code}: ${err.message}` };
  }
}
