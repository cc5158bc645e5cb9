import { isTableKitError, type TableEntityResult, TableKitError } from "../../model/index.js";
import type { OperationOptions, Table, TransactionAction } from "../../store/index.js";
import { EVIDENCE_PROPERTY, entityLife, keptEvidence, parseEvidence } from "../shared/evidence/evidence.js";
import { recordDeletedMarks } from "../shared/evidence/evidence-upkeep.js";
import type { Fields } from "../shared/schema/field.js";
import type { KeyValues } from "../shared/schema/key-spec.js";
import { checkPartial, toProperties } from "../shared/schema/schema.js";
import type { Query, QueryOptions } from "../shared/support/query.js";
import { backoffDelay, retriesExhausted, retryPolicy, sleep } from "../shared/support/retry.js";
import type { Companion } from "./companion.js";
import type { CompiledModel } from "./define-model.js";
import { copyKeys, indexActions, mainEntity, readCopyEtags } from "./index-writes.js";
import { KeyReaderImpl } from "./key-reader.js";
import { recordFromEntity, recordFromWrite } from "./model-records.js";
import type {
  IndexDefinition,
  IndexLookupNames,
  IndexRecord,
  KeyReader,
  ListOptions,
  ModelChanges,
  ModelInput,
  ModelRecord,
  Where,
  WriteOptions,
} from "./types.js";

type Values = Record<string, unknown>;

/** Read-modify-write attempts when a write without an ETag loses a race (then ConcurrencyRetriesExhausted). */
const WRITE_ATTEMPTS = 10;

/** The typed index readers of a repository, one per declared index. */
export type IndexReaders<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I,
  T extends string,
> = {
  readonly [K in keyof I]: KeyReader<F, PKN, IndexLookupNames<I[K], RKN>, IndexRecord<F, PKN, RKN, I[K], T>>;
};

/**
 * A model's entities in one table: typed writes that validate before sending, reads that return
 * typed records, prefix queries, and index copies kept in step by entity group transactions.
 */
