import { randomBytes } from "node:crypto";
import type { Capabilities, Store, Table } from "../../src/index.js";

/**
 * One backend under test, as the conformance suite sees it. The suite never asks which backend it
 * is talking to: it reads `capabilities` and nothing else, so it runs UNCHANGED on every backend.
 */
export interface ConformanceTarget {
  /** For test titles only. */
  readonly name: string;
  readonly store: Store;
  readonly capabilities: Capabilities;
  /** Creates a new, empty, uniquely named table; tests never share tables. */
  freshTable(): Promise<Table>;
  /**
   * A valid, unique table name that does not exist yet (for tests of table management). It is
   * remembered and deleted by `dispose()` if a test created it.
   */
  freshTableName(length?: number): string;
  /** Opens another store on the same data (its own connection or client), for a test that closes it. */
  openAnother(): Promise<Store>;
  /**
   * Where a call does not otherwise wait (the embedded engine works synchronously), makes writes
   * wait: another connection takes the write lock until the returned function releases it.
   * Absent where every call waits on I/O anyway (a server).
   */
  holdWriteLock?(): () => void;
  /** Deletes every table this target created, then releases the store. */
  dispose(): Promise<void>;
}

/** How a test file hands a backend to `runConformance`. */
export interface ConformanceSetup {
  /** For the suite's title only. */
  readonly name: string;
  /** Opens the store (starting a server first if needed); called once, before the tests. */
  open(): Promise<ConformanceTarget>;
}

export interface TargetOptions {
  /** Opens another store on the same data (ConformanceTarget.openAnother). */
  readonly openAnother: () => Promise<Store>;
  /** ConformanceTarget.holdWriteLock. */
  readonly holdWriteLock?: () => () => void;
  /** Runs after the tables are deleted (close the store, stop a server). Default: `store.close()`. */
  readonly release?: () => Promise<void>;
}

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** `length` random letters and digits. */
export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return out;
}

/**
 * Builds a target over an open store. Table names are `t` + random letters and digits, so suites
 * stay isolated even on a server other runs share; `dispose()` deletes only what it created.
 */
export function targetFromStore(name: string, store: Store, options: TargetOptions): ConformanceTarget {
  const created = new Set<string>();
  const freshTableName = (length = 16): string => {
    if (length < 3 || length > 63) throw new RangeError(`table names have 3..63 characters, not ${length}`);
    const tableName = `t${randomAlphanumeric(length - 1)}`;
    created.add(tableName);
    return tableName;
  };
  return {
    name,
    store,
    capabilities: store.capabilities,
    freshTableName,
    openAnother: options.openAnother,
    ...(options.holdWriteLock ? { holdWriteLock: options.holdWriteLock } : {}),
    async freshTable() {
      const tableName = freshTableName();
      await store.createTable(tableName);
      return store.table(tableName);
    },
    async dispose() {
      // Most names were deleted by their test, or never created: deleting them again is no error.
      for (const tableName of created) await store.deleteTable(tableName);
      created.clear();
      await (options.release ? options.release() : store.close());
    },
  };
}
