import type { StringRange } from "../../../filter/ast.js";
import { compareUtf8 } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import { sdkErrorName, toTableKitError } from "./errors.js";
import { DynamoDbExpressionBuilder } from "./table-expression-builder.js";
import { decodeKey, encodeKey, PARTITION_KEY_ATTRIBUTE, ROW_KEY_ATTRIBUTE } from "./table-item-layout.js";
import type { AttributeMap, DynamoDbApi } from "./table-sdk.js";

/**
 * The partition catalogue: one marker item per PartitionKey ever written, in a reserved partition,
 * RowKey = the stored (escaped) PartitionKey. A listing across partitions Queries the catalogue in
 * key order, then each partition in turn, instead of sorting a Scan of the whole table.
 * `encodeKey` never puts U+0001 before a character above U+0001, so no entity's partition is this
 * one. A marker is written before the first entity of its partition and never removed: the marker
 * of an emptied partition only costs its listing one empty Query.
 */
export const PARTITION_CATALOGUE_KEY = "\u0001~partitions";

/** How long a process trusts that a partition's marker exists (another process may re-create the table). */
const KNOWN_FOR_MS = 60_000;
/** Past this many partitions of one table, the cache starts over rather than grow without end. */
const MAX_KNOWN = 100_000;
/** Markers read in one catalogue Query at most; the first read takes 2 and each next one doubles. */
const MAX_MARKERS_PER_READ = 1000;

/** The partitions each DynamoDB table is known to have a marker for, so writes skip the marker put. */
export class DynamoDbKnownPartitions {
  private readonly tables = new Map<string, { since: number; partitions: Set<string> }>();

  has(tableName: string, partitionKey: string): boolean {
    const entry = this.tables.get(tableName);
    if (!entry) return false;
    if (Date.now() - entry.since > KNOWN_FOR_MS || entry.partitions.size > MAX_KNOWN) {
      this.tables.delete(tableName);
      return false;
    }
    return entry.partitions.has(partitionKey);
  }

  add(tableName: string, partitionKey: string): void {
    const entry = this.tables.get(tableName) ?? { since: Date.now(), partitions: new Set<string>() };
    this.tables.set(tableName, entry);
    entry.partitions.add(partitionKey);
  }

  /** The table was created or deleted: its catalogue starts empty. */
  forget(tableName: string): void {
    this.tables.delete(tableName);
  }
}

/**
 * Makes sure the partition's marker exists before an entity is written into it (so a listing that
 * can see the entity sees its partition). A conditional put: when the marker is there already it
 * fails, for one write unit, and changes nothing.
 */
export async function ensurePartitionMarker(
  api: DynamoDbApi,
  tableName: string,
  known: DynamoDbKnownPartitions,
  partitionKey: string,
  options: CallOptions,
): Promise<void> {
  if (known.has(tableName, partitionKey)) return;
  const b = new DynamoDbExpressionBuilder();
  const condition = `attribute_not_exists(${b.name(PARTITION_KEY_ATTRIBUTE)})`;
  try {
    await api.putItem(
      {
        TableName: tableName,
        Item: markerKey(partitionKey),
        ConditionExpression: condition,
        ...b.used(condition),
      },
      options.abortSignal,
    );
  } catch (err) {
    if (sdkErrorName(err) !== "ConditionalCheckFailedException") throw toTableKitError(err, options);
  }
  known.add(tableName, partitionKey);
}

function markerKey(partitionKey: string): AttributeMap {
  return {
    [PARTITION_KEY_ATTRIBUTE]: { S: PARTITION_CATALOGUE_KEY },
    [ROW_KEY_ATTRIBUTE]: { S: encodeKey(partitionKey) },
  };
}

/** Where a walk of the catalogue starts: partitions from `from` on, or after it (`exclusive`). */
export interface CatalogueStart {
  readonly from: string;
  readonly exclusive: boolean;
}

/**
 * The PartitionKeys of the catalogue within `range` (from `start` on), in key order, read lazily in
 * consistent Queries of growing size, so a page that needs two partitions reads about two markers.
 */
