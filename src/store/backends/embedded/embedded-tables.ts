import { tableNotFound } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendTableQuery, TableBackend, TableServiceBackend } from "../../tables/table-backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import type { DatabaseLease } from "./connection.js";
import { EmbeddedTable, type EmbeddedTableHost } from "./embedded-table.js";
import { isNoSuchTable } from "./errors.js";
import { withLockWait } from "./lock-wait.js";
import type { SqliteTransaction } from "./sqlite-database.js";
import { EmbeddedTableCatalogue } from "./table-catalogue.js";
import { EmbeddedTableStatements } from "./table-statements.js";

/**
 * The tables of one SQLite database. Every call does its work synchronously inside one SQLite
 * transaction and never holds one across an `await`, so calls of one process never interleave and
 * other processes see each write whole. While another connection holds the lock a call needs, the
 * call waits asynchronously (abortably) and tries again, up to BUSY_TIMEOUT_MS.
 */
export class EmbeddedTables implements EmbeddedTableHost, TableServiceBackend {
  private readonly catalogue: EmbeddedTableCatalogue;
  /** Statements by lower-cased table name; an entry is dropped when its table may have gone. */
  private readonly statements = new Map<string, EmbeddedTableStatements>();
  private readonly transaction: SqliteTransaction<[work: () => unknown], unknown>;

  constructor(
    private readonly lease: DatabaseLease,
    readonly capabilities: Capabilities,
  ) {
    this.catalogue = new EmbeddedTableCatalogue(lease.db);
    this.transaction = lease.db.transaction((work: () => unknown) => work());
  }

  createTable(name: string, call: CallOptions): Promise<void> {
    return this.run(call, () => {
      this.forget(name);
      this.catalogue.create(name);
    });
  }

  deleteTable(name: string, call: CallOptions): Promise<void> {
    return this.run(call, () => {
      this.forget(name);
      this.catalogue.drop(name);
    });
  }

  listTables(
    query: BackendTableQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    return this.run(call, () => this.catalogue.list(query));
  }

  table(name: string): TableBackend {
    return new EmbeddedTable(this, name);
  }

  /** Drops the cached statements (the database is being closed). */
  clear(): void {
    this.statements.clear();
  }

  /** Runs `work`, waiting (abortably) while another connection holds the lock it needs. */
  run<T>(call: CallOptions, work: () => T): Promise<T> {
    return withLockWait(call, work);
  }

  /** Runs `work` in an IMMEDIATE transaction: it holds the write lock from the first read on. */
  immediate<T>(work: () => T): T {
    return this.transaction.immediate(work) as T;
  }

  /**
   * Runs `work` on the table's statements (`key`: its name lower-cased). If the table was dropped
   * meanwhile (by this store or another process), it is looked up again once: the name may now be
   * a new table.
   */
  withTable<T>(name: string, key: string, work: (h: EmbeddedTableStatements) => T): T {
    try {
      return work(this.statements.get(key) ?? this.lookup(name, key));
    } catch (err) {
      if (!isNoSuchTable(err)) throw err;
      this.forget(name);
    }
    try {
      return work(this.lookup(name, key));
    } catch (err) {
      if (!isNoSuchTable(err)) throw err;
      this.forget(name);
      throw tableNotFound(name);
    }
  }

  cachedStatements(key: string): EmbeddedTableStatements | undefined {
    return this.statements.get(key);
  }

  private lookup(name: string, key: string): EmbeddedTableStatements {
    let h = this.statements.get(key);
    if (h) return h;
    const id = this.catalogue.lookup(name);
    if (id === undefined) throw tableNotFound(name);
    h = new EmbeddedTableStatements(this.lease.db, id);
    this.statements.set(key, h);
    return h;
  }

  private forget(name: string): void {
    this.statements.delete(name.toLowerCase());
  }
}
