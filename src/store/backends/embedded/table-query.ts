import type { KeyRange, StringRange } from "../../../filter/ast.js";
import { DateTime, type StoredEntity } from "../../../model/index.js";
import type { BackendPage, BackendQuery } from "../../tables/table-backend.js";
import { decodeKeyContinuation, encodeKeyContinuation } from "./table-continuation.js";
import { decodeProperties } from "./table-entity-codec.js";
import { filterToSql, type KeyContext, type SqlFragment, simplifyFilter } from "./table-filter-translator.js";
import {
  afterKey,
  afterPartition,
  beforeKey,
  type Cut,
  type Interval,
  intersectIntervals,
  intervalOf,
  intervalSql,
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
}

type Row = [pk: string, rk: string, p: string, ts: bigint, etag: string];
type KeyRow = [pk: string, rk: string];
interface Key {
  readonly partitionKey: string;
  readonly rowKey: string;
}

/**
 * Reads one page of a query, as the service pages: at most `maxPageSize` entities, all of one
 * partition, ending early once `timeBudgetMs` has passed (after at least one chunk, so every page
 * makes progress). Only the given key ranges are read, each as index range scans. The page's
 * continuation is the next existing key after what was read, so resuming never skips or repeats.
 */
export function readPage(h: EmbeddedTableStatements, query: BackendQuery): BackendPage {
  const reader = new PageReader(h, query);
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
  /** The partition of this page, once known: the page holds no other. */
  private partition: string | undefined;
  private chunk: number;
  private scanned = false;
  private statements = 0;
  private inReadTransaction = false;

  constructor(
    private readonly h: EmbeddedTableStatements,
    private readonly q: BackendQuery,
  ) {
    this.ranges = scanRanges(q.ranges);
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
        if (filter === false || isEmptyInterval(scan)) {
          if (this.partition === undefined) break;
          // The page's partition is done within this range: a key of another one ends the page.
          const rest = { lower: laterCut(lower, afterPartition(this.partition)), upper: rangeUpper };
          const beyond = isEmptyInterval(rest) ? undefined : this.firstKey(rest);
          if (beyond) return this.endAt(beyond);
          break;
        }
        if (filter === true && this.partition === undefined && !isSinglePartition(scan)) {
          // Every row matches: find the first row's partition, then read only that partition.
          const first = this.firstKey(scan);
          if (!first) break;
          this.partition = first.partitionKey;
          filter = this.plan(range);
          continue;
        }
        let upper = scan.upper;
        if (filter !== true) {
          // Bound the rows this statement may scan (matches can be sparse): read a chunk.
          const end = this.keyAt(scan, this.chunk - 1);
          if (end) upper = afterKey(end.partitionKey, end.rowKey);
          this.chunk = Math.min(this.chunk * 2, MAX_CHUNK);
        }
        const wanted = this.q.maxPageSize - this.entities.length + 1;
        const rows = this.fetch({ lower: scan.lower, upper }, filter === true ? undefined : filter, wanted);
        this.scanned = true;
        const partitionBefore = this.partition;
        for (const row of rows) {
          const pk = fromStoredKey(row[0]);
          if (this.partition === undefined) this.partition = pk;
          else if (pk !== this.partition || this.entities.length === this.q.maxPageSize) {
            return this.endAt({ partitionKey: pk, rowKey: fromStoredKey(row[1]) });
          }
          this.entities.push(this.decode(row, pk));
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

  /** The filter to apply within `range` (and the page's partition): true, false or SQL. */
  private plan(range: ScanRange): boolean | SqlFragment {
    const filter = this.q.filter;
    if (!filter) return true;
    const keys = this.partition === undefined ? range.keys : { pk: point(this.partition), rk: range.keys.rk };
    const simplified = simplifyFilter(filter, keys);
    return typeof simplified === "boolean" ? simplified : filterToSql(simplified);
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
    const b = intervalSql(interval);
    // LIMIT and OFFSET are part of the SQL text: SQLite re-prepares a statement whose LIMIT or
    // OFFSET is a bound parameter on every execution (it plans with the bound value).
    const statement = this.h.query(`k|${b.shape}|${offset}`, (table) => {
      return `SELECT pk, rk FROM ${table} WHERE ${b.sql} ORDER BY pk, rk LIMIT 1 OFFSET ${offset}`;
    });
    const row = statement.get(...b.params) as KeyRow | undefined;
    return row && { partitionKey: fromStoredKey(row[0]), rowKey: fromStoredKey(row[1]) };
  }

  /** Up to `wanted` rows (possibly a few more) of the interval that pass the filter. */
  private fetch(interval: Interval, filter: SqlFragment | undefined, wanted: number): Row[] {
    this.beforeStatement();
    const b = intervalSql(interval);
    const where = filter ? `${b.sql} AND ${filter.sql}` : b.sql;
    // The LIMIT is in the SQL text (see keyAt): exact for a page's first read, rounded up to a
    // power of two for later ones, so that few distinct statements are prepared and cached.
    const limit = this.entities.length === 0 ? wanted : 2 ** Math.ceil(Math.log2(wanted));
    const statement = this.h.query(`r|${b.shape}|${limit}|${filter?.sql ?? ""}`, (table) => {
      return `SELECT pk, rk, p, ts, etag FROM ${table} WHERE ${where} ORDER BY pk, rk LIMIT ${limit}`;
    });
    return (filter ? statement.all(...b.params, ...filter.params) : statement.all(...b.params)) as Row[];
  }

  private decode(row: Row, partitionKey: string): StoredEntity {
    return {
      partitionKey,
      rowKey: fromStoredKey(row[1]),
      properties: decodeProperties(row[2], this.select),
      etag: row[4],
      timestamp: DateTime.fromTicks(row[3]),
    };
  }
}

function point(value: string): StringRange {
  return { lower: { value, inclusive: true }, upper: { value, inclusive: true } };
}

/** All keys between two cuts of the same PartitionKey belong to that partition. */
function isSinglePartition(i: Interval): boolean {
  return i.lower !== undefined && i.upper !== undefined && i.lower.pk === i.upper.pk;
}

function scanRanges(ranges: readonly KeyRange[] | undefined): ScanRange[] {
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
