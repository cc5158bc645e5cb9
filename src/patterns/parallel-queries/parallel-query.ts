import { compareUtf8, compareUtf16, TableKitError } from "../../model/index.js";
import type { Page, PageSettings, Store, Table } from "../../store/index.js";
import { checkConcurrency } from "../shared/support/concurrency.js";
import { deferQuery, type Query, type QueryOptions, queryOfPages } from "../shared/support/query.js";
import { decodeCompositeToken, type PartPosition, partsFingerprint } from "./composite-token.js";
import { ParallelRun, type RunOrder } from "./parallel-run.js";
import { PartCursor, type PartEntity, type ResolvedPart } from "./part-cursor.js";

export type { PartEntity } from "./part-cursor.js";

/** One query of a parallel query: a partition, a key range, or a whole table. */
export interface QueryPart {
  /** Names the part in errors (`details.part`); unique within the query. */
  readonly name: string;
  /** The table it reads (a `Table` of the same store, or a table name); parts may read different tables. */
  readonly table: Table | string;
  /** Its `$filter`; absent reads the whole table. */
  readonly filter?: string;
}

/** How results are merged: "key" (one sequence in key order) or "arrival" (each page as it arrives). */
export type MergeOrder = "key" | "arrival";

export interface ParallelQueryOptions extends QueryOptions {
  /**
   * "key" (default): one sequence ordered by PartitionKey then RowKey in the backend's key order
   * (or by `compare`), exactly what one ordered scan of the same entities returns; entities with
   * equal keys come in part order. "arrival": each part's pages as they arrive, unordered across
   * parts, each part's entities in key order.
   */
  readonly order?: MergeOrder;
  /**
   * The merge order for "key", when it is not (PartitionKey, RowKey): every part must return its
   * entities already in this order (hash buckets merge by RowKey, for instance).
   */
  readonly compare?: (a: PartEntity, b: PartEntity) => number;
  /** Part requests in flight at once, 1 to 1000 (default 8). */
  readonly concurrency?: number;
  /** Properties to return (the keys are always returned: they order the merge). */
  readonly select?: readonly string[];
}

const MAX_PARTS = 10_000;

/**
 * Parallel queries across partitions (seed 001, "asynchronous and parallel operations"): runs one
 * query per part concurrently (at most `concurrency` requests in flight) and returns their
 * entities merged in key order, or as they arrive. A part's failure stops the others and is thrown
 * with the part's name (`details.part`) and the token that resumes after what was returned
 * (`details.continuationToken`); `byPage` tokens resume every part where it stopped.
 */
export function parallelQuery(
  store: Store,
  parts: readonly QueryPart[],
  options: ParallelQueryOptions = {},
): Query<PartEntity> {
  return mergeParts(store, parts, options, (entity) => entity);
}

/** `parallelQuery` with each entity turned into the caller's item (for patterns built on it). */
export function mergeParts<T>(
  store: Store,
  parts: readonly QueryPart[],
  options: ParallelQueryOptions,
  map: (entity: PartEntity, part: ResolvedPart) => T,
): Query<T> {
  return deferQuery(() => {
    const plan = planQuery(store, parts, options);
    async function* pages(settings: PageSettings = {}): AsyncIterableIterator<Page<T>> {
      const pageSize = settings.maxPageSize ?? store.capabilities.limits.maxPageSize;
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > store.capabilities.limits.maxPageSize) {
        throw new TableKitError(
          "InvalidInput",
          `maxPageSize must be an integer from 1 to ${store.capabilities.limits.maxPageSize}`,
        );
      }
      const positions: PartPosition[] =
        settings.continuationToken === undefined
          ? plan.parts.map(() => ({ done: false }))
          : decodeCompositeToken(settings.continuationToken, plan.fingerprint, plan.parts.length);
      const cursors = plan.parts.map((part, i) => new PartCursor(i, part, positions[i]!, plan.compareKeys));
      const run = new ParallelRun<T>({
        cursors,
        order: plan.order,
        concurrency: plan.concurrency,
        pageSize,
        limit: plan.limit,
        select: plan.select,
        fingerprint: plan.fingerprint,
        abortSignal: options.abortSignal,
        map,
      });
      try {
        for (;;) {
          const page = await run.nextPage();
          // Pages are empty only at the very end (every part finished): nothing to hand out.
          if (!page || (page.items.length === 0 && page.continuationToken === undefined)) return;
          const out = page.items as Page<T>;
          if (page.continuationToken !== undefined) out.continuationToken = page.continuationToken;
          yield out;
          if (page.continuationToken === undefined) return;
        }
      } finally {
        await run.close();
      }
    }
    return queryOfPages(pages);
  });
}

interface QueryPlan {
  readonly parts: ResolvedPart[];
  readonly fingerprint: string;
  readonly order: RunOrder;
  readonly compareKeys: (a: string, b: string) => number;
  readonly concurrency: number;
  readonly limit: number;
  readonly select: string[] | undefined;
}

function invalid(message: string): TableKitError {
  return new TableKitError("InvalidInput", message);
}

function planQuery(store: Store, parts: readonly QueryPart[], options: ParallelQueryOptions): QueryPlan {
  if (!Array.isArray(parts) || parts.length === 0 || parts.length > MAX_PARTS) {
    throw invalid(`A parallel query needs 1 to ${MAX_PARTS} parts`);
  }
  const names = new Set<string>();
  const resolved = parts.map((part): ResolvedPart => {
    const { name, table, filter } = part ?? {};
    if (typeof name !== "string" || name === "" || names.has(name)) {
      throw invalid(`Each part needs a unique, non-empty name (got ${JSON.stringify(name)})`);
    }
    names.add(name);
    if (filter !== undefined && typeof filter !== "string")
      throw invalid(`Part ${name}: filter must be a string`);
    const handle = typeof table === "string" ? store.table(table) : table;
    if (!handle || typeof handle.listEntities !== "function") throw invalid(`Part ${name}: no table`);
    return { name, table: handle, ...(filter === undefined ? {} : { filter }) };
  });
  const concurrency = checkConcurrency(options.concurrency ?? 8);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (options.limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw invalid(`limit must be a positive integer, got ${options.limit}`);
  }
  const select = options.select;
  if (
    select !== undefined &&
    (!Array.isArray(select) || select.some((s) => typeof s !== "string" || s === ""))
  ) {
    throw invalid("select must be an array of property names");
  }
  const compareKeys = store.capabilities.keyOrder === "utf8" ? compareUtf8 : compareUtf16;
  const orderName = options.order ?? "key";
  if (orderName !== "key" && orderName !== "arrival") throw invalid(`order must be "key" or "arrival"`);
  if (options.compare !== undefined && typeof options.compare !== "function") {
    throw invalid("compare must be a function");
  }
  const compare =
    options.compare ??
    ((a: PartEntity, b: PartEntity) =>
      compareKeys(a.partitionKey, b.partitionKey) || compareKeys(a.rowKey, b.rowKey));
  return {
    parts: resolved,
    fingerprint: partsFingerprint(resolved.map((p) => ({ ...p, table: p.table.tableName }))),
    order: orderName === "key" ? { kind: "key", compare } : { kind: "arrival" },
    compareKeys,
    concurrency,
    limit,
    select: select ? [...new Set([...select, "PartitionKey", "RowKey"])] : undefined,
  };
}