export class Repository<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
> implements KeyReader<F, PKN, RKN, ModelRecord<F, T>>
{
  /** Look-ups and range queries by each index key. */
  readonly indexes: IndexReaders<F, PKN, RKN, I, T>;
  private readonly main: KeyReaderImpl;

  constructor(
    /** The model, resolved: its keys, fields and indexes. */
    readonly model: CompiledModel,
    /** The table this repository reads and writes. */
    readonly table: Table,
    /** @internal Entities of the partition written in each write's transaction (index entities, copies). */
    private readonly companions: readonly Companion[] = [],
  ) {
    this.main = new KeyReaderImpl(model, table, model.rowKey);
    this.indexes = Object.fromEntries(
      model.indexes.map((ix) => [ix.name, new KeyReaderImpl(model, table, ix.key, ix.holds)]),
    ) as unknown as IndexReaders<F, PKN, RKN, I, T>;
  }

  /** Creates the table if it does not exist yet (as `Table.createTable` does). */
  ensureTable(options?: OperationOptions): Promise<void> {
    return this.table.createTable(options);
  }

  /**
   * Inserts a new entity and its index copies, all or nothing (one round trip). EntityAlreadyExists
   * when the key is taken — or, with `details.index`, when a unique index key is.
   */
  async create(input: ModelInput<F>, options?: OperationOptions): Promise<ModelRecord<F, T>> {
    const properties = toProperties(this.model.fields, input);
    const values = input as Values;
    const entity = { ...mainEntity(this.model, values, properties), ...keptEvidence(undefined) };
    if (this.companions.length > 0) return this.createWithCompanions(values, options);
    if (this.model.indexes.length === 0) {
      const { etag, timestamp } = await this.table.createEntity(entity, options);
      return recordFromWrite(this.model, properties, etag, timestamp) as ModelRecord<F, T>;
    }
    const actions: TransactionAction[] = [
      ["create", entity],
      ...indexActions(this.model, undefined, { values, properties }, new Map()),
    ];
    const response = await this.submit(actions, options);
    return recordFromWrite(this.model, properties, response.subResponses[0]!.etag!) as ModelRecord<F, T>;
  }

  get(key: KeyValues<F, [...PKN, ...RKN]>, options?: OperationOptions): Promise<ModelRecord<F, T>> {
    return this.main.get(key, options) as Promise<ModelRecord<F, T>>;
  }

  find(
    key: KeyValues<F, [...PKN, ...RKN]>,
    options?: OperationOptions,
  ): Promise<ModelRecord<F, T> | undefined> {
    return this.main.find(key, options) as Promise<ModelRecord<F, T> | undefined>;
  }

  list(where: Where<F, PKN, RKN>, options?: ListOptions): Query<ModelRecord<F, T>> {
    return this.main.list(where, options) as Query<ModelRecord<F, T>>;
  }

  between(
    from: Where<F, PKN, RKN>,
    to: Where<F, PKN, RKN>,
    options?: QueryOptions,
  ): Query<ModelRecord<F, T>> {
    return this.main.between(from, to, options) as Query<ModelRecord<F, T>>;
  }

  /**
   * Replaces an existing entity (found by its key fields) with `input`, moving index copies whose
   * key changed: read the entity (its evidence is kept: docs/patterns/entity-models.md), then a
   * replace conditional on the version read — two round trips, three with indexes (their copies
   * are read too, and written in the same transaction).
   */
  async update(input: ModelInput<F>, options: WriteOptions = {}): Promise<ModelRecord<F, T>> {
    const properties = toProperties(this.model.fields, input);
    const values = input as Values;
    return this.readModifyWrite(values, options, () => ({ values, properties }));
  }

  /**
   * Changes some fields of an existing entity (`null` removes an optional one): read, merge,
   * conditional replace — two round trips, three with indexes — retried on fresh data if another
   * writer got there first, unless `etag` pins the version the change applies to.
   */
  async patch(
    key: KeyValues<F, [...PKN, ...RKN]>,
    changes: ModelChanges<F>,
    options: WriteOptions = {},
  ): Promise<ModelRecord<F, T>> {
    const checked = checkPartial(this.model.fields, changes);
    return this.readModifyWrite(key as Values, options, (current) => {
      const merged: Values = { ...current, ...checked };
      for (const [name, value] of Object.entries(checked)) if (value === null) delete merged[name];
      return { values: merged, properties: toProperties(this.model.fields, merged) };
    });
  }

  /**
   * Deletes an entity and its index copies: read it, then a delete conditional on the version read
   * (two round trips, three with indexes). When it carries marks of unfinished transactions, their
   * journals first record that the steps ran. ResourceNotFound if it does not exist.
   */
  async delete(key: KeyValues<F, [...PKN, ...RKN]>, options: WriteOptions = {}): Promise<void> {
    await this.readModifyWrite(key as Values, options, () => undefined);
  }

  /**
   * Reads the entity, computes its next state (undefined: delete), and writes the entity and every
   * index copy in one transaction conditional on the ETags read. A lost race is retried on fresh
   * data unless the caller pinned an ETag.
   */
  private async readModifyWrite(
    key: Values,
    options: WriteOptions,
    next: (current: Values) => { values: Values; properties: ReturnType<typeof toProperties> } | undefined,
  ): Promise<ModelRecord<F, T>> {
    const policy = retryPolicy({ abortSignal: options.abortSignal }, WRITE_ATTEMPTS);
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    const partitionKey = this.model.partitionKey.encode(key);
    const rowKey = this.model.rowKey.encode(key);
    for (let attempt = 1; ; attempt++) {
      const current = await this.readCurrent(partitionKey, rowKey, call);
      if (options.etag !== undefined && options.etag !== "*" && current.etag !== options.etag) {
        throw new TableKitError(
          "UpdateConditionNotSatisfied",
          "The entity changed since the ETag given was read",
          {
            details: { partitionKey, rowKey },
          },
        );
      }
      let after = next(current.values);
      if (
        after &&
        (this.model.partitionKey.encode(after.values) !== partitionKey ||
          this.model.rowKey.encode(after.values) !== rowKey)
      ) {
        throw new TableKitError(
          "InvalidInput",
          "A write cannot change the key fields of an entity; create a new one",
          {
            details: { partitionKey, rowKey },
          },
        );
      }
      const companion = await this.prepareCompanions(partitionKey, rowKey, current.values, after, call);
      if (companion.after) after = companion.after;
      const withIndexes = this.model.indexes.length > 0;
      const copyEtags = withIndexes
        ? await readCopyEtags(
            this.table,
            partitionKey,
            [...copyKeys(this.model, current.values), ...(after ? copyKeys(this.model, after.values) : [])],
            call,
          )
        : new Map<string, string>();
      const own: TransactionAction = after
        ? [
            "update",
            { ...mainEntity(this.model, after.values, after.properties), ...keptEvidence(current.entity) },
            "Replace",
            { etag: current.etag },
          ]
        : ["delete", { partitionKey, rowKey }, { etag: current.etag }];
      if (!after) await this.leaveEvidence(current.entity, call);
      const actions = [own, ...indexActions(this.model, current.values, after, copyEtags)];
      const companionFrom = actions.length;
      actions.push(...companion.actions);
      let response: Awaited<ReturnType<Repository<F, PKN, RKN, I, T>["submit"]>>;
      try {
        response = await this.submit(actions, call);
      } catch (err) {
        await abandonAll(companion.abandons);
        if (!isTableKitError(err, "UpdateConditionNotSatisfied", "EntityAlreadyExists", "ResourceNotFound"))
          throw err;
        // A unique-index clash is not a race: it stays after a re-read shows the entity unchanged.
        // A companion's entity changed since it was read: not this entity's race, always retried.
        const companionRace = err.index !== undefined && err.index >= companionFrom;
        const changed = companionRace || (await this.readEtag(partitionKey, rowKey, call)) !== current.etag;
        if (!changed || (options.etag !== undefined && !companionRace)) throw err;
        if (attempt >= policy.maxAttempts)
          throw retriesExhausted(`Writing ${partitionKey}/${rowKey}`, attempt, err);
        await sleep(backoffDelay(policy, attempt), options.abortSignal);
        continue;
      }
      // Committed: the follow-ups run now (a failure of theirs is not the write's to retry).
      for (const settle of companion.settles) await settle();
      return (
        after ? recordFromWrite(this.model, after.properties, response.subResponses[0]!.etag!) : undefined
      ) as ModelRecord<F, T>;
    }
  }

  /** Runs every companion's `prepare`; each sees the values the one before it settled on. */
  private async prepareCompanions(
    partitionKey: string,
    rowKey: string,
    before: Values | undefined,
    after: { values: Values; properties: ReturnType<typeof toProperties> } | undefined,
    call: OperationOptions,
  ): Promise<{
    actions: TransactionAction[];
    settles: (() => Promise<void>)[];
    abandons: (() => Promise<void>)[];
    after?: { values: Values; properties: ReturnType<typeof toProperties> };
  }> {
    const actions: TransactionAction[] = [];
    const settles: (() => Promise<void>)[] = [];
    const abandons: (() => Promise<void>)[] = [];
    let values = after?.values;
    let amended = false;
    for (const c of this.companions) {
      const plan = await c.prepare({
        table: this.table,
        partitionKey,
        rowKey,
        ...(before ? { before } : {}),
        ...(values ? { after: values } : {}),
        call,
      });
      actions.push(...plan.actions);
      if (plan.settle) settles.push(plan.settle);
      if (plan.abandon) abandons.push(plan.abandon);
      if (plan.after && values) {
        values = { ...plan.after };
        amended = true;
      }
    }
    if (!amended || !values) return { actions, settles, abandons };
    return {
      actions,
      settles,
      abandons,
      after: { values, properties: toProperties(this.model.fields, values) },
    };
  }

  /** A create whose transaction carries companions' actions: retried when one of theirs lost a race. */
  private async createWithCompanions(
    values: Values,
    options: OperationOptions = {},
  ): Promise<ModelRecord<F, T>> {
    const policy = retryPolicy({ abortSignal: options.abortSignal }, WRITE_ATTEMPTS);
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    const partitionKey = this.model.partitionKey.encode(values);
    const rowKey = this.model.rowKey.encode(values);
    for (let attempt = 1; ; attempt++) {
      const first = { values, properties: toProperties(this.model.fields, values) };
      const companion = await this.prepareCompanions(partitionKey, rowKey, undefined, first, call);
      const after = companion.after ?? first;
      const actions: TransactionAction[] = [
        ["create", { ...mainEntity(this.model, after.values, after.properties), ...keptEvidence(undefined) }],
        ...indexActions(this.model, undefined, after, new Map()),
      ];
      const companionFrom = actions.length;
      actions.push(...companion.actions);
      let response: Awaited<ReturnType<Repository<F, PKN, RKN, I, T>["submit"]>>;
      try {
        response = await this.submit(actions, call);
      } catch (err) {
        await abandonAll(companion.abandons);
        const companionRace =
          isTableKitError(err, "UpdateConditionNotSatisfied", "EntityAlreadyExists", "ResourceNotFound") &&
          err.index !== undefined &&
          err.index >= companionFrom;
        if (!companionRace) throw err;
        if (attempt >= policy.maxAttempts)
          throw retriesExhausted(`Creating ${partitionKey}/${rowKey}`, attempt, err);
        await sleep(backoffDelay(policy, attempt), options.abortSignal);
        continue;
      }
      for (const settle of companion.settles) await settle();
      return recordFromWrite(this.model, after.properties, response.subResponses[0]!.etag!) as ModelRecord<
        F,
        T
      >;
    }
  }

  private async readCurrent(
    partitionKey: string,
    rowKey: string,
    options: OperationOptions,
  ): Promise<{ values: Values; etag: string; entity: TableEntityResult }> {
    const entity: TableEntityResult = await this.table.getEntity(partitionKey, rowKey, options);
    const values = recordFromEntity(this.model, entity);
    return { values, etag: entity.etag, entity };
  }

  /**
   * Before a delete: the journals of unfinished transactions whose marks the entity carries record
   * that their steps ran, since the marks leave with it (docs/patterns/eventually-consistent-transactions.md#evidence).
   */
  private async leaveEvidence(entity: TableEntityResult, call: OperationOptions): Promise<void> {
    const evidence = parseEvidence(entity[EVIDENCE_PROPERTY]);
    if (!evidence || evidence.marks.length === 0) return;
    await recordDeletedMarks(
      (name) => this.table.sibling(name),
      evidence,
      entityLife(evidence, entity.etag),
      call,
    );
  }

  private async readEtag(
    partitionKey: string,
    rowKey: string,
    options: OperationOptions,
  ): Promise<string | undefined> {
    try {
      return (
        await this.table.getEntity(partitionKey, rowKey, { ...options, queryOptions: { select: ["RowKey"] } })
      ).etag;
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return undefined;
      throw err;
    }
  }

  /** Submits a transaction; a clash on an index copy's create is reported with the index's name. */
  private async submit(actions: TransactionAction[], options?: OperationOptions) {
    try {
      return await this.table.submitTransaction(actions, options);
    } catch (err) {
      if (isTableKitError(err, "EntityAlreadyExists") && err.index !== undefined && err.index > 0) {
        const action = actions[err.index]!;
        const index = this.model.indexes.find((ix) => action[1].rowKey.startsWith(ix.key.prefix));
        if (!index) throw err; // a companion's entity, not an index copy
        throw new TableKitError(
          "EntityAlreadyExists",
          `Another entity of the partition already has the key ${JSON.stringify(action[1].rowKey)} of index '${index?.name}'`,
          { cause: err, index: err.index, details: { index: index?.name, rowKey: action[1].rowKey } },
        );
      }
      throw err;
    }
  }
}

/** Undoes what companions sent ahead of a transaction that failed (best effort: what it undoes is idempotent anyway). */
async function abandonAll(abandons: readonly (() => Promise<void>)[]): Promise<void> {
  await Promise.all(abandons.map((a) => a().catch(() => {})));
}
