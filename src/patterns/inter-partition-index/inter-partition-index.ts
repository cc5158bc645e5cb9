import { type EdmAnnotated, type TableEntity, TableKitError, typedProperties } from "../../model/index.js";
import type { Store, Table } from "../../store/index.js";
import type { Model } from "../entity-models/define-model.js";
import { isOfType, recordFromEntity } from "../entity-models/model-records.js";
import type { IndexDefinition } from "../entity-models/types.js";
import type { HandlerContext, StepHandler } from "../eventually-consistent-transactions/handler.js";
import { step, type TransactionStep } from "../eventually-consistent-transactions/steps.js";
import {
  deleteIfPresent,
  findEntity,
  type PrimaryChange,
  syncUntilStable,
} from "../shared/derivations/derived.js";
import type { Fields } from "../shared/schema/field.js";
import { KeyBuilder, type KeySpec } from "../shared/schema/key-spec.js";
import { toProperties } from "../shared/schema/schema.js";
import { ENTRY_MARKER, fingerprint } from "./index-entry.js";
import { InterPartitionIndexReader } from "./index-reader.js";

type Values = Readonly<Record<string, unknown>>;

/** Everything `defineInterPartitionIndex` takes. */
export interface InterPartitionIndexDefinition<
  F extends Fields,
  IPK extends readonly string[],
  IRK extends readonly string[],
> {
  /** The index's name: its entries carry it, and its transaction steps call the handler `index:<name>`. */
  readonly name: string;
  /** The table of the entries (default: the model's table, in partitions of their own). */
  readonly table?: string;
  /** The entries' PartitionKey (`k.literal("email_").field("department")`: the seed's `email_Sales`). */
  readonly partitionKey: (k: KeyBuilder<F>) => KeySpec<F, IPK>;
  /** The entries' RowKey; the primary's key fields are appended, so equal values never collide. */
  readonly rowKey: (k: KeyBuilder<F>) => KeySpec<F, IRK>;
  /** Fields an entry holds besides the key fields (default: all). */
  readonly include?: readonly (keyof F & string)[];
}

/** Where an entry is: `[PartitionKey, RowKey]`. */
export type EntryKey = readonly [string, string];

/** The arguments of an index step: the primary that changed, and every entry key it had or gets. */
interface IndexStepArgs {
  readonly primary: string;
  readonly index: string;
  readonly pk: string;
  readonly rk: string;
  readonly keys: readonly EntryKey[];
}

function invalid(message: string): TableKitError {
  return new TableKitError("InvalidInput", message);
}

/**
 * The inter-partition secondary index pattern (seed 001): a copy of each entity under other keys,
 * in other partitions or another table (`email_Sales` / `jonesj@contoso.com!000223`), kept in
 * step through the eventually consistent transactions pattern. Look-ups check each hit against
 * its primary and drop stale ones; `verify` finds and repairs drift in bounded memory.
 */
export class InterPartitionIndex<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  IPK extends readonly string[],
  IRK extends readonly string[],
