import { odata } from "../../filter/index.js";
import { type HashBucketCodec, hashBuckets, prefixSuccessor } from "../../keys/index.js";
import {
  compareUtf8,
  compareUtf16,
  type PropertyInput,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
} from "../../model/index.js";
import type { OperationOptions, Store, Table, UpdateMode, WriteResponse } from "../../store/index.js";
import {
  mergeParts,
  type ParallelQueryOptions,
  type PartEntity,
} from "../parallel-queries/parallel-query.js";
import { andFilters } from "../parallel-queries/query-parts.js";
import { checkConcurrency } from "../shared/support/concurrency.js";
import { deferQuery, type Query } from "../shared/support/query.js";
import {
  BUSY_RETRY,
  type RetryOptions,
  type RetryPolicy,
  retryPolicy,
  retryWhileBusy,
} from "../shared/support/retry.js";
import { type FanOutResult, writeFannedOut } from "./fan-out-writer.js";

/** An entity as the caller writes it: keys as the application sees them (the logical partition). */
export type LogicalEntity = TableEntity<Record<string, PropertyInput>>;

export interface HashPartitionOptions {
  /** How many buckets (partitions) each logical partition is spread over: 1 (the hot design) to 10000. */
  readonly buckets: number;
  /**
   * What picks an entity's bucket (default: its RowKey, so a point read goes to one bucket). Use
   * another value (an employee id) to keep related entities together in one bucket.
   */
  readonly hashInput?: (entity: { readonly partitionKey: string; readonly rowKey: string }) => string;
  /** How writes retry while the store answers ServerBusy (default: 8 attempts, 25 ms doubling to 2 s). */
  readonly busyRetry?: Omit<RetryOptions, "abortSignal">;
}

/** Which logical partitions a query reads: one, or a range `from <= partitionKey < to`. */
export type PartitionSelector = string | { readonly from?: string; readonly to?: string };

/** Options of a query over every bucket (the parallel query's). */
export type BucketQueryOptions = Omit<ParallelQueryOptions, "compare">;

/** Options of `writeMany`. */
export interface WriteManyOptions extends OperationOptions {
  /** "create" (default; fails on an existing row) or "upsert" (insert or replace). */
  readonly mode?: "create" | "upsert";
  /** Transactions in flight at once (default 8). */
  readonly concurrency?: number;
}

/**
 * Hash partitioning against hot partitions (seed 001's prepend/append anti-pattern; seed 002's
 * hash partitioning): every write to a logical partition (the current hour, a growing id) goes to
 * one of `buckets` physical partitions, `<bucket>_<partition>`, chosen by a stable hash, so no
 * partition takes all the inserts. Reads of a logical partition fan out to every bucket and merge
 * the results by RowKey (or stream them as they arrive).
 *
 * Entities are returned as stored: their PartitionKey is the bucketed one (`split` recovers the
 * logical one), so an ETag-guarded update through the table works unchanged.
 */
export class HashPartitionedTable {
  readonly codec: HashBucketCodec;
  private readonly compareKeys: (a: string, b: string) => number;
  private readonly policy: RetryPolicy;

  constructor(
    readonly store: Store,
    readonly table: Table,
    private readonly options: HashPartitionOptions,
  ) {
    this.codec = hashBuckets({ buckets: options?.buckets });
    this.compareKeys = store.capabilities.keyOrder === "utf8" ? compareUtf8 : compareUtf16;
    this.policy = retryPolicy({ ...BUSY_RETRY, ...options.busyRetry });
  }

  /** The stored PartitionKey of a logical entity: `<bucket>_<partitionKey>`. */
  partitionKeyOf(entity: { readonly partitionKey: string; readonly rowKey: string }): string {
    if (typeof entity?.partitionKey !== "string" || typeof entity.rowKey !== "string") {
      throw new TableKitError("InvalidInput", "An entity needs a string partitionKey and rowKey");
    }
    const hashInput = this.options.hashInput ? this.options.hashInput(entity) : entity.rowKey;
    return this.codec.encode(entity.partitionKey, hashInput);
  }

  /** The logical partition and the bucket of a stored PartitionKey. */
  split(storedPartitionKey: string): { partitionKey: string; bucket: number } {
    const { bucket, key } = this.codec.split(storedPartitionKey);
    return { partitionKey: key, bucket };
  }

