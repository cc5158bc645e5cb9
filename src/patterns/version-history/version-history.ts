import { rangeFilter, type VersionKeyCodec, versionKey } from "../../keys/index.js";
import { isTableKitError, type TableEntityResult, TableKitError } from "../../model/index.js";
import type { OperationOptions, Store, Table, TransactionAction } from "../../store/index.js";
import { timestampOfEtag } from "../entity-models/model-records.js";
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
import { deferQuery, entityQuery, type Query, type QueryOptions } from "../shared/support/query.js";
import {
  backoffDelay,
  type RetryOptions,
  retriesExhausted,
  retryPolicy,
  sleep,
} from "../shared/support/retry.js";

/** The property every copy stores its version number in. */
const VERSION_PROPERTY = "Version";

export interface VersionedDefinition<
  F extends Fields,
  PKN extends readonly string[],
  IN extends readonly string[],
> {
  readonly table: string;
  readonly fields: F;
  /** The partition of an item (seed 004: `Equipment_1`). */
  readonly partitionKey: (k: KeyBuilder<F>) => KeySpec<F, PKN>;
  /**
   * What follows the version prefix in the RowKey (seed 004: `v0_Audit`): a literal, or fields
   * such as a part id when one partition versions several items. Default: nothing (`v0_`).
   */
  readonly item?: (k: KeyBuilder<F>) => KeySpec<F, IN>;
  /** Digits of a history version (default 6: up to version 999999). */
  readonly digits?: number;
}

/** One version of an item as reads return it. */
export type VersionRecord<F extends Fields> = Simplify<
  InferRecord<F> & RecordMeta & { readonly version: number }
>;

/** Options of `write`. */
export interface VersionWriteOptions extends RetryOptions {
  /**
   * Write only if the latest version is this one (0: the item has no version yet); a writer that
   * lost the race gets UpdateConditionNotSatisfied or EntityAlreadyExists instead of a retry.
   */
  readonly expectedVersion?: number;
}

/** A declared versioned entity; `on(store)` gives its repository. */
export class VersionedEntity<F extends Fields, PKN extends readonly string[], IN extends readonly string[]> {
  readonly codec: VersionKeyCodec;
  readonly partitionKey: KeySpec<F, PKN>;
  readonly item: KeySpec<F, IN> | undefined;

  constructor(readonly definition: VersionedDefinition<F, PKN, IN>) {
    checkFields(definition.fields, [VERSION_PROPERTY]);
    this.codec = versionKey(definition.digits === undefined ? {} : { digits: definition.digits });
    const k = new KeyBuilder(definition.fields);
    this.partitionKey = definition.partitionKey(k);
    this.item = definition.item?.(k);
  }

  on(target: Store | Table): VersionedRepository<F, PKN, IN> {
    const table = "listEntities" in target ? target : target.table(this.definition.table);
    return new VersionedRepository(this, table);
  }

  /** The keys of an item's version `version` (0: the latest copy). */
  keysOf(
    values: Readonly<Record<string, unknown>>,
    version: number,
  ): { partitionKey: string; rowKey: string } {
    return {
      partitionKey: this.partitionKey.encode(values),
      rowKey: this.codec.encode({ version, item: this.item?.encode(values) ?? "" }),
    };
  }
}

/**
 * Version history with a `v0_` latest copy (seed 004). Each write stores version N under
 * `v<N>_<item>` and replaces the `v0_<item>` copy in one entity group transaction: the insert of
 * version N fails for every writer but one, and the `v0_` update is conditional on the ETag read,
 * so two writers can never both create version N, and no version is ever lost or overwritten.
 */
export class VersionedRepository<
  F extends Fields,
  PKN extends readonly string[],
  IN extends readonly string[],
