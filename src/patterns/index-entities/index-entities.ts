import { TableKitError } from "../../model/index.js";
import type { OperationOptions, Store, Table } from "../../store/index.js";
import type { Companion, CompanionWrite } from "../entity-models/companion.js";
import type { Model } from "../entity-models/define-model.js";
import type { Repository } from "../entity-models/repository.js";
import type { IndexDefinition, ModelRecord } from "../entity-models/types.js";
import type { Fields } from "../shared/schema/field.js";
import { KeyBuilder, type KeySpec, type KeyValues } from "../shared/schema/key-spec.js";
import { checkPatternName } from "../shared/support/names.js";
import { EntityIdLists, type ListKey } from "./id-lists.js";
import { readPrimaries, withMembership } from "./primaries.js";

type Values = Readonly<Record<string, unknown>>;

/** Everything `defineIndexEntities` takes. */
export interface IndexEntitiesDefinition<F extends Fields, IRK extends readonly string[]> {
  /** The index's name (for errors and docs). */
  readonly name: string;
  /**
   * The index entity's RowKey, in the entity's own partition: a literal of its own, then the
   * indexed fields (`k.literal("lastname_").field("lastName")`: seed 001's `Sales` / `Jones`).
   */
  readonly rowKey: (k: KeyBuilder<F>) => KeySpec<F, IRK>;
}

/**
 * Index entities in the entity's partition (seed 001, option 2): for each value, one index entity
 * listing the RowKeys of the partition's entities that have it. Every write of an entity updates
 * the index entities of its old and new value in the SAME entity group transaction, conditional on
 * the ETags read, so the index is never out of step; a write that lost the race is retried from
 * the read. A long list spans properties and entities (wide entities), read back as one list.
 */
export class IndexEntities<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  IRK extends readonly string[],
> {
  /** Phantom: the index key's field names, for inference only. */
  declare readonly __keys?: IRK;
  readonly name: string;
  readonly rowKey: KeySpec<Fields, readonly string[]>;

  constructor(
    readonly model: Model<F, PKN, RKN, I, T>,
    definition: IndexEntitiesDefinition<F, IRK>,
  ) {
    const compiled = model.compiled;
    this.name = checkPatternName(definition?.name, "Index entities");
    const spec = definition.rowKey?.(new KeyBuilder(compiled.fields) as never) as KeySpec<
      Fields,
      readonly string[]
    >;
    if (!spec || typeof spec.encode !== "function") throw invalid("rowKey must return a key built with k");
    if (spec.parts.length === 0) throw invalid("rowKey names no field to index");
    const literals = [compiled.rowKey.prefix, ...compiled.indexes.map((ix) => ix.key.prefix)];
    if (
      spec.prefix === "" ||
      literals.some((l) => l === "" || l.startsWith(spec.prefix) || spec.prefix.startsWith(l))
    ) {
      throw invalid(
        `Index entities '${this.name}': their RowKey must start with a literal that no RowKey of the model's entities or index copies shares`,
      );
    }
    this.rowKey = spec;
  }

  /** What keeps the index in step inside each write's transaction: pass it to `Model.on(target, { with })`. */
  companion(store: Pick<Store, "capabilities">): Companion {
    return { prepare: (write) => this.prepare(new EntityIdLists(store, write.table), write) };
  }

  /** Where the index entity of an entity with `values` is. */
  keyOf(values: Values): ListKey {
    return [this.model.compiled.partitionKey.encode(values), this.rowKey.encode(values)];
  }

  /** The index actions of one write: its entity's RowKey leaves the old value's list and joins the new one's. */
  private async prepare(lists: EntityIdLists, write: CompanionWrite) {
    const before = write.before ? this.keyOf(write.before) : undefined;
    const after = write.after ? this.keyOf(write.after) : undefined;
    if (before && after && before[1] === after[1]) return { actions: [] };
    const actions = [];
    for (const [key, member] of [
      [before, false],
      [after, true],
    ] as const) {
      if (!key) continue;
      const id = lists.codec.check(write.rowKey);
      actions.push(...(await lists.actionsFor(key, (ids) => withMembership(ids, id, member), write.call)));
    }
    return { actions };
  }

  /**
   * The model's repository in `store`'s table of the model (or `table`, a table of that store)
   * keeping this index in step, and look-ups through it.
   */
  on(store: Store, table = store.table(this.model.compiled.table)): IndexEntitiesOn<F, PKN, RKN, I, T, IRK> {
    return new IndexEntitiesOn(this as never, store, table);
  }
}

/** Index entities bound to a table: the repository whose writes keep them in step, and look-ups. */
export class IndexEntitiesOn<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  IRK extends readonly string[],
> {
  /** The model's repository on the table, with this index kept in step by every write. */
  readonly repository: Repository<F, PKN, RKN, I, T>;
  private readonly lists: EntityIdLists;

  constructor(
    private readonly index: IndexEntities<F, PKN, RKN, I, T, IRK>,
    store: Store,
    readonly table: Table,
  ) {
    this.lists = new EntityIdLists(store, table);
    this.repository = index.model.on(table, { with: [index.companion(store)] });
  }

  /** The RowKeys listed for a value in a partition (one query; one list however many entities hold it). */
  async ids(where: KeyValues<F, [...PKN, ...IRK]>, options: OperationOptions = {}): Promise<string[]> {
    return [...(await this.lists.read(this.index.keyOf(where as Values), options)).ids];
  }

  /** The entities with a value in a partition: the index entity, then a point read of each listed entity. */
  async lookup(
    where: KeyValues<F, [...PKN, ...IRK]>,
    options: OperationOptions = {},
  ): Promise<ModelRecord<F, T>[]> {
    const [pk, rk] = this.index.keyOf(where as Values);
    const ids = await this.ids(where, options);
    const model = this.index.model.compiled;
    const records = await readPrimaries(
      model,
      this.table,
      ids.map((id) => [pk, id] as const),
      (values) => this.index.rowKey.encode(values) === rk,
      options,
    );
    return records as ModelRecord<F, T>[];
  }
}

function invalid(message: string): TableKitError {
  return new TableKitError("InvalidInput", message);
}

/**
 * Declares index entities in the entity's partition (seed 001, option 2). Write through
 * `Model.on(store, { with: [index] })` so every write keeps them in step; read with `index.on(store)`.
 *
 * @example
 * const ByLastName = defineIndexEntities(Employee, { name: "byLastName", rowKey: (k) => k.literal("lastname_").field("lastName") });
 * const employees = Employee.on(store, { with: [ByLastName] });
 * await ByLastName.on(store).lookup({ department: "Sales", lastName: "Jones" });
 */
export function defineIndexEntities<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  const IRK extends readonly string[],
>(
  model: Model<F, PKN, RKN, I, T>,
  definition: IndexEntitiesDefinition<F, IRK>,
): IndexEntities<F, PKN, RKN, I, T, IRK> {
  return new IndexEntities(model, definition);
}
