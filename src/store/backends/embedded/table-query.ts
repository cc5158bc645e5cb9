import type { KeyRange, StringRange } from "../../../filter/ast.js";
import type { StoredEntity } from "../../../model/index.js";
import type { BackendPage, BackendQuery } from "../../tables/table-backend.js";
import { decodeKeyContinuation, encodeKeyContinuation } from "./table-continuation.js";
import { decodeEntity } from "./table-entity-codec.js";
import { filterToSql, type KeyContext, type SqlFragment, simplifyFilter } from "./table-filter-translator.js";
import {
  afterKey,
  afterPartition,
  beforeKey,
  type Cut,
  type Interval,
  intersectIntervals,
  intervalBounds,
  intervalOf,
  intervalWhere,
  isEmptyInterval,
  laterCut,
  partitionInterval,
} from "./table-key-interval.js";
import { fromStoredKey } from "./table-key-order.js";
import type { EmbeddedTableStatements } from "./table-statements.js";

/**
 * A filtered scan reads a chunk of rows per statement, so the clock is checked often: twice the
 * page size at first (enough when most rows match), doubling up to MAX_CHUNK when matches are sparse.
 */
const MIN_CHUNK = 16;
const MAX_CHUNK = 8192;

interface ScanRange {
  readonly interval: Interval;
  /** The keys the range can hold, to drop filter terms it already decides. */
  readonly keys: KeyContext;
  /** The filter within the whole range, once worked out. */
  whole?: RangeFilter;
  /** The filter within the range and the last partition a strict page read in it. */
  partition?: { readonly pk: string; readonly filter: RangeFilter };
}

/** A filter within a range: decided (true, false) or SQL, with the id its statements are cached by (SQL only). */
interface RangeFilter {
  readonly sql: boolean | SqlFragment;
  readonly id: number;
}

/**
 * What a query's filter and key ranges come to, per range, kept while the core's plan lives (it
 * hands the same objects for the same filter text): a repeated query plans nothing.
 */
interface ReadPlan {
  readonly filter: BackendQuery["filter"];
  readonly ranges: BackendQuery["ranges"];
  readonly scans: readonly ScanRange[];
}

const readPlans = new WeakMap<object, ReadPlan>();
/** The key of queries without ranges and filter (the whole table). */
const WHOLE_TABLE = {};

/**
 * Ids of filter SQL texts, so statements are cached by a short key: one text keeps its id (the
 * partitions of a strict listing share their statements) while it is kept here, and an id is
 * never given to another text.
 */
const filterIds = new Map<string, number>();
const MAX_FILTER_IDS = 4096;
let nextFilterId = 0;

function filterId(sql: string): number {
  let id = filterIds.get(sql);
  if (id === undefined) {
    if (filterIds.size >= MAX_FILTER_IDS) filterIds.clear();
    id = nextFilterId++;
    filterIds.set(sql, id);
  }
  return id;
}

function readPlanOf(q: BackendQuery): ReadPlan {
  const key = q.ranges ?? q.filter ?? WHOLE_TABLE;
  let plan = readPlans.get(key);
  if (!plan || plan.filter !== q.filter || plan.ranges !== q.ranges) {
    plan = { filter: q.filter, ranges: q.ranges, scans: scanRanges(q.ranges) };
    readPlans.set(key, plan);
  }
  return plan;
}

/** `[pk, rk, p, ts, etag]`, or without `pk` when a statement reads within one partition. */
type Row = (string | bigint)[];
type KeyRow = [pk: string, rk: string];
interface Key {
  readonly partitionKey: string;
  readonly rowKey: string;
}

/**
 * Reads one page of a query, as the service pages: at most `maxPageSize` entities, ending early
 * once `timeBudgetMs` has passed (after at least one chunk, so every page makes progress), and with
 * `endAtPartition` (the store's `pages: "partition"`) also where the next entity is of another
 * partition. Only the given key ranges are read, each as index range scans. The page's
 * continuation is the next existing key after what was read, so resuming never skips or repeats.
 */
