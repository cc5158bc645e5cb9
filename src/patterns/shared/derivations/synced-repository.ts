import { isTableKitError, TableKitError } from "../../../model/index.js";
import type { OperationOptions } from "../../../store/index.js";
import type { Repository } from "../../entity-models/repository.js";
import type {
  IndexDefinition,
  ListOptions,
  ModelChanges,
  ModelInput,
  ModelRecord,
  Where,
  WriteOptions,
} from "../../entity-models/types.js";
import type { TransactionStep } from "../../eventually-consistent-transactions/steps.js";
import type { TransactionQueue } from "../../eventually-consistent-transactions/transaction-queue.js";
import type { Fields } from "../schema/field.js";
import type { KeyValues } from "../schema/key-spec.js";
import type { Query, QueryOptions } from "../support/query.js";
import { backoffDelay, retriesExhausted, retryPolicy, sleep } from "../support/retry.js";
import type { Derivation, PrimaryChange } from "./derived.js";

type Values = Record<string, unknown>;

/** Attempts of a write that keeps losing races to other writers (then ConcurrencyRetriesExhausted). */
const WRITE_ATTEMPTS = 10;

export interface SyncedRepositoryOptions {
  /**
   * Seconds a write's transaction stays hidden before it is released (default 30): if the writer
   * dies between its write and the release, the transaction is delivered after this long.
   */
  readonly holdSeconds?: number;
}

/**
 * A model's repository whose writes also keep derived data in step — inter-partition indexes,
 * index entities kept apart, copies in other partitions — through a transaction queue. Each write
 * sends its transaction hidden first ("intent first"), writes the entity, then releases the
 * transaction: a writer that crashes after its write still has it delivered, after the hold.
 * Reads are the repository's own.
 */
export class SyncedRepository<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
> {
  constructor(
    readonly repository: Repository<F, PKN, RKN, I, T>,
    readonly transactions: TransactionQueue,
    private readonly derivations: readonly Derivation[],
    private readonly options: SyncedRepositoryOptions = {},
  ) {}

  get table() {
    return this.repository.table;
  }

  get indexes() {
    return this.repository.indexes;
  }

  create(input: ModelInput<F>, options?: OperationOptions): Promise<ModelRecord<F, T>> {
    return this.write(input as Values, undefined, input as Values, () =>
      this.repository.create(input, options),
    );
  }

  /** Replaces an existing entity (see Repository.update); its transaction names the values before and after exactly. */
  update(input: ModelInput<F>, options: WriteOptions = {}): Promise<ModelRecord<F, T>> {
    return this.change(
      input as Values,
      options,
      () => input as Values,
      (etag) => this.repository.update(input, { ...options, etag }),
    );
  }

  patch(
    key: KeyValues<F, [...PKN, ...RKN]>,
    changes: ModelChanges<F>,
    options: WriteOptions = {},
  ): Promise<ModelRecord<F, T>> {
    return this.change(
      key as Values,
      options,
      (before) => {
        const merged: Values = { ...before, ...changes };
        for (const [name, value] of Object.entries(changes)) if (value === null) delete merged[name];
        return merged;
      },
      (etag) => this.repository.patch(key, changes, { ...options, etag }),
    );
  }

  async delete(key: KeyValues<F, [...PKN, ...RKN]>, options: WriteOptions = {}): Promise<void> {
    await this.change(
      key as Values,
      options,
      () => undefined,
      (etag) => this.repository.delete(key, { ...options, etag }),
    );
  }

  get(key: KeyValues<F, [...PKN, ...RKN]>, options?: OperationOptions): Promise<ModelRecord<F, T>> {
    return this.repository.get(key, options);
  }

  find(
    key: KeyValues<F, [...PKN, ...RKN]>,
    options?: OperationOptions,
  ): Promise<ModelRecord<F, T> | undefined> {
    return this.repository.find(key, options);
  }

  list(where: Where<F, PKN, RKN>, options?: ListOptions): Query<ModelRecord<F, T>> {
    return this.repository.list(where, options);
  }

  between(
    from: Where<F, PKN, RKN>,
    to: Where<F, PKN, RKN>,
    options?: QueryOptions,
  ): Query<ModelRecord<F, T>> {
    return this.repository.between(from, to, options);
  }

  /**
   * A write of an existing entity, pinned to the version read: the transaction names exactly the
   * values the write replaces and those it writes (a handler must delete the entries of the state
   * it overwrote). When another writer got there first, the transaction is cancelled and the
   * write retried on fresh data (unless `etag` pins it: UpdateConditionNotSatisfied). A missing
   * entity sends nothing: the write itself fails (ResourceNotFound).
   */
  private async change<R>(
    key: Values,
    options: WriteOptions,
    next: (before: Values) => Values | undefined,
    work: (etag: string) => Promise<R>,
  ): Promise<R> {
    const policy = retryPolicy({ abortSignal: options.abortSignal }, WRITE_ATTEMPTS);
    for (let attempt = 1; ; attempt++) {
      const before = await this.repository.find(key as never, options);
      if (!before) return work("*");
      if (options.etag !== undefined && options.etag !== "*" && before.etag !== options.etag) {
        throw new TableKitError(
          "UpdateConditionNotSatisfied",
          "The entity changed since the ETag given was read",
        );
      }
      try {
        return await this.write(key, before, next(before), () => work(before.etag));
      } catch (err) {
        if (
          !isTableKitError(err, "UpdateConditionNotSatisfied", "ResourceNotFound") ||
          options.etag !== undefined
        )
          throw err;
        if (attempt >= policy.maxAttempts) throw retriesExhausted("A synced write", attempt, err);
        await sleep(backoffDelay(policy, attempt), options.abortSignal);
      }
    }
  }

  /**
   * One write with its transaction: `key` names the entity, `before` is what a read found
   * (undefined for a create), `after` what it becomes (undefined for a delete).
   */
  private async write<R>(
    key: Values,
    before: Values | undefined,
    next: Values | undefined,
    work: () => Promise<R>,
  ): Promise<R> {
    const model = this.repository.model;
    const change: PrimaryChange = {
      table: this.repository.table.tableName,
      partitionKey: model.partitionKey.encode(key),
      rowKey: model.rowKey.encode(key),
      ...(before ? { before } : {}),
      ...(next ? { after: next } : {}),
    };
    const steps = this.derivations
      .map((d) => d.stepFor(change))
      .filter((s): s is TransactionStep => s !== undefined);
    if (steps.length === 0) return work();
    const pending = await this.transactions.begin(steps, {
      ...(this.options.holdSeconds === undefined ? {} : { holdSeconds: this.options.holdSeconds }),
    });
    let result: R;
    try {
      result = await work();
    } catch (err) {
      await pending.cancel().catch(() => {});
      throw err;
    }
    await pending.release();
    return result;
  }
}
