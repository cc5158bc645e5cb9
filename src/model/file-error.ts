import { TableKitError } from "./errors.js";
import { ownValue } from "./own.js";

/** The system's error codes a user meets with files, in words. */
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: "it does not exist",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EEXIST: "something else exists there",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
  SQLITE_CANTOPEN: "SQLite cannot open it",
  SQLITE_READONLY: "it is read-only",
  SQLITE_PERM: "permission denied",
};

/**
 * A file or directory named by the caller could not be read, written or created: the stable code
 * `FileNotAccessible`, the path and the reason in the message, the system's error as `cause`.
 *
 * @example fileError(err, "read", "orders.ndjson") // Cannot read orders.ndjson: it does not exist (ENOENT)
 */
export function fileError(cause: unknown, action: string, path: string): TableKitError {
  const code = (cause as { code?: unknown } | undefined)?.code;
  const known = typeof code === "string" ? ownValue(REASONS, code) : undefined;
  const reason = known
    ? `${known} (${code})`
    : typeof code === "string"
      ? code
      : ((cause as Error | undefined)?.message ?? String(cause));
  return new TableKitError("FileNotAccessible", `Cannot ${action} ${path}: ${reason}`, {
    cause,
    details: { path, ...(typeof code === "string" ? { reason: code } : {}) },
  });
}