export function readPage(
  h: EmbeddedTableStatements,
  query: BackendQuery,
  endAtPartition: boolean,
): BackendPage {
  const reader = new PageReader(h, query, endAtPartition);
  try {
    return reader.read();
  } finally {
    reader.close();
  }
}

class PageReader {
  private readonly started = performance.now();
  private readonly ranges: readonly ScanRange[];
  private readonly select: ReadonlySet<string> | undefined;
  private readonly entities: StoredEntity[] = [];
  /** With `endAtPartition`, the partition of this page once known: the page holds no other. */
  private partition: string | undefined;
  private chunk: number;
  private scanned = false;
  private statements = 0;
  private inReadTransaction = false;
  /** The last stored PartitionKey read and its key: rows of one partition share it. */
  private storedPk = "";
  private pk = "";

  constructor(
    private readonly h: EmbeddedTableStatements,
    private readonly q: BackendQuery,
    private readonly endAtPartition: boolean,
  ) {
    this.ranges = readPlanOf(q).scans;
    this.select = q.select ? new Set(q.select) : undefined;
    this.chunk = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, 2 * (q.maxPageSize + 1)));
  }

  read(): BackendPage {
    const resume = this.q.continuation === undefined ? undefined : decodeKeyContinuation(this.q.continuation);
    const from = resume && beforeKey(resume.partitionKey, resume.rowKey);
    for (let i = 0; i < this.ranges.length; i++) {
      const range = this.ranges[i]!;
      let lower = laterCut(range.interval.lower, from);
      const rangeUpper = range.interval.upper;
      if (isEmptyInterval({ lower, upper: rangeUpper })) continue;
      if (this.scanned && this.outOfTime()) return this.endAt(this.nextKey(i, lower));
      let filter = this.plan(range);
      for (;;) {
        let scan: Interval = { lower, upper: rangeUpper };
        if (this.partition !== undefined) scan = intersectIntervals(scan, partitionInterval(this.partition));
        if (filter.sql === false || isEmptyInterval(scan)) {
          if (this.partition === undefined) break;
          // The page's partition is done within this range: a key of another one ends the page.
          const rest = { lower: laterCut(lower, afterPartition(this.partition)), upper: rangeUpper };
          const beyond = isEmptyInterval(rest) ? undefined : this.firstKey(rest);
          if (beyond) return this.endAt(beyond);
          break;
        }
        if (
          this.endAtPartition &&
          filter.sql === true &&
          this.partition === undefined &&
          !isSinglePartition(scan)
        ) {
          // Every row matches: find the first row's partition, then read only that partition.
          const first = this.firstKey(scan);
          if (!first) break;
          this.partition = first.partitionKey;
          filter = this.plan(range);
          continue;
        }
        let upper = scan.upper;
        if (filter.sql !== true) {
          // Bound the rows this statement may scan (matches can be sparse): read a chunk.
          const end = this.keyAt(scan, this.chunk - 1);
          if (end) upper = afterKey(end.partitionKey, end.rowKey);
          this.chunk = Math.min(this.chunk * 2, MAX_CHUNK);
        }
        const wanted = this.q.maxPageSize - this.entities.length + 1;
        const interval: Interval = { lower: scan.lower, upper };
        // Within one partition, rows leave out the PartitionKey (a fifth of what a row costs to make).
        const onePartition = isSinglePartition(interval) ? interval.lower!.pk : undefined;
        const rows = this.fetch(interval, filter, wanted, onePartition !== undefined);
        this.scanned = true;
        const partitionBefore = this.partition;
        const k = onePartition === undefined ? 1 : 0; // where the row's RowKey is
        for (const row of rows) {
          const pk = onePartition ?? this.partitionKeyOf(row[0] as string);
          if (this.entities.length === this.q.maxPageSize) {
            return this.endAt({ partitionKey: pk, rowKey: fromStoredKey(row[k] as string) });
          }
          if (this.endAtPartition) {
            if (this.partition === undefined) this.partition = pk;
            else if (pk !== this.partition)
              return this.endAt({ partitionKey: pk, rowKey: fromStoredKey(row[k] as string) });
          }
          const rk = fromStoredKey(row[k] as string);
          this.entities.push(
            decodeEntity(
              pk,
              rk,
              row[k + 1] as string,
              row[k + 2] as bigint,
              row[k + 3] as string,
              this.select,
            ),
          );
        }
        if (this.partition !== partitionBefore) filter = this.plan(range);
        // Everything before `upper` has been read.
        if (this.entities.length === this.q.maxPageSize || this.outOfTime()) {
          return this.endAt(upper === undefined ? this.nextKey(i + 1, undefined) : this.nextKey(i, upper));
        }
        if (upper === undefined) break;
        lower = upper;
      }
    }
    return this.endAt(undefined);
  }

  /** Ends the read transaction a multi-statement page opened. */
  close(): void {
    if (this.inReadTransaction) this.h.endRead();
  }

  /**
   * Called before each statement. A page of one statement runs it alone; from the second on, the
   * page's statements share one read transaction (one snapshot, one read lock instead of many).
   */
  private beforeStatement(): void {
    if (++this.statements === 2 && !this.h.db.inTransaction) {
      this.h.beginRead();
      this.inReadTransaction = true;
    }
  }

  private outOfTime(): boolean {
    return performance.now() - this.started >= this.q.timeBudgetMs;
  }

  private endAt(next: Key | undefined): BackendPage {
    return next
      ? { entities: this.entities, continuation: encodeKeyContinuation(next.partitionKey, next.rowKey) }
      : { entities: this.entities };
  }

  /** The key of a stored PartitionKey; rows of one partition convert it once. */
  private partitionKeyOf(stored: string): string {
    if (stored !== this.storedPk) {
      this.storedPk = stored;
      this.pk = fromStoredKey(stored);
    }
    return this.pk;
  }

  /** The filter to apply within `range` (and a strict page's partition): true, false or SQL. */
  private plan(range: ScanRange): RangeFilter {
    const pk = this.partition;
    if (pk === undefined) {
      range.whole ??= this.rangeFilter(range.keys);
      return range.whole;
    }
    if (range.partition?.pk !== pk) {
      range.partition = { pk, filter: this.rangeFilter({ pk: point(pk), rk: range.keys.rk }) };
    }
    return range.partition.filter;
  }

  private rangeFilter(keys: KeyContext): RangeFilter {
    const filter = this.q.filter;
    const simplified = filter ? simplifyFilter(filter, keys) : true;
    if (typeof simplified === "boolean") return { sql: simplified, id: -1 };
    const sql = filterToSql(simplified);
    return { sql, id: filterId(sql.sql) };
  }

  /** The first existing key at or after `lower` in ranges `i`, `i + 1`, … */
  private nextKey(i: number, lower: Cut | undefined): Key | undefined {
    for (let j = i; j < this.ranges.length; j++) {
      const interval = {
        lower: laterCut(this.ranges[j]!.interval.lower, lower),
        upper: this.ranges[j]!.interval.upper,
      };
      if (isEmptyInterval(interval)) continue;
      const key = this.firstKey(interval);
      if (key) return key;
    }
    return undefined;
  }

  private firstKey(interval: Interval): Key | undefined {
    return this.keyAt(interval, 0);
  }

  /** The key `offset` rows into the interval, if it holds that many. */
  private keyAt(interval: Interval, offset: number): Key | undefined {
    this.beforeStatement();
    const b = intervalBounds(interval);
    // LIMIT and OFFSET are part of the SQL text: SQLite re-prepares a statement whose LIMIT or
    // OFFSET is a bound parameter on every execution (it plans with the bound value).
    const key = statementKey(KEY_AT, b.shape, offset, -1);
    const statement =
      this.h.cachedQuery(key) ??
      this.h.prepareQuery(
        key,
        `SELECT pk, rk FROM ${this.h.sqlName} WHERE ${intervalWhere(b.shape)} ORDER BY pk, rk LIMIT 1 OFFSET ${offset}`,
      );
    const row = statement.get(...b.params) as KeyRow | undefined;
    return row && { partitionKey: fromStoredKey(row[0]), rowKey: fromStoredKey(row[1]) };
  }

  /** Up to `wanted` rows (possibly a few more) of the interval that pass the filter. */
  private fetch(interval: Interval, filter: RangeFilter, wanted: number, onePartition: boolean): Row[] {
    this.beforeStatement();
    const b = intervalBounds(interval);
    const sql = typeof filter.sql === "boolean" ? undefined : filter.sql;
    // The LIMIT is in the SQL text (see keyAt): exact for a page's first read, rounded up to a
    // power of two for later ones, so that few distinct statements are prepared and cached. A
    // filter's statements are cached by its plan's id, not by its (possibly long) SQL text.
    const limit = this.entities.length === 0 ? wanted : 2 ** Math.ceil(Math.log2(wanted));
    const key = statementKey(onePartition ? ROWS_OF_PARTITION : ROWS, b.shape, limit, sql ? filter.id : -1);
    let statement = this.h.cachedQuery(key);
    if (!statement) {
      const columns = onePartition ? "rk, p, ts, etag" : "pk, rk, p, ts, etag";
      const bounds = intervalWhere(b.shape);
      const where = sql ? `${bounds} AND ${sql.sql}` : bounds;
      statement = this.h.prepareQuery(
        key,
        `SELECT ${columns} FROM ${this.h.sqlName} WHERE ${where} ORDER BY pk, rk LIMIT ${limit}`,
      );
    }
    return (sql ? statement.all(...b.params, ...sql.params) : statement.all(...b.params)) as Row[];
  }
}

