import { prefixSuccessor, type TimeInput, type UniqueTicksCodec, uniqueTicks } from "../../keys/index.js";
import { type DateTime, type TableEntityResult, TableKitError } from "../../model/index.js";
import type { OperationOptions, Store, Table } from "../../store/index.js";
import type { RecordMeta } from "../entity-models/types.js";
import type { Fields } from "../shared/schema/field.js";
import { KeyBuilder, type KeySpec, type KeyValues } from "../shared/schema/key-spec.js";
import {
  checkFields,
  fromEntity,
  type InferInput,
  type InferRecord,
  type Simplify,
  toProperties,
  valuesOfProperties,
} from "../shared/schema/schema.js";
import {
  deferQuery,
  entityQuery,
  type Query,
  type QueryOptions,
  rowRangeFilter,
} from "../shared/support/query.js";

/** Which end of a partition a log's keys put first. */
export type LogOrder = "newest-first" | "oldest-first";

export interface LogDefinition<F extends Fields, PKN extends readonly string[]> {
  readonly table: string;
  readonly fields: F;
  /** The partition of an entry (one log per partition: an employee's expenses, a device's readings). */
  readonly partitionKey: (k: KeyBuilder<F>) => KeySpec<F, PKN>;
  /**
   * "newest-first" (default): inverted ticks, the log-tail pattern — the newest n are the first n.
   * "oldest-first": chronological ticks — the oldest n are the first n.
   */
  readonly order?: LogOrder;
  /** A literal every entry's RowKey starts with, when the partition also holds other entities. */
  readonly prefix?: string;
  /** The node id of the uniqueness suffix (default: random per process). */
  readonly node?: string;
}

/** A log entry as reads return it: its fields, its instant (from its RowKey) and the RowKey itself. */
export type LogRecord<F extends Fields> = Simplify<
  InferRecord<F> & RecordMeta & { readonly at: DateTime; readonly rowKey: string }
>;

/** Options of `append`. */
export interface AppendOptions extends OperationOptions {
  /** The entry's instant (default: now, 100 ns ticks). */
  readonly at?: TimeInput;
}

/** A declared log; `on(store)` gives its reader and writer. */
export class ChronologicalLog<F extends Fields, PKN extends readonly string[]> {
  /** The RowKey codec: 19-digit (inverted) ticks plus a uniqueness suffix. */
  readonly codec: UniqueTicksCodec;
  readonly partitionKey: KeySpec<F, PKN>;

  constructor(readonly definition: LogDefinition<F, PKN>) {
    checkFields(definition.fields);
    const order = definition.order ?? "newest-first";
    if (order !== "newest-first" && order !== "oldest-first") {
      throw new TableKitError("InvalidInput", `order must be "newest-first" or "oldest-first"`);
    }
    this.codec = uniqueTicks({
      inverted: order === "newest-first",
      ...(definition.node === undefined ? {} : { node: definition.node }),
    });
    this.partitionKey = definition.partitionKey(new KeyBuilder(definition.fields));
  }

  get order(): LogOrder {
    return this.codec.inverted ? "newest-first" : "oldest-first";
  }

  /** The log in `store`'s table of the log, or in the `Table` given. */
  on(target: Store | Table): LogRepository<F, PKN> {
    const table = "listEntities" in target ? target : target.table(this.definition.table);
    return new LogRepository(this, table);
  }

  /** The instant a RowKey of this log was made for (the seed's `new DateTime(MaxValue.Ticks - inverted)`). */
  instantOf(rowKey: string): DateTime {
    const prefix = this.definition.prefix ?? "";
    if (!rowKey.startsWith(prefix))
      throw new TableKitError("InvalidInput", `${rowKey} is not a key of this log`);
    return this.codec.decode(rowKey.slice(prefix.length)).time;
  }
}

/**
 * Appends to and reads a chronological log. Keys are unique even for entries of the same 100 ns
 * tick (the suffix), and sort by time: the first n of a partition are the newest n (newest-first)
 * or the oldest n (oldest-first), read with one query of n entities however long the log is.
 */
export class LogRepository<F extends Fields, PKN extends readonly string[]> {
  constructor(
    readonly log: ChronologicalLog<F, PKN>,
    readonly table: Table,
  ) {}

  /** Creates the table if it does not exist yet (as `Table.createTable` does). */
  ensureTable(options?: OperationOptions): Promise<void> {
    return this.table.createTable(options);
  }

