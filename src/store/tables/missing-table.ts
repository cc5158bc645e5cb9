import { TableKitError, tableNotFound } from "../../model/index.js";
import type { TableBackend } from "./table-backend.js";

/**
 * The error as the caller sees it: a TableNotFound from a backend or the service, which may not say
 * which table, names `tableName` (its index and details kept, the original as `cause`).
 */
export function namingTheTable(err: unknown, tableName: string): unknown {
  if (!(err instanceof TableKitError) || err.code !== "TableNotFound" || err.details.tableName === tableName)
    return err;
  const named = tableNotFound(tableName, { details: err.details, cause: err });
  return err.index === undefined ? named : named.withIndex(err.index);
}

/** `backend`, every TableNotFound it throws naming the table (`namingTheTable`). */
export function namingMissingTable(backend: TableBackend, tableName: string): TableBackend {
  const named = <T>(work: Promise<T>): Promise<T> =>
    work.catch((err: unknown) => {
      throw namingTheTable(err, tableName);
    });
  return {
    get: (partitionKey, rowKey, call) => named(backend.get(partitionKey, rowKey, call)),
    query: (query, call) => named(backend.query(query, call)),
    write: (action, call) => named(backend.write(action, call)),
    transact: (actions, call) => named(backend.transact(actions, call)),
  };
}
