import { isTableKitError, ownValue, type TableEntityResult, TableKitError } from "../../model/index.js";
import type { OperationOptions, Store, Table } from "../../store/index.js";
import type { CompiledModel, Model } from "../entity-models/define-model.js";
import { recordFromEntity } from "../entity-models/model-records.js";
import type { ModelRecord } from "../entity-models/types.js";
import type { Fields } from "../shared/schema/field.js";
import {
  deferQuery,
  entityQuery,
  type Query,
  type QueryOptions,
  rowRangeFilter,
} from "../shared/support/query.js";

// biome-ignore lint/suspicious/noExplicitAny: any model, whatever its fields, keys and indexes.
type AnyModel = Model<any, any, any, any, string>;

/** The record of any of the models: a union discriminated by `entityType`. */
export type EntityTypesRecord<M extends readonly AnyModel[]> = {
  [K in keyof M]: M[K] extends Model<
    infer F extends Fields,
    infer _P,
    infer _R,
    infer _I,
    infer T extends string
  >
    ? ModelRecord<F, T>
    : never;
}[number];

/** Options of a query over a partition of mixed entity types. */
export interface MixedListOptions extends QueryOptions {
  /** Only RowKeys in `lower <= RowKey < upper` (either bound may be left out). */
  readonly rowKeys?: { readonly lower?: string; readonly upper?: string };
  /** What to do with an entity no model recognizes: throw InvalidValueType (default) or skip it. */
  readonly unknown?: "error" | "skip";
}

/**
 * Several entity types in one table (seed 001, "heterogeneous entity types"): a read over a
 * partition returns each entity decoded as its own type. An entity is recognized by its type
 * property (`EntityType`, when its model stores one) or else by its model's RowKey literal
 * (`EMPLOYEE_`, `DEPARTMENT_`); index copies are recognized by their index's literal and skipped.
 */
export class EntityTypes<M extends readonly AnyModel[]> {
  private readonly compiled: readonly CompiledModel[];

  constructor(readonly models: M) {
    this.compiled = models.map((m) => m.compiled);
    checkRecognizable(this.compiled);
  }

  /** The readers of these types in `store`'s table of the models, or in the `Table` given. */
  on(target: Store | Table): EntityTypesReader<M> {
    const table = "listEntities" in target ? target : target.table(this.compiled[0]!.table);
    return new EntityTypesReader<M>(this.compiled, table);
  }
}

/** Reads a table of mixed entity types. */
export class EntityTypesReader<M extends readonly AnyModel[]> {
  constructor(
    private readonly compiled: readonly CompiledModel[],
    readonly table: Table,
  ) {}

  /** Every entity of one partition (or of a RowKey range of it), each decoded as its own type. */
  list(partitionKey: string, options: MixedListOptions = {}): Query<EntityTypesRecord<M>> {
    return deferQuery(() => {
      const { lower = "", upper } = options.rowKeys ?? {};
      const filter = rowRangeFilter(partitionKey, upper === undefined ? { lower } : { lower, upper });
      return entityQuery(this.table, filter, (e) => this.decode(e, options.unknown ?? "error"), options);
    });
  }

  /** One entity by its keys, decoded as its type; ResourceNotFound when absent or not one of these types. */
  async get(partitionKey: string, rowKey: string, options?: OperationOptions): Promise<EntityTypesRecord<M>> {
    const entity = await this.table.getEntity(partitionKey, rowKey, options);
    const record = this.decode(entity, "skip");
    if (record === undefined) {
      throw new TableKitError("ResourceNotFound", "No entity of these types has these keys", {
        details: { partitionKey, rowKey },
      });
    }
    return record;
  }

  /** The entity as its type's record; undefined for an index copy (or an unknown entity when skipping). */
  private decode(entity: TableEntityResult, unknown: "error" | "skip"): EntityTypesRecord<M> | undefined {
    const model = modelOf(this.compiled, entity);
    if (model === "index-copy") return undefined;
    if (model === undefined) {
      if (unknown === "skip") return undefined;
      throw new TableKitError(
        "InvalidValueType",
        `The entity ${entity.partitionKey}/${entity.rowKey} is of none of the types read`,
        {
          details: { partitionKey: entity.partitionKey, rowKey: entity.rowKey },
        },
      );
    }
    try {
      return recordFromEntity(model, entity) as EntityTypesRecord<M>;
    } catch (err) {
      if (unknown === "skip" && isTableKitError(err, "InvalidValueType")) return undefined;
      throw err;
    }
  }
}

/** Which model wrote an entity: by its stored type property first, then by RowKey literal. */
function modelOf(
  models: readonly CompiledModel[],
  entity: TableEntityResult,
): CompiledModel | "index-copy" | undefined {
  for (const m of models) {
    if (
      m.typeProperty !== undefined &&
      ownValue(entity as Record<string, unknown>, m.typeProperty) === m.entityType
    )
      return m;
  }
  const rowKey = entity.rowKey ?? "";
  for (const m of models) {
    if (m.indexes.some((ix) => rowKey.startsWith(ix.key.prefix))) return "index-copy";
  }
  for (const m of models) {
    if (m.typeProperty === undefined && m.rowKey.prefix !== "" && rowKey.startsWith(m.rowKey.prefix))
      return m;
  }
  return undefined;
}

function checkRecognizable(models: readonly CompiledModel[]): void {
  if (models.length === 0)
    throw new TableKitError("InvalidInput", "defineEntityTypes needs at least one model");
  const names = new Set<string>();
  // RowKey literals that identify an entity without a type property: they must never overlap.
  const literals: { owner: string; literal: string }[] = [];
  for (const m of models) {
    if (m.table !== models[0]!.table) {
      throw new TableKitError(
        "InvalidInput",
        `Every model must live in one table; '${m.table}' is not '${models[0]!.table}'`,
      );
    }
    if (m.entityType === undefined || names.has(m.entityType)) {
      throw new TableKitError("InvalidInput", "Every model needs an entityType of its own");
    }
    names.add(m.entityType);
    if (m.typeProperty === undefined) {
      if (m.rowKey.prefix === "") {
        throw new TableKitError(
          "InvalidInput",
          `'${m.entityType}' stores no type property, so its RowKey needs a literal`,
        );
      }
      literals.push({ owner: m.entityType, literal: m.rowKey.prefix });
    }
    for (const ix of m.indexes)
      literals.push({ owner: `${m.entityType} index '${ix.name}'`, literal: ix.key.prefix });
  }
  for (const a of literals) {
    for (const b of literals) {
      if (a !== b && b.literal.startsWith(a.literal)) {
        throw new TableKitError("InvalidInput", `The RowKey literals of ${a.owner} and ${b.owner} overlap`);
      }
    }
  }
}

/**
 * Declares the entity types that share one table, to read them together: each entity of a
 * partition comes back as its own type, a union discriminated by `entityType`.
 *
 * @example for await (const e of defineEntityTypes(Employee, Department).on(store).list("Sales")) if (e.entityType === "Employee") e.email;
 */
export function defineEntityTypes<const M extends readonly AnyModel[]>(...models: M): EntityTypes<M> {
  return new EntityTypes(models);
}