  /** Writes one entry (one round trip). Its RowKey is new: an append never overwrites. */
  async append(entry: InferInput<F>, options: AppendOptions = {}): Promise<LogRecord<F>> {
    const fields = this.log.definition.fields;
    const properties = toProperties(fields, entry);
    const partitionKey = this.log.partitionKey.encode(entry as Record<string, unknown>);
    const rowKey = (this.log.definition.prefix ?? "") + this.log.codec.next(options.at);
    const { etag, timestamp } = await this.table.createEntity(
      { partitionKey, rowKey, ...properties },
      options,
    );
    return {
      ...valuesOfProperties(properties),
      etag,
      timestamp,
      at: this.log.instantOf(rowKey),
      rowKey,
    } as LogRecord<F>;
  }

  /** The newest `n` entries of a partition, newest first. One query of n on a newest-first log; a full read otherwise. */
  async newest(
    partition: KeyValues<F, PKN>,
    n: number,
    options: OperationOptions = {},
  ): Promise<LogRecord<F>[]> {
    return this.end(partition, n, "newest-first", options);
  }

  /** The oldest `n` entries of a partition, oldest first. One query of n on an oldest-first log; a full read otherwise. */
  async oldest(
    partition: KeyValues<F, PKN>,
    n: number,
    options: OperationOptions = {},
  ): Promise<LogRecord<F>[]> {
    return this.end(partition, n, "oldest-first", options);
  }

  /** Entries with `from <= at < to`, in the log's order: one range query. */
  between(
    partition: KeyValues<F, PKN>,
    from: TimeInput,
    to: TimeInput,
    options: QueryOptions = {},
  ): Query<LogRecord<F>> {
    return deferQuery(() => {
      const range = this.log.codec.range(from, to);
      const prefix = this.log.definition.prefix ?? "";
      const upper = range.upper === undefined ? {} : { upper: prefix + range.upper };
      return this.query(partition, { lower: prefix + range.lower, ...upper }, options);
    });
  }

  /** Every entry of a partition, in the log's order. */
  all(partition: KeyValues<F, PKN>, options: QueryOptions = {}): Query<LogRecord<F>> {
    return deferQuery(() => {
      const prefix = this.log.definition.prefix ?? "";
      const upper = prefixSuccessor(prefix);
      return this.query(
        partition,
        upper === undefined ? { lower: prefix } : { lower: prefix, upper },
        options,
      );
    });
  }

  private async end(
    partition: KeyValues<F, PKN>,
    n: number,
    wanted: LogOrder,
    options: OperationOptions,
  ): Promise<LogRecord<F>[]> {
    if (!Number.isInteger(n) || n < 1)
      throw new TableKitError("InvalidInput", `n must be a positive integer, got ${n}`);
    if (this.log.order === wanted) return this.all(partition, { ...options, limit: n }).toArray();
    // The other end: no reverse scan exists, so read to the end keeping the last n (cost grows with the log).
    let tail: LogRecord<F>[] = [];
    for await (const entry of this.all(partition, options)) {
      tail.push(entry);
      if (tail.length >= 2 * n) tail = tail.slice(-n);
    }
    return tail.slice(-n).reverse();
  }

  private query(
    partition: KeyValues<F, PKN>,
    range: { lower: string; upper?: string },
    options: QueryOptions,
  ): Query<LogRecord<F>> {
    const partitionKey = this.log.partitionKey.encode(partition as Record<string, unknown>);
    const fields = this.log.definition.fields;
    return entityQuery(
      this.table,
      rowRangeFilter(partitionKey, range),
      (e: TableEntityResult) =>
        ({
          ...fromEntity(fields, e),
          etag: e.etag,
          timestamp: e.timestamp,
          at: this.log.instantOf(e.rowKey!),
          rowKey: e.rowKey,
        }) as LogRecord<F>,
      options,
    );
  }
}

/**
 * Declares a chronological log (seeds 000 and 002; "log tail" in seed 001): entries keyed by
 * (inverted) ticks plus a uniqueness suffix, read newest-first, oldest-first, or by time range.
 */
export function defineLog<const F extends Fields, const PKN extends readonly string[]>(
  definition: LogDefinition<F, PKN>,
): ChronologicalLog<F, PKN> {
  return new ChronologicalLog(definition);
}