> {
  constructor(
    readonly versioned: VersionedEntity<F, PKN, IN>,
    readonly table: Table,
  ) {}

  /** Creates the table if it does not exist yet (as `Table.createTable` does). */
  ensureTable(options?: OperationOptions): Promise<void> {
    return this.table.createTable(options);
  }

  /**
   * Stores `entry` as the item's next version. Two round trips (read `v0_`, one transaction); a
   * lost race is retried on the new latest version unless `expectedVersion` pins it.
   */
  async write(entry: InferInput<F>, options: VersionWriteOptions = {}): Promise<VersionRecord<F>> {
    const properties = toProperties(this.versioned.definition.fields, entry);
    const values = entry as Record<string, unknown>;
    const latestKeys = this.versioned.keysOf(values, 0);
    const policy = retryPolicy(options);
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    for (let attempt = 1; ; attempt++) {
      const latest = await this.read(latestKeys, call);
      const current = latest ? versionOf(latest) : 0;
      if (options.expectedVersion !== undefined && options.expectedVersion !== current) {
        throw new TableKitError(
          "UpdateConditionNotSatisfied",
          `The latest version is ${current}, not ${options.expectedVersion}`,
          {
            details: { latest: current, expected: options.expectedVersion },
          },
        );
      }
      const version = current + 1;
      const body = { ...properties, [VERSION_PROPERTY]: version };
      const copy = { ...latestKeys, ...body };
      const actions: TransactionAction[] = [
        ["create", { ...this.versioned.keysOf(values, version), ...body }],
        latest ? ["update", copy, "Replace", { etag: latest.etag }] : ["create", copy],
      ];
      try {
        const response = await this.table.submitTransaction(actions, call);
        const etag = response.subResponses[0]!.etag!;
        return {
          ...valuesOfProperties(properties),
          version,
          etag,
          timestamp: timestampOfEtag(etag),
        } as VersionRecord<F>;
      } catch (err) {
        if (!isTableKitError(err, "EntityAlreadyExists", "UpdateConditionNotSatisfied", "ResourceNotFound"))
          throw err;
        if (options.expectedVersion !== undefined) throw err;
        if (attempt >= policy.maxAttempts)
          throw retriesExhausted(`Versioning ${latestKeys.partitionKey}`, attempt, err);
        await sleep(backoffDelay(policy, attempt), options.abortSignal);
      }
    }
  }

  /** The latest version (the `v0_` copy), or undefined when the item has none. One round trip. */
  async latest(
    key: KeyValues<F, [...PKN, ...IN]>,
    options?: OperationOptions,
  ): Promise<VersionRecord<F> | undefined> {
    const entity = await this.read(this.versioned.keysOf(key, 0), options);
    return entity && this.decode(entity);
  }

  /** Version `version` (1, 2, …), or undefined. One round trip. */
  async version(
    key: KeyValues<F, [...PKN, ...IN]>,
    version: number,
    options?: OperationOptions,
  ): Promise<VersionRecord<F> | undefined> {
    if (!Number.isInteger(version) || version < 1)
      throw new TableKitError("InvalidInput", `version must be 1 or more, got ${version}`);
    const entity = await this.read(this.versioned.keysOf(key, version), options);
    return entity && this.decode(entity);
  }

  /**
   * Every version of the item, oldest first, without the `v0_` copy: one range query over the
   * partition's history (when a partition versions several items, theirs are read and skipped).
   */
  history(key: KeyValues<F, [...PKN, ...IN]>, options: QueryOptions = {}): Query<VersionRecord<F>> {
    return deferQuery(() => {
      const { partitionKey } = this.versioned.keysOf(key, 0);
      const item = this.versioned.item?.encode(key) ?? "";
      const filter = rangeFilter("RowKey", this.versioned.codec.historyRanges(), { partitionKey });
      // Key order is version order: `v0_` sits between the two ranges (after v099999_, before v100000_).
      return entityQuery(
        this.table,
        filter,
        (e) => (this.versioned.codec.decode(e.rowKey!).item === item ? this.decode(e) : undefined),
        options,
      );
    });
  }

  private async read(
    keys: { partitionKey: string; rowKey: string },
    options?: OperationOptions,
  ): Promise<TableEntityResult | undefined> {
    try {
      return await this.table.getEntity(keys.partitionKey, keys.rowKey, options);
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return undefined;
      throw err;
    }
  }

  private decode(entity: TableEntityResult): VersionRecord<F> {
    return {
      ...fromEntity(this.versioned.definition.fields, entity),
      version: versionOf(entity),
      etag: entity.etag,
      timestamp: entity.timestamp,
    } as VersionRecord<F>;
  }
}

function versionOf(entity: TableEntityResult): number {
  const v = entity[VERSION_PROPERTY];
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw new TableKitError(
      "InvalidValueType",
      `The entity ${entity.rowKey} has no valid ${VERSION_PROPERTY}`,
    );
  }
  return v;
}

/** Declares an entity whose every write is kept as a version (seed 004). */
export function defineVersioned<
  const F extends Fields,
  const PKN extends readonly string[],
  const IN extends readonly string[] = [],
>(definition: VersionedDefinition<F, PKN, IN>): VersionedEntity<F, PKN, IN> {
  return new VersionedEntity(definition);
}