> {
  /** Phantom: the key field names, for inference only. */
  declare readonly __keys?: { pk: IPK; rk: IRK };
  readonly name: string;
  readonly partitionKey: KeySpec<Fields, readonly string[]>;
  /** The entries' RowKey: the declared one, then the primary's key fields it lacks. */
  readonly rowKey: KeySpec<Fields, readonly string[]>;
  /** The fields an entry holds. */
  readonly holds: ReadonlySet<string>;
  readonly handler: StepHandler<never>;
  private readonly table: string | undefined;

  constructor(
    readonly model: Model<F, PKN, RKN, I, T>,
    definition: InterPartitionIndexDefinition<F, IPK, IRK>,
  ) {
    const compiled = model.compiled;
    if (typeof definition?.name !== "string" || !/^[A-Za-z][A-Za-z0-9_-]{0,62}$/.test(definition.name)) {
      throw invalid("An inter-partition index needs a name: a letter, then letters, digits, _ or -");
    }
    if (Object.hasOwn(compiled.fields, ENTRY_MARKER))
      throw invalid(`A model indexed across partitions cannot have a field '${ENTRY_MARKER}'`);
    this.name = definition.name;
    this.table = definition.table;
    const builder = new KeyBuilder(compiled.fields);
    this.partitionKey = definition.partitionKey(builder as never) as KeySpec<Fields, readonly string[]>;
    let rowKey = definition.rowKey(builder as never) as KeySpec<Fields, readonly string[]>;
    for (const spec of [this.partitionKey, rowKey]) {
      if (!spec || typeof spec.encode !== "function")
        throw invalid("partitionKey and rowKey must return keys built with k");
    }
    if (this.partitionKey.parts.length === 0 && this.partitionKey.prefix === "")
      throw invalid("partitionKey names no field and no literal");
    for (const part of [...compiled.partitionKey.parts, ...compiled.rowKey.parts]) {
      if (!rowKey.names.includes(part.name) && !this.partitionKey.names.includes(part.name)) {
        rowKey = rowKey.field(part.name as never, part.codec as never);
      }
    }
    this.rowKey = rowKey;
    const include = definition.include ?? Object.keys(compiled.fields);
    for (const f of include)
      if (!Object.hasOwn(compiled.fields, f)) throw invalid(`The index includes unknown field '${f}'`);
    this.holds = new Set([
      ...compiled.partitionKey.names,
      ...compiled.rowKey.names,
      ...this.partitionKey.names,
      ...this.rowKey.names,
      ...include,
    ]);
    this.handler = {
      kind: `index:${this.name}`,
      check: (args) => checkArgs(args),
      run: (ctx, args) => {
        const a = args as unknown as IndexStepArgs;
        return this.sync(ctx, a, { primary: ctx.store.table(a.primary), index: ctx.store.table(a.index) });
      },
    };
  }

  /** The table of the entries when the primaries live in `primaryTable`. */
  indexTableFor(primaryTable: string): string {
    return this.table ?? primaryTable;
  }

  /** Where the entry of an entity with `values` is. */
  keyOf(values: Values): EntryKey {
    return [this.partitionKey.encode(values), this.rowKey.encode(values)];
  }

  /** The entry of an entity with `values`: its key, the fields it holds, and the marker. */
  entryOf(values: Values): TableEntity<Record<string, unknown>> {
    const [partitionKey, rowKey] = this.keyOf(values);
    const held: Record<string, EdmAnnotated> = toProperties(this.model.compiled.fields, values, this.holds);
    return { partitionKey, rowKey, ...held, [ENTRY_MARKER]: this.name };
  }

  /** The values of a stored primary, or undefined when it is absent or not of the model's type. */
  primaryValues(entity: Record<string, unknown> | undefined): Values | undefined {
    if (!entity || !isOfType(this.model.compiled, entity) || Object.hasOwn(entity, ENTRY_MARKER))
      return undefined;
    return recordFromEntity(this.model.compiled, entity as never);
  }

  /** The step that brings this index (its entries in `indexTable`) in step after a write of a primary. */
  stepFor(change: PrimaryChange, indexTable = this.indexTableFor(change.table)): TransactionStep | undefined {
    const keys = new Map<string, EntryKey>();
    for (const values of [change.before, change.after]) {
      if (values) {
        const key = this.keyOf(values);
        keys.set(JSON.stringify(key), key);
      }
    }
    if (change.before && change.after && keys.size === 1 && !this.holdsChanged(change.before, change.after))
      return undefined;
    const args: IndexStepArgs = {
      primary: change.table,
      index: indexTable,
      pk: change.partitionKey,
      rk: change.rowKey,
      keys: [...keys.values()],
    };
    return step.call(this.handler.kind, args as never);
  }

  private holdsChanged(before: Values, after: Values): boolean {
    const text = (v: Values) =>
      fingerprint(typedProperties(toProperties(this.model.compiled.fields, v, this.holds)));
    return text(before) !== text(after);
  }

  /**
   * The handler: reads the primary, writes the entry it should have (if any) and deletes every
   * other entry the step names or an earlier delivery remembered, until the primary is the same
   * before and after a round. Order-independent and idempotent.
   */
  async sync(
    ctx: Pick<HandlerContext, "remembered" | "remember">,
    args: Pick<IndexStepArgs, "pk" | "rk" | "keys">,
    tables: { readonly primary: Table; readonly index: Table },
  ): Promise<void> {
    const { primary, index } = tables;
    const candidates = new Set<string>([...args.keys.map((k) => JSON.stringify(k)), ...ctx.remembered]);
    await syncUntilStable(
      async () => {
        const entity = await findEntity(primary, args.pk, args.rk);
        return { version: entity?.etag, state: this.primaryValues(entity) };
      },
      async (values) => {
        const entry = values ? this.entryOf(values) : undefined;
        const wanted = entry ? JSON.stringify([entry.partitionKey, entry.rowKey]) : undefined;
        if (wanted !== undefined && !candidates.has(wanted)) {
          await ctx.remember([wanted]);
          candidates.add(wanted);
        }
        if (entry) await index.upsertEntity(entry, "Replace");
        for (const c of candidates) {
          if (c === wanted) continue;
          const [pk, rk] = JSON.parse(c) as [string, string];
          await deleteIfPresent(index, pk, rk);
        }
      },
      `Index ${this.name} of ${args.pk}/${args.rk}`,
    );
  }

  /**
   * Look-ups and verify/repair on `store`'s tables of the model and of the index, or on the
   * tables given (tables of that store).
   */
  on(
    store: Store,
    tables: { readonly primary?: Table; readonly index?: Table } = {},
  ): InterPartitionIndexReader<F, PKN, RKN, I, T, IPK, IRK> {
    const primary = tables.primary ?? store.table(this.model.compiled.table);
    const index = tables.index ?? store.table(this.indexTableFor(primary.tableName));
    return new InterPartitionIndexReader(this, store.capabilities.keyOrder, primary, index);
  }
}

function checkArgs(args: unknown): void {
  const a = args as Partial<IndexStepArgs>;
  const key = (k: unknown) => Array.isArray(k) && k.length === 2 && k.every((s) => typeof s === "string");
  if (
    typeof a?.primary !== "string" ||
    typeof a.index !== "string" ||
    typeof a.pk !== "string" ||
    typeof a.rk !== "string" ||
    !Array.isArray(a.keys) ||
    !a.keys.every(key)
  ) {
    throw invalid("An index step takes { primary, index, pk, rk, keys: [[pk, rk], …] }");
  }
}

/**
 * Declares an inter-partition secondary index of a model. Bind it with `on(store)` for look-ups
 * and verify/repair; register its `handler` with the transaction queue, and write through a
 * `SyncedRepository` given the bound index, so every write keeps it in step.
 *
 * @example
 * const ByEmail = defineInterPartitionIndex(Employee, {
 *   name: "byEmail",
 *   partitionKey: (k) => k.literal("email_").field("department"),
 *   rowKey: (k) => k.field("email"),
 *   include: ["firstName", "lastName"],
 * });
 */
export function defineInterPartitionIndex<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  const IPK extends readonly string[],
  const IRK extends readonly string[],
>(
  model: Model<F, PKN, RKN, I, T>,
  definition: InterPartitionIndexDefinition<F, IPK, IRK>,
): InterPartitionIndex<F, PKN, RKN, I, T, IPK, IRK> {
  return new InterPartitionIndex(model, definition);
}
