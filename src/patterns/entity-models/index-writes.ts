import { odata } from "../../filter/index.js";
import { type EdmAnnotated, setOwn, type TableEntity } from "../../model/index.js";
import type { OperationOptions, Table, TransactionAction } from "../../store/index.js";
import type { CompiledIndex, CompiledModel } from "./define-model.js";

type Values = Readonly<Record<string, unknown>>;
type Properties = Readonly<Record<string, EdmAnnotated>>;

/** The stored form of an entity: keys, its fields, and its type property. */
export function mainEntity(
  model: CompiledModel,
  values: Values,
  properties: Properties,
): TableEntity<Record<string, unknown>> {
  return {
    partitionKey: model.partitionKey.encode(values),
    rowKey: model.rowKey.encode(values),
    ...properties,
    ...(model.typeProperty ? { [model.typeProperty]: model.entityType } : {}),
  };
}

/** The stored form of one index copy: same partition, the index's RowKey, the fields it holds. */
export function copyEntity(
  model: CompiledModel,
  index: CompiledIndex,
  values: Values,
  properties: Properties,
): TableEntity<Record<string, unknown>> {
  const held: Record<string, EdmAnnotated> = {};
  for (const [name, value] of Object.entries(properties))
    if (index.holds.has(name)) setOwn(held, name, value);
  return { partitionKey: model.partitionKey.encode(values), rowKey: index.key.encode(values), ...held };
}

/** A $filter stays within 15 comparisons: one for the partition, at most 14 row keys. */
const KEYS_PER_QUERY = 14;

/**
 * The ETags of the index copies at `rowKeys` in one partition (absent copies are simply missing
 * from the map): one query per 14 keys, run in parallel, so usually one round trip.
 */
export async function readCopyEtags(
  table: Table,
  partitionKey: string,
  rowKeys: readonly string[],
  options?: OperationOptions,
): Promise<Map<string, string>> {
  const unique = [...new Set(rowKeys)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += KEYS_PER_QUERY) chunks.push(unique.slice(i, i + KEYS_PER_QUERY));
  const found = new Map<string, string>();
  await Promise.all(
    chunks.map(async (keys) => {
      const rows = keys.map((k) => odata`RowKey eq ${k}`).join(" or ");
      const filter = `${odata`PartitionKey eq ${partitionKey}`} and (${rows})`;
      const query = table.listEntities({
        queryOptions: { filter, select: ["RowKey"] },
        ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      for await (const e of query) found.set(e.rowKey!, e.etag);
    }),
  );
  return found;
}

/** The RowKeys of every index copy of an entity with `values`. */
export function copyKeys(model: CompiledModel, values: Values): string[] {
  return model.indexes.map((ix) => ix.key.encode(values));
}

/**
 * The actions that move index copies from `before` (the entity as read) to `after` (as it will be;
 * undefined when it is deleted). Each copy is written conditionally on the ETag it was read with:
 * an unchanged key is updated If-Match, a changed one deleted If-Match and re-created, a copy the
 * read found missing is re-created (which repairs an index that drifted).
 */
export function indexActions(
  model: CompiledModel,
  before: Values | undefined,
  after: { values: Values; properties: Properties } | undefined,
  copyEtags: ReadonlyMap<string, string>,
): TransactionAction[] {
  const actions: TransactionAction[] = [];
  for (const ix of model.indexes) {
    const oldKey = before ? ix.key.encode(before) : undefined;
    const newCopy = after ? copyEntity(model, ix, after.values, after.properties) : undefined;
    const oldEtag = oldKey === undefined ? undefined : copyEtags.get(oldKey);
    if (newCopy && newCopy.rowKey === oldKey) {
      actions.push(oldEtag ? ["update", newCopy, "Replace", { etag: oldEtag }] : ["create", newCopy]);
      continue;
    }
    if (oldKey !== undefined && oldEtag) {
      actions.push([
        "delete",
        { partitionKey: model.partitionKey.encode(before!), rowKey: oldKey },
        { etag: oldEtag },
      ]);
    }
    if (newCopy) actions.push(["create", newCopy]);
  }
  return actions;
}
