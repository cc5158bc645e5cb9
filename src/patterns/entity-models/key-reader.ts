import { odata } from "../../filter/index.js";
import { isTableKitError, type TableEntityResult, TableKitError } from "../../model/index.js";
import type { OperationOptions, Table } from "../../store/index.js";
import type { Fields } from "../shared/schema/field.js";
import type { KeyMatch, KeySpec } from "../shared/schema/key-spec.js";
import {
  deferQuery,
  entityQuery,
  type Query,
  type QueryOptions,
  rowRangeFilter,
} from "../shared/support/query.js";
import type { CompiledModel } from "./define-model.js";
import { isOfType, recordFromEntity } from "./model-records.js";
import type { ListOptions } from "./types.js";

type Values = Readonly<Record<string, unknown>>;

/**
 * Reads through one RowKey layout of a model — the entity's own, or an index's — in the
 * partition its PartitionKey fields name. Untyped inside; `Repository` gives it its types.
 */
export class KeyReaderImpl {
  constructor(
    private readonly model: CompiledModel,
    private readonly table: Table,
    private readonly rowKey: KeySpec<Fields, readonly string[]>,
    /** The fields the entities read here hold (an index copy may hold fewer). */
    private readonly holds?: ReadonlySet<string>,
  ) {}

  async get(key: Values, options?: OperationOptions): Promise<Record<string, unknown>> {
    const found = await this.find(key, options);
    if (!found) {
      throw new TableKitError("ResourceNotFound", "The specified resource does not exist.", {
        details: { table: this.table.tableName },
      });
    }
    return found;
  }

  async find(key: Values, options?: OperationOptions): Promise<Record<string, unknown> | undefined> {
    const partitionKey = this.model.partitionKey.encode(key);
    const rowKey = this.rowKey.encode(key);
    let entity: TableEntityResult;
    try {
      entity = await this.table.getEntity(partitionKey, rowKey, options);
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return undefined;
      throw err;
    }
    if (this.holds === undefined && !isOfType(this.model, entity)) return undefined;
    return this.decode(entity);
  }

  list(where: Values, options: ListOptions = {}): Query<Record<string, unknown>> {
    return deferQuery(() => {
      const startsWith = options.startsWith === undefined ? {} : { startsWith: options.startsWith };
      return this.query(where, this.rowKey.match(where, startsWith), options);
    });
  }

  between(from: Values, to: Values, options: QueryOptions = {}): Query<Record<string, unknown>> {
    return deferQuery(() => {
      const partitionKey = this.model.partitionKey.encode(from);
      if (this.model.partitionKey.encode(to) !== partitionKey) {
        throw new TableKitError("InvalidInput", "between: `from` and `to` must name the same partition");
      }
      return this.query(from, this.rowKey.between(from, to), options);
    });
  }

  private query(where: Values, match: KeyMatch, options: QueryOptions): Query<Record<string, unknown>> {
    const partitionKey = this.model.partitionKey.encode(where);
    let filter = rowRangeFilter(partitionKey, match);
    // Only the entity's own copy carries the type property: index copies are told apart by RowKey.
    if (this.model.typeProperty !== undefined && this.holds === undefined) {
      filter += ` and ${this.model.typeProperty} eq ${odata`${this.model.entityType!}`}`;
    }
    return entityQuery(this.table, filter, (e) => this.decode(e), options);
  }

  private decode(entity: TableEntityResult): Record<string, unknown> {
    return recordFromEntity(this.model, entity, this.holds);
  }
}
