import { TableKitError } from "../../model/index.js";
import type { OperationOptions, Store, Table } from "../../store/index.js";
import type { Model } from "../entity-models/define-model.js";
import { isOfType, recordFromEntity } from "../entity-models/model-records.js";
import type { IndexDefinition, ModelRecord } from "../entity-models/types.js";
import type { HandlerContext, StepHandler } from "../eventually-consistent-transactions/handler.js";
import { step, type TransactionStep } from "../eventually-consistent-transactions/steps.js";
import {
  type Derivation,
  findEntity,
  type PrimaryChange,
  syncUntilStable,
} from "../shared/derivations/derived.js";
import type { Fields } from "../shared/schema/field.js";
import { KeyBuilder, type KeySpec, type KeyValues } from "../shared/schema/key-spec.js";
import { checkPatternName } from "../shared/support/names.js";
import { retryLostRaces, retryPolicy } from "../shared/support/retry.js";
import { BlobIdLists, EntityIdLists, type IdLists, isListConflict, type ListKey } from "./id-lists.js";
import { readPrimaries, withMembership } from "./primaries.js";

type Values = Readonly<Record<string, unknown>>;

/** Index entities apart from the entities (seed 001, option 3): `[PartitionKey, RowKey]` of each list. */
export interface IndexEntitiesApart<F extends Fields, LK extends readonly string[]> {
  /** The table of the index entities (default: the model's, in partitions of their own). */
  readonly table?: string;
  /** Their PartitionKey (`k.literal("lastname")`, or by a field for spread). */
  readonly partitionKey: (k: KeyBuilder<F>) => KeySpec<F, readonly string[]>;
  /** Their RowKey: the indexed value (`k.field("lastName")`). */
  readonly rowKey: (k: KeyBuilder<F>) => KeySpec<F, LK>;
}

/** A blob per index value (seed 001, option 1): `<prefix><value>` in `container`. */
export interface IndexBlobs<F extends Fields, LK extends readonly string[]> {
  readonly container: string;
  /** Names start with this (default `<index name>/`). */
  readonly prefix?: string;
  /** The value a blob is named by (`k.field("lastName")`); the name percent-encodes it. */
  readonly value: (k: KeyBuilder<F>) => KeySpec<F, LK>;
}

/** Everything `defineIdListIndex` takes: a name, and index entities apart OR blobs. */
export type IdListIndexDefinition<F extends Fields, LK extends readonly string[]> = {
  readonly name: string;
} & (
  | { readonly entities: IndexEntitiesApart<F, LK>; readonly blobs?: never }
  | { readonly blobs: IndexBlobs<F, LK>; readonly entities?: never }
);

/** The arguments of a step: the primary that changed, and the lists it was or is on. */
interface ListStepArgs {
  readonly primary: string;
  readonly pk: string;
  readonly rk: string;
  /** The table of index entities (absent for blobs). */
  readonly index?: string;
  readonly lists: readonly ListKey[];
}

/** Attempts at one list's conditional write that keep losing races to other workers. */
const LIST_ATTEMPTS = 50;

/**
 * Id lists of an index value kept apart from the entities, eventually consistent through the
 * transaction queue (seed 001, options 1 and 3): one list per value — an index entity in another
 * partition or table, or a blob — naming every entity (`[PartitionKey, RowKey]`) that has the
 * value, across partitions. Its handler reads the primary and puts its id on exactly the list of
 * its current value, each list written conditionally on the version read; look-ups drop ids
 * whose primary no longer has the value.
 */
