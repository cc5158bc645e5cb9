import type { KeyRange, StringRange } from "../../../filter/ast.js";
import { compileFilter, type FilterPredicate } from "../../../filter/evaluate.js";
import { isEmpty } from "../../../filter/intervals.js";
import { keyRangeContains } from "../../../filter/key-ranges.js";
import { compareUtf8, type StoredEntity } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendPage, BackendQuery } from "../../tables/table-backend.js";
import { toTableKitError } from "./errors.js";
import {
  decodeQueryContinuation,
  encodeQueryContinuation,
  malformed,
  type QueryCursor,
} from "./table-continuation.js";
import { fromItem, itemKey } from "./table-entity-codec.js";
import { DynamoDbExpressionBuilder } from "./table-expression-builder.js";
import { toDynamoFilter } from "./table-filter-translator.js";
import {
  attributeNames,
  decodeKey,
  encodeKey,
  PARTITION_KEY_ATTRIBUTE,
  ROW_KEY_ATTRIBUTE,
  TIMESTAMP_ATTRIBUTE,
} from "./table-item-layout.js";
import { DynamoDbPartitionWalk } from "./table-partition-catalogue.js";
import type { AttributeMap, DynamoDbApi, ReadInput, ReadOutput } from "./table-sdk.js";

/**
 * Query pages. Each key range is read in key order: a `rows` range with a Query of its partition
 * (RowKey bounds in the KeyConditionExpression), a `partitions` range — and a query with no ranges —
 * by walking the partition catalogue and Querying each partition in turn, because DynamoDB keeps
 * only each partition sorted.
 * The filter goes into the FilterExpression; where that over-approximates, `evaluateFilter`'s
 * compiled form decides on the client, so no wrong entity is ever returned.
 */

type Keys = NonNullable<QueryCursor["after"]>;
/** A position inside a key range: after a key, or at the start of a partition. */
type Position = Pick<QueryCursor, "after" | "atPartition">;

interface RowsResult {
  readonly entities: StoredEntity[];
  /** Present when the partition has more: the last key consumed. */
  readonly next?: Keys;
}

interface RangeResult {
  readonly entities: StoredEntity[];
  /** Present when the range has more: where to resume. */
  readonly next?: Position;
}

interface Reader {
  readonly api: DynamoDbApi;
  readonly tableName: string;
  readonly query: BackendQuery;
  readonly predicate?: FilterPredicate;
  readonly deadline: number;
  readonly options: CallOptions;
}

const WHOLE_TABLE: KeyRange = { kind: "partitions", pk: {} };
const EVERY_ROW: StringRange = {};
/** DynamoDB reads at most 1 MB a call anyway; this caps one call's Limit when filters thin pages. */
const MAX_LIMIT = 1000;

export async function queryPage(
  api: DynamoDbApi,
  tableName: string,
  query: BackendQuery,
  options: CallOptions,
): Promise<BackendPage> {
  const deadline = Date.now() + query.timeBudgetMs;
  const ranges = query.ranges ?? [WHOLE_TABLE];
  const cursor = query.continuation
    ? decodeQueryContinuation(query.continuation, ranges.length)
    : { range: 0 };
  const reader: Reader = {
    api,
    tableName,
    query,
    predicate: query.filter ? compileFilter(query.filter) : undefined,
    deadline,
    options,
  };
  const entities: StoredEntity[] = [];
  for (let i = cursor.range; i < ranges.length; i++) {
    const range = ranges[i]!;
    const resume: Position | undefined = i === cursor.range ? cursor : undefined;
    checkResume(range, resume);
    const need = query.maxPageSize - entities.length;
    const result =
      range.kind === "rows"
        ? await readRows(reader, range.pk, range.rk, resume?.after, need).then(
            (rows): RangeResult => ({ entities: rows.entities, next: rows.next && { after: rows.next } }),
          )
        : await readPartitions(reader, range.pk, resume, need);
    entities.push(...result.entities);
    if (result.next) return { entities, continuation: encodeQueryContinuation({ range: i, ...result.next }) };
    const more = i + 1 < ranges.length;
    if (more && (entities.length >= query.maxPageSize || Date.now() > deadline)) {
      return { entities, continuation: encodeQueryContinuation({ range: i + 1 }) };
    }
  }
  return { entities };
}

/** A continuation's position must lie in its range (a token of another query does not). */
function checkResume(range: KeyRange, resume: Position | undefined): void {
  const { after, atPartition } = resume ?? {};
  if (after && !keyRangeContains(range, after.partitionKey, after.rowKey, compareUtf8)) throw malformed();
  if (
    atPartition !== undefined &&
    (range.kind !== "partitions" || !keyRangeContains(range, atPartition, "", compareUtf8))
  )
    throw malformed();
}