export class DynamoDbPartitionWalk {
  private buffer: string[] = [];
  private startKey: AttributeMap | undefined;
  private done = false;
  private first = true;
  private limit = 2;

  constructor(
    private readonly api: DynamoDbApi,
    private readonly tableName: string,
    private readonly range: StringRange,
    private readonly start: CatalogueStart | undefined,
    private readonly options: CallOptions,
  ) {}

  /** The next partition, or undefined at the end of the range. */
  async next(): Promise<string | undefined> {
    await this.fill();
    return this.buffer.shift();
  }

  /** Whether another partition follows (reads ahead when the buffer is empty). */
  async hasMore(): Promise<boolean> {
    await this.fill();
    return this.buffer.length > 0;
  }

  private async fill(): Promise<void> {
    while (this.buffer.length === 0 && !this.done) await this.read();
  }

  private async read(): Promise<void> {
    const b = new DynamoDbExpressionBuilder();
    const rowKey = b.name(ROW_KEY_ATTRIBUTE);
    const lower = this.lowerBound();
    const upper = this.range.upper;
    const key = [`${b.name(PARTITION_KEY_ATTRIBUTE)} = ${b.value({ S: PARTITION_CATALOGUE_KEY })}`];
    // One sort key condition at most: exclusive ends are dropped in `inRange`.
    if (lower && upper) {
      key.push(
        `${rowKey} BETWEEN ${b.value({ S: encodeKey(lower.value) })} AND ${b.value({ S: encodeKey(upper.value) })}`,
      );
    } else if (lower) {
      key.push(`${rowKey} >= ${b.value({ S: encodeKey(lower.value) })}`);
    } else if (upper) {
      key.push(`${rowKey} <= ${b.value({ S: encodeKey(upper.value) })}`);
    }
    const c = lower && upper ? compareUtf8(lower.value, upper.value) : -1;
    if (c > 0 || (c === 0 && (lower!.exclusive || !upper!.inclusive))) {
      this.done = true;
      return;
    }
    const keyCondition = key.join(" AND ");
    // An exclusive lower bound starts after its marker (whether or not it exists), not at it.
    if (this.first && lower?.exclusive) this.startKey = markerKey(lower.value);
    this.first = false;
    const page = await this.api
      .query(
        {
          TableName: this.tableName,
          KeyConditionExpression: keyCondition,
          ExclusiveStartKey: this.startKey,
          Limit: this.limit,
          ConsistentRead: true,
          ...b.used(keyCondition),
        },
        this.options.abortSignal,
      )
      .catch((err) => {
        throw toTableKitError(err, this.options);
      });
    for (const item of page.Items ?? []) {
      const partitionKey = decodeKey((item[ROW_KEY_ATTRIBUTE] as { S: string }).S);
      if (this.inRange(partitionKey)) this.buffer.push(partitionKey);
    }
    this.startKey = page.LastEvaluatedKey;
    if (!this.startKey) this.done = true;
    this.limit = Math.min(MAX_MARKERS_PER_READ, this.limit * 2);
  }

  /** The tighter of the range's lower bound and the start. */
  private lowerBound(): { value: string; exclusive: boolean } | undefined {
    const { lower } = this.range;
    const a = lower && { value: lower.value, exclusive: !lower.inclusive };
    const b = this.start && { value: this.start.from, exclusive: this.start.exclusive };
    if (!a || !b) return a ?? b;
    const c = compareUtf8(a.value, b.value);
    return c > 0 || (c === 0 && a.exclusive) ? a : b;
  }

  private inRange(partitionKey: string): boolean {
    const { lower, upper } = this.range;
    if (lower && compareUtf8(partitionKey, lower.value) < (lower.inclusive ? 0 : 1)) return false;
    if (upper && compareUtf8(partitionKey, upper.value) > (upper.inclusive ? 0 : -1)) return false;
    if (this.start) {
      const c = compareUtf8(partitionKey, this.start.from);
      if (c < 0 || (c === 0 && this.start.exclusive)) return false;
    }
    return true;
  }
}