export class IdListIndex<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  LK extends readonly string[],
> {
  /** Phantom: the value's field names, for inference only. */
  declare readonly __keys?: LK;
  readonly name: string;
  readonly handler: StepHandler<never>;
  private readonly partitionKey: KeySpec<Fields, readonly string[]> | undefined;
  private readonly value: KeySpec<Fields, readonly string[]>;
  private readonly table: string | undefined;
  private readonly blobs: { readonly container: string; readonly prefix: string } | undefined;

  constructor(
    readonly model: Model<F, PKN, RKN, I, T>,
    definition: IdListIndexDefinition<F, LK>,
  ) {
    this.name = checkPatternName(definition?.name, "An id list index");
    const k = new KeyBuilder(model.compiled.fields) as never;
    const spec = (make: unknown, what: string) => {
      const s = typeof make === "function" ? (make(k) as KeySpec<Fields, readonly string[]>) : undefined;
      if (!s || typeof s.encode !== "function") throw invalid(`${what} must return a key built with k`);
      return s;
    };
    if (definition.entities && !definition.blobs) {
      this.partitionKey = spec(definition.entities.partitionKey, "partitionKey");
      this.value = spec(definition.entities.rowKey, "rowKey");
      this.table = definition.entities.table;
    } else if (definition.blobs && !definition.entities) {
      const { container, prefix } = definition.blobs;
      if (typeof container !== "string" || container === "") throw invalid("blobs need a container");
      this.value = spec(definition.blobs.value, "value");
      this.blobs = { container, prefix: prefix ?? `${this.name}/` };
    } else {
      throw invalid("An id list index takes either entities or blobs");
    }
    if (this.value.parts.length === 0) throw invalid("The index value names no field");
    this.handler = {
      kind: `idlist:${this.name}`,
      check: (args) => checkArgs(args),
      run: (ctx, args) => this.sync(ctx, args as unknown as ListStepArgs),
    };
  }

  /** Where the list of an entity with `values` is. */
  keyOf(values: Values): ListKey {
    const value = this.value.encode(values);
    if (this.blobs) return ["", `${this.blobs.prefix}${encodeURIComponent(value)}`];
    return [this.partitionKey!.encode(values), value];
  }

  /** The id a list holds for a primary: its keys as JSON (which escapes control characters, so no id holds a newline). */
  idOf(partitionKey: string, rowKey: string): string {
    return JSON.stringify([partitionKey, rowKey]);
  }

  /** The table of the index entities when the primaries live in `primaryTable` (undefined for blobs). */
  indexTableFor(primaryTable: string): string | undefined {
    return this.blobs ? undefined : (this.table ?? primaryTable);
  }

  /** The step that brings the lists in step after a write of a primary (undefined: its value did not change). */
  stepFor(change: PrimaryChange, indexTable = this.indexTableFor(change.table)): TransactionStep | undefined {
    const lists = new Map<string, ListKey>();
    for (const values of [change.before, change.after]) {
      if (values) {
        const key = this.keyOf(values);
        lists.set(JSON.stringify(key), key);
      }
    }
    if (change.before && change.after && lists.size === 1) return undefined;
    const args: ListStepArgs = {
      primary: change.table,
      pk: change.partitionKey,
      rk: change.rowKey,
      ...(indexTable === undefined ? {} : { index: indexTable }),
      lists: [...lists.values()],
    };
    return step.call(this.handler.kind, args as never);
  }

  /** The lists of `store`: index entities in `indexTable`, or the blobs. */
  listsOn(store: Store, indexTable?: string): IdLists {
    if (this.blobs) {
      // A list is read, changed and written back over the version read: without atomic
      // conditional writes two workers could each drop the other's id.
      if (store.blobCapabilities?.conditionalWrites !== true) {
        throw new TableKitError(
          "NotSupported",
          `Id list index ${this.name}: blob lists need a blob port with atomic conditional writes (blobCapabilities.conditionalWrites); keep the lists in index entities instead`,
        );
      }
      return new BlobIdLists(store.container(this.blobs.container));
    }
    if (indexTable === undefined) throw invalid("Index entities need their table");
    return new EntityIdLists(store, store.table(indexTable));
  }

  /**
   * The handler: reads the primary and puts its id on the list of its current value and off every
   * other list the step names or an earlier delivery remembered, until the primary reads the same
   * before and after a round. Idempotent and order-independent.
   */
  async sync(
    ctx: Pick<HandlerContext, "store" | "remembered" | "remember" | "abortSignal">,
    args: ListStepArgs,
  ): Promise<void> {
    const primary = ctx.store.table(args.primary);
    const lists = this.listsOn(ctx.store, args.index);
    const id = this.idOf(args.pk, args.rk);
    const call = ctx.abortSignal ? { abortSignal: ctx.abortSignal } : {};
    const candidates = new Set<string>([...args.lists.map((k) => JSON.stringify(k)), ...ctx.remembered]);
    await syncUntilStable(
      async () => {
        const entity = await findEntity(primary, args.pk, args.rk);
        const values =
          entity && isOfType(this.model.compiled, entity)
            ? recordFromEntity(this.model.compiled, entity)
            : undefined;
        return { version: entity?.etag, state: values };
      },
      async (values) => {
        const wanted = values ? JSON.stringify(this.keyOf(values)) : undefined;
        if (wanted !== undefined && !candidates.has(wanted)) {
          await ctx.remember([wanted]);
          candidates.add(wanted);
        }
        for (const c of candidates)
          await this.setMembership(lists, JSON.parse(c) as ListKey, id, c === wanted, call);
      },
      `Id list index ${this.name} of ${args.pk}/${args.rk}`,
    );
  }

  /** Puts `id` on or off one list: read, change, write conditionally; again after a lost race. */
  private setMembership(lists: IdLists, key: ListKey, id: string, member: boolean, call: OperationOptions) {
    return retryLostRaces(
      `Id list ${key.join("/")}`,
      retryPolicy({ maxAttempts: LIST_ATTEMPTS }),
      call.abortSignal,
      async () => {
        const stored = await lists.read(key, call);
        const ids = withMembership(stored.ids, id, member);
        if (!ids) return;
        try {
          await lists.write(key, ids, stored.etag, call);
        } catch (err) {
          // Blob conflicts carry codes of their own; retried like an entity's 412.
          if (isListConflict(err))
            throw new TableKitError("UpdateConditionNotSatisfied", "The list changed since it was read", {
              cause: err,
            });
          throw err;
        }
      },
    );
  }

  /** Look-ups on `store`'s tables of the model and of the index entities (or the tables given). */
  on(
    store: Store,
    tables: { readonly primary?: Table; readonly index?: string } = {},
  ): IdListIndexReader<F, LK, T> {
    const primary = tables.primary ?? store.table(this.model.compiled.table);
    const lists = this.listsOn(store, tables.index ?? this.indexTableFor(primary.tableName));
    return new IdListIndexReader(this as never, primary, lists, tables.index);
  }
}