/** Rows of one partition, RowKey in `rk`, after `after`, at most `need`, with the time budget. */
async function readRows(
  r: Reader,
  pk: string,
  rk: StringRange,
  after: Keys | undefined,
  need: number,
): Promise<RowsResult> {
  const b = new DynamoDbExpressionBuilder();
  const rowKey = b.name(ROW_KEY_ATTRIBUTE);
  const key = [`${b.name(PARTITION_KEY_ATTRIBUTE)} = ${b.value({ S: encodeKey(pk) })}`];
  const { lower, upper } = rk;
  if (isEmpty(rk, compareUtf8)) return { entities: [] };
  if (lower && upper) {
    // BETWEEN is inclusive: exclusive ends are dropped below.
    key.push(
      `${rowKey} BETWEEN ${b.value({ S: encodeKey(lower.value) })} AND ${b.value({ S: encodeKey(upper.value) })}`,
    );
  } else if (lower) {
    key.push(`${rowKey} ${lower.inclusive ? ">=" : ">"} ${b.value({ S: encodeKey(lower.value) })}`);
  } else if (upper) {
    key.push(`${rowKey} ${upper.inclusive ? "<=" : "<"} ${b.value({ S: encodeKey(upper.value) })}`);
  }
  const outside = (k: string) =>
    (lower !== undefined && !lower.inclusive && k === lower.value) ||
    (upper !== undefined && !upper.inclusive && k === upper.value);
  const filter = r.query.filter ? toDynamoFilter(r.query.filter, b, { partitionKey: pk }) : undefined;
  if (filter?.condition === false) return { entities: [] };
  const check = filter && !filter.exact ? r.predicate : undefined;
  const keyCondition = key.join(" AND ");
  const filterExpression = typeof filter?.condition === "string" ? filter.condition : undefined;
  const projection = projectionOf(b, r.query, check !== undefined);
  const out: StoredEntity[] = [];
  let start = after ? itemKey(after.partitionKey, after.rowKey) : undefined;
  // One more than needed tells whether the range goes on, so pages do not end with an empty one.
  let limit = need + 1;
  for (;;) {
    const page = await read(r, {
      TableName: r.tableName,
      KeyConditionExpression: keyCondition,
      FilterExpression: filterExpression,
      ProjectionExpression: projection,
      ExclusiveStartKey: start,
      Limit: limit,
      ConsistentRead: true,
      ...b.used(keyCondition, filterExpression, projection),
    });
    for (const item of page.Items ?? []) {
      if (out.length === need) {
        // The read-ahead item only says whether the range goes on: decoded whole only for the filter.
        if (!outside(decodeKeys(item).rowKey) && (!check || check(fromItem(item))))
          return { entities: out, next: keysOf(out[need - 1]!) };
        continue;
      }
      const e = fromItem(item);
      if (outside(e.rowKey) || (check && !check(e))) continue;
      out.push(e);
    }
    if (!page.LastEvaluatedKey) return { entities: out };
    start = page.LastEvaluatedKey;
    if (out.length === need || Date.now() > r.deadline) return { entities: out, next: decodeKeys(start) };
    limit = Math.min(MAX_LIMIT, Math.max(need - out.length + 1, limit * 2));
  }
}

/**
 * Rows whose PartitionKey lies in `pk`, in key order: the partitions from the partition catalogue,
 * each read with a Query, so every entity is read about once however many pages the listing has.
 * A page may hold several partitions (`pageEndsAtPartitionBoundary: false`).
 */
async function readPartitions(
  r: Reader,
  pk: StringRange,
  resume: Position | undefined,
  need: number,
): Promise<RangeResult> {
  if (isEmpty(pk, compareUtf8)) return { entities: [] };
  // Resuming inside a partition, or at one the previous page found in the catalogue: it exists,
  // so read it first and look up the catalogue only if the page still has room.
  const inside = resume?.after;
  const first = inside?.partitionKey ?? resume?.atPartition;
  const walk = new DynamoDbPartitionWalk(
    r.api,
    r.tableName,
    pk,
    first === undefined ? undefined : { from: first, exclusive: true },
    r.options,
  );
  const out: StoredEntity[] = [];
  let partition = first ?? (await walk.next());
  while (partition !== undefined) {
    const after = inside?.partitionKey === partition ? inside : undefined;
    const rows = await readRows(r, partition, EVERY_ROW, after, need - out.length);
    out.push(...rows.entities);
    if (rows.next) return { entities: out, next: { after: rows.next } };
    const full = out.length >= need || Date.now() > r.deadline;
    partition = await walk.next();
    // The next page starts at the next partition, as the Table service's NextPartitionKey does:
    // the catalogue is not read twice for it.
    if (full && partition !== undefined) return { entities: out, next: { atPartition: partition } };
  }
  return { entities: out };
}

async function read(r: Reader, input: ReadInput): Promise<ReadOutput> {
  try {
    return await r.api.query(input, r.options.abortSignal);
  } catch (err) {
    throw toTableKitError(err, r.options);
  }
}

/**
 * The ProjectionExpression for `select`: the keys and Timestamp always, and the filter's
 * properties when the client must evaluate it.
 */
function projectionOf(
  b: DynamoDbExpressionBuilder,
  query: BackendQuery,
  clientFilter: boolean,
): string | undefined {
  if (!query.select) return undefined;
  const properties = clientFilter ? new Set([...query.select, ...query.filterProperties]) : query.select;
  const names = [PARTITION_KEY_ATTRIBUTE, ROW_KEY_ATTRIBUTE, TIMESTAMP_ATTRIBUTE];
  for (const property of properties) names.push(...attributeNames(property));
  // A property may sit under any of its type's attribute names. Past DynamoDB's 4 KB expression
  // limit, read whole items instead (the core projects them anyway).
  const projection = names.map((n) => b.name(n)).join(",");
  return projection.length <= MAX_PROJECTION_LENGTH ? projection : undefined;
}

const MAX_PROJECTION_LENGTH = 4000;

function keysOf(e: StoredEntity): Keys {
  return { partitionKey: e.partitionKey, rowKey: e.rowKey };
}

function decodeKeys(key: AttributeMap): Keys {
  const s = (name: string) => (key[name] as { S?: string } | undefined)?.S ?? "";
  return { partitionKey: decodeKey(s(PARTITION_KEY_ATTRIBUTE)), rowKey: decodeKey(s(ROW_KEY_ATTRIBUTE)) };
}