/** What a cached statement reads: the key at an offset, rows, or rows of one partition (no pk column). */
const KEY_AT = 0;
const ROWS = 1;
const ROWS_OF_PARTITION = 2;

/**
 * What a query statement is cached by: what it reads, its interval's shape (0..24), its LIMIT or
 * OFFSET and its filter's id (-1: none). A number, so a page's lookups build and hash no key text,
 * while the LIMIT or OFFSET is below 2^16 (pages hold at most 1,001 rows unless a store's limits
 * raise maxPageSize, chunks 8,192 rows); text past that.
 */
function statementKey(kind: number, shape: number, n: number, filterId: number): number | string {
  if (n >= 65_536) return `${kind}|${shape}|${n}|${filterId}`;
  return (((filterId + 1) * 65_536 + n) * 25 + shape) * 3 + kind;
}

function point(value: string): StringRange {
  return { lower: { value, inclusive: true }, upper: { value, inclusive: true } };
}

/** All keys between two cuts of the same PartitionKey belong to that partition. */
function isSinglePartition(i: Interval): boolean {
  return i.lower !== undefined && i.upper !== undefined && i.lower.pk === i.upper.pk;
}

function scanRanges(ranges: readonly KeyRange[] | undefined): readonly ScanRange[] {
  // A bound holding a lone surrogate cannot be passed to SQLite: read everything and let the
  // filter (which handles such literals exactly) decide.
  if (!ranges?.every(isWellFormedRange)) return [{ interval: {}, keys: { pk: {}, rk: {} } }];
  return ranges.map((r) => ({
    interval: intervalOf(r),
    keys: r.kind === "rows" ? { pk: point(r.pk), rk: r.rk } : { pk: r.pk, rk: {} },
  }));
}

function isWellFormedRange(r: KeyRange): boolean {
  const strings =
    r.kind === "rows" ? [r.pk, r.rk.lower?.value, r.rk.upper?.value] : [r.pk.lower?.value, r.pk.upper?.value];
  return strings.every((s) => s === undefined || s.isWellFormed());
}
