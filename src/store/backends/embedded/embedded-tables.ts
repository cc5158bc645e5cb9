import { tableNotFound } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendTableQuery, TableBackend, TableServiceBackend } from "../../tables/table-backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import type { DatabaseLease } from "./connection.js";
import { EmbeddedTable, type EmbeddedTableHost } from "./embedded-table.js";
import { isNoSuchTable } from "./errors.js";
import { withLockWait } from "./lock-wait.js";
import { EmbeddedResourceState } from "./resource-state.js";
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
  /** Stored access policies (by lower-cased name) and the Table service's properties. */
  readonly state: EmbeddedResourceState;

  constructor(
    private readonly lease: DatabaseLease,
    readonly capabilities: Capabilities,
  ) {
    this.catalogue = new EmbeddedTableCatalogue(lease.db);
    this.transaction = lease.db.transaction((work: () => unknown) => work());
    this.state = new EmbeddedResourceState(lease.db, {
      port: "table",
      key: (name) => name.toLowerCase(),
      exists: (name) => this.catalogue.lookup(name) !== undefined,
      notFound: (name) => tableNotFound(name),
      write: (call, work) => this.run(call, () => this.immediate(work)),
      read: (call, work) => this.run(call, () => this.transaction.deferred(work) as ReturnType<typeof work>),
    });
  }

  /** A new table starts without policies (a dropped one's never linger), in the transaction that creates it. */
  createTable(name: string, call: CallOptions): Promise<void> {
    return this.run(call, () => {
      this.forget(name);
      this.immediate(() => {
        this.catalogue.create(name);
        this.state.init(name, undefined);
      });
    });
  }

  deleteTable(name: string, call: CallOptions): Promise<void> {
    return this.run(call, () => {
      this.forget(name);
      this.immediate(() => {
        this.catalogue.drop(name);
        this.state.drop(name);
      });
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
