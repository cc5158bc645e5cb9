import type { Transaction } from "better-sqlite3";
import type { BackendStore, BackendTable, BackendTableQuery, CallOptions } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import type { QueueServiceBackend } from "../queue-backend.js";
import type { DatabaseLease } from "./database.js";
import { EmbeddedTable } from "./embedded-table.js";
import { isNoSuchTable, throwIfAborted, toTableKitError } from "./errors.js";
import { TableCatalogue, tableNotFound } from "./table-catalogue.js";
import { TableHandle } from "./table-handle.js";

/**
 * A store on one SQLite database. Every call does its work synchronously inside one SQLite
 * transaction and never holds one across an `await`, so calls of one process never interleave
 * and other processes see each write whole.
 */
export class EmbeddedStore implements BackendStore {
  private readonly catalogue: TableCatalogue;
  /** Handles by lower-cased table name; an entry is dropped when its table may have gone. */
  private readonly handles = new Map<string, TableHandle>();
  private readonly transaction: Transaction<(work: () => unknown) => unknown>;

  constructor(
    private readonly lease: DatabaseLease,
    readonly capabilities: Capabilities,
    /** The queues in the same database (docs/queues.md). */
    readonly queues?: QueueServiceBackend,
  ) {
    this.catalogue = new TableCatalogue(lease.db);
    this.transaction = lease.db.transaction((work: () => unknown) => work());
  }

  async createTable(name: string, options: CallOptions): Promise<void> {
    throwIfAborted(options);
    this.forget(name);
    guard(() => this.catalogue.create(name));
  }

  async deleteTable(name: string, options: CallOptions): Promise<void> {
    throwIfAborted(options);
    this.forget(name);
    guard(() => this.catalogue.drop(name));
  }

  async listTables(
    query: BackendTableQuery,
    options: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    throwIfAborted(options);
    return guard(() => this.catalogue.list(query));
  }

  table(name: string): BackendTable {
    return new EmbeddedTable(this, name);
  }

  async close(): Promise<void> {
    this.handles.clear();
    this.lease.release();
  }

  /** Runs `work` in an IMMEDIATE transaction: it holds the write lock from the first read on. */
  immediate<T>(work: () => T): T {
    return this.transaction.immediate(work) as T;
  }

  /**
   * Runs `work` on the table's handle. If the table was dropped meanwhile (by this store or another
   * process), the handle is looked up again once: the name may now be a new table.
   */
  withTable<T>(name: string, work: (h: TableHandle) => T): T {
    try {
      return work(this.handle(name));
    } catch (err) {
      if (!isNoSuchTable(err)) throw toTableKitError(err);
      this.forget(name);
    }
    try {
      return work(this.handle(name));
    } catch (err) {
      if (!isNoSuchTable(err)) throw toTableKitError(err);
      this.forget(name);
      throw tableNotFound(name);
    }
  }

  private handle(name: string): TableHandle {
    const key = name.toLowerCase();
    let h = this.handles.get(key);
    if (h) return h;
    const id = guard(() => this.catalogue.lookup(name));
    if (id === undefined) throw tableNotFound(name);
    h = new TableHandle(this.lease.db, id);
    this.handles.set(key, h);
    return h;
  }

  private forget(name: string): void {
    this.handles.delete(name.toLowerCase());
  }
}

/** Runs `work`, turning SQLite's errors into TableKitErrors. */
function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw toTableKitError(err);
  }
}