/** Look-ups through an id list index, and the derivation that keeps it in step (for a SyncedRepository). */
export class IdListIndexReader<F extends Fields, LK extends readonly string[], T extends string>
  implements Derivation
{
  readonly handler: StepHandler<never>;

  constructor(
    private readonly index: IdListIndex<
      F,
      readonly string[],
      readonly string[],
      Readonly<Record<string, IndexDefinition<F>>>,
      T,
      LK
    >,
    readonly primary: Table,
    readonly lists: IdLists,
    private readonly indexTable: string | undefined,
  ) {
    this.handler = index.handler;
  }

  stepFor(change: PrimaryChange): TransactionStep | undefined {
    return this.index.stepFor(change, this.indexTable ?? this.index.indexTableFor(change.table));
  }

  /** The keys `[PartitionKey, RowKey]` on the list of a value (one read, however many entities or properties hold it). */
  async ids(where: KeyValues<F, LK> & Values, options: OperationOptions = {}): Promise<[string, string][]> {
    const { ids } = await this.lists.read(this.index.keyOf(where), options);
    return ids.map((id) => JSON.parse(id) as [string, string]);
  }

  /** The entities with a value: the list, then a point read of each, dropping those that no longer have it. */
  async lookup(
    where: KeyValues<F, LK> & Values,
    options: OperationOptions = {},
  ): Promise<ModelRecord<F, T>[]> {
    const wanted = JSON.stringify(this.index.keyOf(where));
    const keys = await this.ids(where, options);
    const records = await readPrimaries(
      this.index.model.compiled,
      this.primary,
      keys,
      (values) => JSON.stringify(this.index.keyOf(values)) === wanted,
      options,
    );
    return records as ModelRecord<F, T>[];
  }
}

function invalid(message: string): TableKitError {
  return new TableKitError("InvalidInput", message);
}

function checkArgs(args: unknown): void {
  const a = args as Partial<ListStepArgs>;
  const key = (k: unknown) => Array.isArray(k) && k.length === 2 && k.every((s) => typeof s === "string");
  if (
    typeof a?.primary !== "string" ||
    typeof a.pk !== "string" ||
    typeof a.rk !== "string" ||
    (a.index !== undefined && typeof a.index !== "string") ||
    !Array.isArray(a.lists) ||
    !a.lists.every(key)
  ) {
    throw invalid("An id list step takes { primary, pk, rk, index?, lists: [[pk, rk], …] }");
  }
}

/**
 * Declares an id list index of a model, kept apart and eventually consistent (seed 001's options
 * 3 and 1): register its `handler` with the transaction queue, and write through a
 * `SyncedRepository` given `index.on(store)`.
 *
 * @example
 * const ByLastName = defineIdListIndex(Employee, {
 *   name: "byLastName",
 *   entities: { table: "EmployeeIndex", partitionKey: (k) => k.literal("lastname"), rowKey: (k) => k.field("lastName") },
 * });
 */
export function defineIdListIndex<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  const LK extends readonly string[],
>(
  model: Model<F, PKN, RKN, I, T>,
  definition: IdListIndexDefinition<F, LK>,
): IdListIndex<F, PKN, RKN, I, T, LK> {
  return new IdListIndex(model, definition);
}
