import { TableKitError, tableNotFound } from "../../model/index.js";

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
