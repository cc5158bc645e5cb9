import { isTableKitError, ownValue, TableKitError } from "../../model/index.js";
import type { OperationOptions, Table } from "../../store/index.js";
import {
  backoffDelay,
  type RetryOptions,
  type RetryPolicy,
  retriesExhausted,
  retryPolicy,
  sleep,
} from "../shared/support/retry.js";

/** Where a counter lives and how it retries. */
export interface CounterOptions extends RetryOptions {
  /** The counter entity's PartitionKey (the article's application, `"App1"`). */
  readonly partitionKey: string;
  /** The counter entity's RowKey: what it numbers (the article's table name, `"sorteditem"`). */
  readonly rowKey: string;
  /** The property holding the last id handed out (default "Value", as in the article). */
  readonly property?: string;
  /** How the value is stored: Int64 (default) or Int32 like the article's `int Value`. */
  readonly valueType?: "Int32" | "Int64";
}

/** Ids reserved by one conditional write: `first` through `last`, inclusive. */
export interface Reservation {
  readonly first: number;
  readonly last: number;
  /** Attempts it took (1 when no other writer interfered). */
  readonly attempts: number;
}

/** What a counter has done so far (for benchmarks and monitoring). */
export interface CounterStats {
  /** Successful conditional writes. */
  writes: number;
  /** Writes refused because another writer got there first (412 or 409), each followed by a retry. */
  conflicts: number;
}

const INT32_MAX = 2147483647;

/** The value and ETag of the counter as read; an absent counter reads as 0 with no ETag. */
export interface CounterState {
  readonly value: number;
  readonly etag: string | undefined;
}

/** Reads a counter entity's value (0 when it does not exist) and the ETag it was read with. */
export async function readCounter(
  table: Table,
  keys: { partitionKey: string; rowKey: string; property: string },
  options: OperationOptions,
): Promise<CounterState> {
  try {
    const e = await table.getEntity(keys.partitionKey, keys.rowKey, {
      ...options,
      queryOptions: { select: [keys.property] },
    });
    const raw = ownValue(e as Record<string, unknown>, keys.property);
    const value = typeof raw === "bigint" ? Number(raw) : raw;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      throw new TableKitError(
        "InvalidValueType",
        `The counter's ${keys.property} is not a non-negative integer`,
        {
          details: { partitionKey: keys.partitionKey, rowKey: keys.rowKey },
        },
      );
    }
    return { value, etag: e.etag };
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound")) return { value: 0, etag: undefined };
    throw err;
  }
}

/** The stored form of a counter value, range-checked before anything is sent. */
export function counterValue(value: number, valueType: "Int32" | "Int64"): number | bigint {
  const max = valueType === "Int32" ? INT32_MAX : Number.MAX_SAFE_INTEGER;
  if (value > max) {
    throw new TableKitError("OutOfRangeInput", `The counter would pass ${max}, the largest ${valueType} id`, {
      details: { value, max },
    });
  }
  // A plain integer number is stored as Int32, a bigint as Int64.
  return valueType === "Int32" ? value : BigInt(value);
}

/**
 * A sequential counter under optimistic concurrency — the algorithm of seed 003, faithfully: read
 * the counter entity, add to it, write it back conditionally (insert when it is absent, which
 * fails with 409 if another writer inserted first; merge with If-Match on the ETag *of that read*
 * otherwise, which fails with 412 if anyone wrote since), and on 412/409 start over after an
 * exponential backoff with jitter, at most `maxAttempts` times, then ConcurrencyRetriesExhausted.
 *
 * Guarantees: no id is ever handed out twice (each reservation is the only write that moved the
 * counter from the value it read); ids of successive `next()` calls increase. Ids are lost only
 * when a write succeeded but its answer never arrived (a gap, never a duplicate). Cost: two round
 * trips per reservation, plus two per retry.
 */
export class SequenceCounter {
  readonly stats: CounterStats = { writes: 0, conflicts: 0 };
  private readonly keys: { partitionKey: string; rowKey: string; property: string };
  private readonly policy: RetryPolicy;
  private readonly valueType: "Int32" | "Int64";

  constructor(
    readonly table: Table,
    options: CounterOptions,
  ) {
    if (typeof options?.partitionKey !== "string" || typeof options.rowKey !== "string") {
      throw new TableKitError("InvalidInput", "A counter needs a partitionKey and a rowKey");
    }
    this.keys = {
      partitionKey: options.partitionKey,
      rowKey: options.rowKey,
      property: options.property ?? "Value",
    };
    this.policy = retryPolicy(options);
    this.valueType = options.valueType ?? "Int64";
    if (this.valueType !== "Int32" && this.valueType !== "Int64") {
      throw new TableKitError("InvalidInput", `valueType must be "Int32" or "Int64"`);
    }
  }

  /** The next id (the article's `getIdentity`): one reservation of one id. */
  async next(options?: OperationOptions): Promise<number> {
    return (await this.reserve(1, options)).first;
  }

  /** The last id handed out (0 before the first). One round trip. */
  async current(options: OperationOptions = {}): Promise<number> {
    return (await readCounter(this.table, this.keys, options)).value;
  }

  /** Reserves `count` consecutive ids with one conditional write (block allocation builds on this). */
  async reserve(count: number, options: OperationOptions = {}): Promise<Reservation> {
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new TableKitError("InvalidInput", `count must be a positive integer, got ${count}`);
    }
    const { partitionKey, rowKey, property } = this.keys;
    for (let attempt = 1; ; attempt++) {
      const read = await readCounter(this.table, this.keys, options);
      const last = read.value + count;
      const entity = { partitionKey, rowKey, [property]: counterValue(last, this.valueType) };
      try {
        if (read.etag === undefined) await this.table.createEntity(entity, options);
        // The ETag is the one this very read returned: a fresh one would let two writers win (SnowMaker v3).
        else await this.table.updateEntity(entity, "Merge", { ...options, etag: read.etag });
        this.stats.writes++;
        return { first: read.value + 1, last, attempts: attempt };
      } catch (err) {
        if (!isTableKitError(err, "UpdateConditionNotSatisfied", "EntityAlreadyExists", "ResourceNotFound"))
          throw err;
        this.stats.conflicts++;
        if (attempt >= this.policy.maxAttempts)
          throw retriesExhausted(`Counter ${partitionKey}/${rowKey}`, attempt, err);
        await sleep(backoffDelay(this.policy, attempt), options.abortSignal);
      }
    }
  }
}
