import { TableKitError } from "../../../model/index.js";

/** SQLite's error code, if `err` came from better-sqlite3. */
export function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** True when a statement failed because its table was dropped (by this or another process). */
export function isNoSuchTable(err: unknown): boolean {
  return sqliteCode(err) === "SQLITE_ERROR" && /no such table/i.test((err as Error).message);
}

/** True when another connection holds the lock the statement needs: worth waiting and retrying. */
export function isBusy(err: unknown): boolean {
  const code = sqliteCode(err);
  return code !== undefined && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** A TableKitError for anything a backend call threw; TableKitErrors pass through. */
export function toTableKitError(err: unknown): TableKitError {
  if (err instanceof TableKitError) return err;
  if (isBusy(err)) {
    return new TableKitError("ServerBusy", "The database is locked by another writer; retry later", {
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new TableKitError("BackendError", `Embedded engine error: ${message}`, { cause: err });
}
