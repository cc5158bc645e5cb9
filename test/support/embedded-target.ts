import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { openStore } from "../../src/index.js";
import { type ConformanceTarget, targetFromStore } from "../conformance/factory.js";

/**
 * A target on the embedded engine: `memory:` (a named in-memory database, so another store of this
 * process can open the same data) or `file:PATH`, where another connection can hold the write lock
 * and other processes can open the store (`sharedUrl`); `pages` as the store option says.
 */
export async function embeddedTarget(
  name: string,
  where: { readonly file: string } | "memory",
  options: { readonly pages?: "fill" | "partition" } = {},
): Promise<ConformanceTarget & { sharedUrl?: string }> {
  const parameters = options.pages ? `?pages=${options.pages}` : "";
  const url = `${where === "memory" ? `memory:${randomUUID()}` : `file:${where.file}`}${parameters}`;
  const store = await openStore(url);
  const target = targetFromStore(name, store, {
    openAnother: () => openStore(url),
    ...(where === "memory" ? {} : { holdWriteLock: () => holdWriteLock(where.file) }),
  });
  return where === "memory" ? target : { ...target, sharedUrl: url };
}

/** Another connection takes the database's write lock, until the returned function is called. */
function holdWriteLock(path: string): () => void {
  const db = new Database(path);
  db.exec("BEGIN IMMEDIATE");
  return () => {
    db.exec("ROLLBACK");
    db.close();
  };
}
