import { TableKitError } from "../../model/index.js";
import type { Store, Table } from "../../store/index.js";
import { EVIDENCE_PROPERTY } from "../shared/evidence/evidence.js";
import type { Fields } from "../shared/schema/field.js";
import { KeyBuilder, type KeySpec } from "../shared/schema/key-spec.js";
import { checkFields, toProperties } from "../shared/schema/schema.js";
import type { Companion } from "./companion.js";
import { type FieldFilter, fieldFilter } from "./field-filter.js";
import { Repository } from "./repository.js";
import type { IndexDefinition, ModelDefinition, ModelInput } from "./types.js";

/** An index, resolved: its key, and the fields its copies hold. */
export interface CompiledIndex {
  readonly name: string;
  readonly key: KeySpec<Fields, readonly string[]>;
  /** The fields a copy holds (key fields included). */
  readonly holds: ReadonlySet<string>;
}

/** A model, resolved and checked: what the repository works from. */
export interface CompiledModel {
  readonly table: string;
  readonly entityType: string | undefined;
  readonly typeProperty: string | undefined;
  readonly fields: Fields;
  readonly partitionKey: KeySpec<Fields, readonly string[]>;
  readonly rowKey: KeySpec<Fields, readonly string[]>;
  readonly indexes: readonly CompiledIndex[];
}

/** The keys a model writes for one entity: its own, and one per index copy. */
export interface ModelKeys {
  readonly partitionKey: string;
  readonly rowKey: string;
  readonly indexes: Readonly<Record<string, string>>;
}

/** A declared entity type. `on(store)` gives the typed repository. */
export class Model<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
> {
  /** Phantom: the definition's types, for inference only. */
  declare readonly __types?: { fields: F; pk: PKN; rk: RKN; indexes: I; type: T };

  /** `$filter` comparisons of the fields, each value as its field's EDM type: `filter.gt("total", 50)` → `total gt 50.0`. */
  readonly filter: FieldFilter<F>;

  constructor(readonly compiled: CompiledModel) {
    this.filter = fieldFilter(compiled.fields as F);
  }

  /** The entity type's name, if the model declares one. */
  get entityType(): T | undefined {
    return this.compiled.entityType as T | undefined;
  }

  /** The keys an entity gets (validated as a write would be, nothing sent): for docs and the CLI. */
  keys(input: ModelInput<F>): ModelKeys {
    toProperties(this.compiled.fields, input);
    const values = input as Record<string, unknown>;
    return {
      partitionKey: this.compiled.partitionKey.encode(values),
      rowKey: this.compiled.rowKey.encode(values),
      indexes: Object.fromEntries(this.compiled.indexes.map((ix) => [ix.name, ix.key.encode(values)])),
    };
  }

  /**
   * The typed repository of this model in `store`'s table of the model, or in the `Table` given;
   * `with`: entities of the partition every write keeps in step in its own transaction (index
   * entities, denormalized copies: their `companion(store)`).
   */
  on(
    target: Store | Table,
    options: { readonly with?: readonly Companion[] } = {},
  ): Repository<F, PKN, RKN, I, T> {
    const table = "listEntities" in target ? target : target.table(this.compiled.table);
    return new Repository(this.compiled, table, options.with ?? []);
  }
}

/**
 * Declares an entity type: its fields, how its PartitionKey and RowKey are built from them, and
 * its secondary indexes. Every type is inferred; call sites name no generic argument.
 *
 * @example
 * const Employee = defineModel({
 *   table: "Employees",
 *   fields: { department: field.string(), id: field.int32(), email: field.string() },
 *   partitionKey: (k) => k.field("department"),
 *   rowKey: (k) => k.literal("empid_").field("id", paddedInt({ max: 999999 })),
 *   indexes: (k) => ({ email: { rowKey: k.literal("email_").field("email") } }),
 * });
 */
export function defineModel<
  const F extends Fields,
  const PKN extends readonly string[],
  const RKN extends readonly string[],
  const I extends Readonly<Record<string, IndexDefinition<F>>> = Record<never, never>,
  const T extends string = never,
