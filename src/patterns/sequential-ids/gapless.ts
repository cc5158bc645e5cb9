import { isTableKitError, type TableEntity, TableKitError } from "../../model/index.js";
import type { OperationOptions, Table, TransactionAction } from "../../store/index.js";
import {
  backoffDelay,
  type RetryOptions,
  type RetryPolicy,
  retriesExhausted,
  retryPolicy,
  sleep,
} from "../shared/support/retry.js";
import { type CounterStats, counterValue, readCounter } from "./counter.js";

export interface GaplessOptions extends RetryOptions {
  /** The RowKey of the counter entity kept in each partition (e.g. `"~seq"`, apart from the rows it numbers). */
  readonly counterRowKey: string;
  /** The property holding the last id (default "Value"). */
  readonly property?: string;
  readonly valueType?: "Int32" | "Int64";
}

/** What a gapless insert wrote. */
export interface GaplessInsert {
  readonly id: number;
  /** The new entity's ETag. */
  readonly etag: string;
  readonly attempts: number;
}

/**
 * Gapless sequences inside one partition: the counter's conditional update and the new entity's
 * insert go in one entity group transaction, so an id is consumed exactly when its entity is
 * written — no gaps, no duplicates — however many writers race. The counter lives in the same
 * partition as the entities it numbers (one counter per partition).
 *
 * Cost: two round trips per insert (read the counter; the transaction), plus two per retry.
 */
export class GaplessSequence {
  readonly stats: CounterStats = { writes: 0, conflicts: 0 };
  private readonly policy: RetryPolicy;
  private readonly property: string;
  private readonly valueType: "Int32" | "Int64";

  constructor(
    readonly table: Table,
    readonly options: GaplessOptions,
  ) {
    if (typeof options?.counterRowKey !== "string" || options.counterRowKey === "") {
      throw new TableKitError("InvalidInput", "A gapless sequence needs a counterRowKey");
    }
    this.policy = retryPolicy(options);
    this.property = options.property ?? "Value";
    this.valueType = options.valueType ?? "Int64";
  }

  /** The last id used in a partition (0 before the first). */
  async current(partitionKey: string, options: OperationOptions = {}): Promise<number> {
    return (await readCounter(this.table, this.keys(partitionKey), options)).value;
  }

  /**
   * Inserts the entity `build(id)` under the partition's next id. `build` may run more than once
   * (once per attempt) and must put the entity in `partitionKey`.
   */
  async insert(
    partitionKey: string,
    build: (id: number) => TableEntity<Record<string, unknown>>,
    options: OperationOptions = {},
  ): Promise<GaplessInsert> {
    const keys = this.keys(partitionKey);
    for (let attempt = 1; ; attempt++) {
      const read = await readCounter(this.table, keys, options);
      const id = read.value + 1;
      const entity = build(id);
      if (entity?.partitionKey !== partitionKey) {
        throw new TableKitError("InvalidInput", "A gapless insert must stay in the counter's partition", {
          details: { partitionKey, got: entity?.partitionKey },
        });
      }
      const counter = {
        partitionKey,
        rowKey: keys.rowKey,
        [this.property]: counterValue(id, this.valueType),
      };
      const actions: TransactionAction[] = [
        read.etag === undefined ? ["create", counter] : ["update", counter, "Merge", { etag: read.etag }],
        ["create", entity],
      ];
      try {
        const response = await this.table.submitTransaction(actions, options);
        this.stats.writes++;
        return { id, etag: response.subResponses[1]!.etag!, attempts: attempt };
      } catch (err) {
        if (!isTableKitError(err, "UpdateConditionNotSatisfied", "EntityAlreadyExists", "ResourceNotFound"))
          throw err;
        // The row itself exists while the counter did not move: a row written without the counter.
        if (err.index === 1 && (await readCounter(this.table, keys, options)).etag === read.etag) throw err;
        this.stats.conflicts++;
        if (attempt >= this.policy.maxAttempts)
          throw retriesExhausted(`Gapless sequence ${partitionKey}`, attempt, err);
        await sleep(backoffDelay(this.policy, attempt), options.abortSignal);
      }
    }
  }

  private keys(partitionKey: string) {
    return { partitionKey, rowKey: this.options.counterRowKey, property: this.property };
  }
}
