import type { StoredEntity } from "../../model/index.js";
import { type TableEntityResult, TableKitError, toEntityResult } from "../../model/index.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { namingTheTable } from "./missing-table.js";
import { READ_LATER, type TableBackend } from "./table-backend.js";

/**
 * The key of a read option (getEntity, listEntities) that builds each result from the stored entity
 * itself instead of the port's result: tablekit/data-tables builds the SDK's entity in one pass.
 * Not public: the store's index does not export it.
 */
export const ENTITY_BUILDER: unique symbol = Symbol("tablekit.entityBuilder");

/** Builds a read's result; `select` is the caller's, checked. */
export type EntityBuilder = (entity: StoredEntity, select: readonly string[] | undefined) => unknown;

/**
 * The key of a point read option that maps the read's failure to the caller's error (the SDK's
 * RestError), so that the caller returns the store's promise as it is instead of awaiting it.
 */
export const READ_FAILURE: unique symbol = Symbol("tablekit.readFailure");

export type ReadFailure = (err: unknown, partitionKey: string, rowKey: string) => unknown;

/** Read options with a builder (and, for a point read, a failure mapping), as tablekit/data-tables passes them. */
export interface BuiltReadOptions extends OperationOptions {
  readonly [ENTITY_BUILDER]?: EntityBuilder;
  readonly [READ_FAILURE]?: ReadFailure;
}

/** A point read's rejection: `err`, or what the options' READ_FAILURE makes of it. */
export function failedRead(
  options: OperationOptions | undefined,
  err: unknown,
  pk: string,
  rk: string,
): Promise<never> {
  const fail = (options as BuiltReadOptions | undefined)?.[READ_FAILURE];
  return Promise.reject(fail === undefined ? err : fail(err, pk, rk));
}

/** The options' builder, or the port's own result. */
export function entityBuilder(options: OperationOptions | undefined): EntityBuilder {
  return (options as BuiltReadOptions | undefined)?.[ENTITY_BUILDER] ?? toEntityResult;
}

/**
 * `Table.getEntity`'s read, its keys and options checked: a backend that reads synchronously
 * (`getNow`) answers with one settled promise and no await; otherwise, or when it cannot answer now,
 * `get`. May throw (the caller turns a throw into a rejection, `failedRead`); TableNotFound names
 * `tableName`.
 */
export function readEntity<T extends object>(
  backend: TableBackend,
  tableName: string,
  partitionKey: string,
  rowKey: string,
  call: CallOptions,
  select: string[] | undefined,
  options: OperationOptions | undefined,
): Promise<TableEntityResult<T>> {
  const build = entityBuilder(options);
  const stored = readNow(backend, tableName, partitionKey, rowKey);
  if (stored === READ_LATER) {
    const later = readLater<T>(backend, tableName, partitionKey, rowKey, call, select, build);
    if ((options as BuiltReadOptions | undefined)?.[READ_FAILURE] === undefined) return later;
    return later.catch((err: unknown) => failedRead(options, err, partitionKey, rowKey));
  }
  return Promise.resolve(foundEntity<T>(stored, partitionKey, rowKey, select, build));
}

/** The backend's synchronous answer (getNow), or READ_LATER: it has none now, or no getNow. */
function readNow(
  backend: TableBackend,
  tableName: string,
  partitionKey: string,
  rowKey: string,
): StoredEntity | undefined | typeof READ_LATER {
  if (backend.getNow === undefined) return READ_LATER;
  try {
    return backend.getNow(partitionKey, rowKey);
  } catch (err) {
    throw namingTheTable(err, tableName);
  }
}

async function readLater<T extends object>(
  backend: TableBackend,
  tableName: string,
  partitionKey: string,
  rowKey: string,
  call: CallOptions,
  select: string[] | undefined,
  build: EntityBuilder,
): Promise<TableEntityResult<T>> {
  let stored: StoredEntity | undefined;
  try {
    stored = await backend.get(partitionKey, rowKey, call);
  } catch (err) {
    throw namingTheTable(err, tableName);
  }
  return foundEntity<T>(stored, partitionKey, rowKey, select, build);
}

/** A point read's result: the entity as the caller sees it, or ResourceNotFound. */
function foundEntity<T extends object>(
  stored: StoredEntity | undefined,
  partitionKey: string,
  rowKey: string,
  select: string[] | undefined,
  build: EntityBuilder,
): TableEntityResult<T> {
  if (!stored) {
    throw new TableKitError("ResourceNotFound", "The specified resource does not exist.", {
      details: { partitionKey, rowKey },
    });
  }
  return build(stored, select) as TableEntityResult<T>;
}