  /** Inserts one entity into its bucket (one round trip; retried while the store is busy). */
  async create(entity: LogicalEntity, options: OperationOptions = {}): Promise<WriteResponse> {
    const stored = this.stored(entity);
    return this.whileBusy(() => this.table.createEntity(stored, options), options);
  }

  /** Inserts or merges/replaces one entity in its bucket. */
  async upsert(
    entity: LogicalEntity,
    mode: UpdateMode = "Merge",
    options: OperationOptions = {},
  ): Promise<WriteResponse> {
    const stored = this.stored(entity);
    return this.whileBusy(() => this.table.upsertEntity(stored, mode, options), options);
  }

  /**
   * Reads one entity with one point read, when the hash input is the RowKey (the default);
   * otherwise pass the entity's `hashInput`. ResourceNotFound when absent.
   */
  async get(
    partitionKey: string,
    rowKey: string,
    options: OperationOptions & { hashInput?: string } = {},
  ): Promise<TableEntityResult> {
    const stored =
      options.hashInput === undefined
        ? this.partitionKeyOf({ partitionKey, rowKey })
        : this.codec.encode(partitionKey, options.hashInput);
    return this.whileBusy(() => this.table.getEntity(stored, rowKey, options), options);
  }

  /**
   * Writes many entities, fanned out: grouped by bucket, each group in entity group transactions
   * (at most the backend's transaction limits each), at most `concurrency` in flight. Each
   * transaction is atomic; the whole call is not. A failure names its partition (`details.partitionKey`).
   */
  async writeMany(entities: readonly LogicalEntity[], options: WriteManyOptions = {}): Promise<FanOutResult> {
    const mode = options.mode ?? "create";
    if (mode !== "create" && mode !== "upsert") {
      throw new TableKitError("InvalidInput", `mode must be "create" or "upsert"`);
    }
    if (!Array.isArray(entities)) throw new TableKitError("InvalidInput", "entities must be an array");
    return writeFannedOut(
      this.table,
      this.store.capabilities.limits,
      entities.map((e) => this.stored(e)),
      {
        mode,
        concurrency: checkConcurrency(options.concurrency ?? 8),
        policy: this.policy,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      },
    );
  }

  /**
   * Every entity of a logical partition (or a range of them), read from every bucket in parallel
   * and merged by (logical PartitionKey, RowKey), as one ordered scan of an unbucketed table would
   * return them; `order: "arrival"` streams pages as they come. `filter` applies in every bucket.
   * `byPage` tokens resume every bucket.
   */
  query(
    partitions: PartitionSelector,
    options: BucketQueryOptions & { readonly filter?: string } = {},
  ): Query<PartEntity> {
    return deferQuery(() => {
      const parts = this.codec.prefixes().map((prefix) => ({
        name: prefix,
        table: this.table,
        filter: andFilters(bucketFilter(prefix, partitions), options.filter),
      }));
      const { filter: _filter, ...rest } = options;
      return mergeParts(this.store, parts, { ...rest, compare: this.logicalOrder }, (e) => e);
    });
  }

  /** (logical PartitionKey, RowKey), then the bucket: each bucket's results already follow it. */
  private readonly logicalOrder = (a: PartEntity, b: PartEntity): number => {
    const width = this.codec.width + 1;
    return (
      this.compareKeys(a.partitionKey.slice(width), b.partitionKey.slice(width)) ||
      this.compareKeys(a.rowKey, b.rowKey) ||
      this.compareKeys(a.partitionKey, b.partitionKey)
    );
  };

  private stored(entity: LogicalEntity): LogicalEntity {
    return { ...entity, partitionKey: this.partitionKeyOf(entity) };
  }

  private whileBusy<T>(work: () => Promise<T>, options: OperationOptions): Promise<T> {
    return retryWhileBusy(work, this.policy, options.abortSignal);
  }
}

/** The filter of one bucket: one logical partition, or a range of them. */
function bucketFilter(prefix: string, partitions: PartitionSelector): string {
  if (typeof partitions === "string") return odata`PartitionKey eq ${prefix + partitions}`;
  if (typeof partitions !== "object" || partitions === null) {
    throw new TableKitError("InvalidInput", "partitions must be a partition key or { from?, to? }");
  }
  const lower = odata`PartitionKey ge ${prefix + (partitions.from ?? "")}`;
  const upper = partitions.to === undefined ? prefixSuccessor(prefix)! : prefix + partitions.to;
  return `${lower} and ${odata`PartitionKey lt ${upper}`}`;
}