>(definition: ModelDefinition<F, PKN, RKN, I, T>): Model<F, PKN, RKN, I, T> {
  return new Model(
    compileModel(
      definition as unknown as ModelDefinition<
        Fields,
        [],
        [],
        Record<string, IndexDefinition<Fields>>,
        string
      >,
    ),
  );
}

function invalid(message: string, details?: Record<string, unknown>): TableKitError {
  return new TableKitError("InvalidInput", message, details ? { details } : {});
}

function compileModel(
  def: ModelDefinition<Fields, [], [], Record<string, IndexDefinition<Fields>>, string>,
): CompiledModel {
  if (typeof def !== "object" || def === null) throw invalid("defineModel takes a definition object");
  if (typeof def.table !== "string" || def.table === "") throw invalid("A model needs a table name");
  const entityType = def.entityType;
  if (entityType !== undefined && (typeof entityType !== "string" || entityType === "")) {
    throw invalid("entityType must be a non-empty string");
  }
  const typeProperty =
    entityType === undefined || def.typeProperty === false ? undefined : (def.typeProperty ?? "EntityType");
  if (typeProperty === EVIDENCE_PROPERTY)
    throw invalid(`'${EVIDENCE_PROPERTY}' is tablekit's evidence property`);
  // Every write of a model carries its entity's evidence in a property of tablekit's.
  checkFields(def.fields, [EVIDENCE_PROPERTY, ...(typeProperty ? [typeProperty] : [])]);
  const fields = def.fields;
  const builder = new KeyBuilder(fields);
  const partitionKey = def.partitionKey(builder) as KeySpec<Fields, readonly string[]>;
  const rowKey = def.rowKey(builder) as KeySpec<Fields, readonly string[]>;
  for (const [which, spec] of [
    ["partitionKey", partitionKey],
    ["rowKey", rowKey],
  ] as const) {
    if (!spec || typeof spec.encode !== "function") throw invalid(`${which} must return a key built with k`);
    if (spec.parts.length === 0 && spec.prefix === "")
      throw invalid(`${which} names no field and no literal`);
  }

  const indexes: CompiledIndex[] = [];
  const declared = def.indexes ? def.indexes(builder) : {};
  if (typeof declared !== "object" || declared === null)
    throw invalid("indexes must return an object of indexes");
  for (const [name, ix] of Object.entries(declared)) {
    let key = ix?.rowKey as KeySpec<Fields, readonly string[]>;
    if (!key || typeof key.encode !== "function")
      throw invalid(`Index '${name}' needs a rowKey built with k`);
    if (ix.unique === false) {
      for (const part of rowKey.parts) {
        if (!key.names.includes(part.name)) key = key.field(part.name as never, part.codec as never);
      }
    }
    const include = ix.include ?? Object.keys(fields);
    for (const f of include)
      if (!Object.hasOwn(fields, f)) throw invalid(`Index '${name}' includes unknown field '${f}'`);
    const holds = new Set([...partitionKey.names, ...rowKey.names, ...key.names, ...include]);
    indexes.push({ name, key, holds });
  }
  checkDisjointRowKeys(rowKey, indexes);
  return { table: def.table, entityType, typeProperty, fields, partitionKey, rowKey, indexes };
}

/**
 * The entity and each index copy live in one partition, so their RowKeys must never collide: each
 * starts with a literal of its own, none a prefix of another (`empid_`, `email_`).
 */
function checkDisjointRowKeys(
  rowKey: KeySpec<Fields, readonly string[]>,
  indexes: readonly CompiledIndex[],
): void {
  if (indexes.length === 0) return;
  const literals = [
    { name: "the entity's rowKey", literal: rowKey.prefix },
    ...indexes.map((ix) => ({ name: `index '${ix.name}'`, literal: ix.key.prefix })),
  ];
  for (const a of literals) {
    if (a.literal === "") {
      throw invalid(`With indexes, ${a.name} must start with a literal of its own (k.literal("empid_"))`);
    }
    for (const b of literals) {
      if (a !== b && b.literal.startsWith(a.literal)) {
        throw invalid(
          `The RowKey literals of ${a.name} ("${a.literal}") and ${b.name} ("${b.literal}") overlap`,
        );
      }
    }
  }
}
