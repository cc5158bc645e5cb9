import { type Db, entityTableName } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

/** Past this many distinct query shapes per table, the oldest prepared statement is dropped. */
const MAX_CACHED_QUERIES = 128;

/**
 * One entity table of this process's connection: its SQL name and its prepared statements,
 * built on first use and reused (a statement is compiled once per table, not per call).
 */
export class EmbeddedTableStatements {
  readonly sqlName: string;
  private readonly queries = new Map<number | string, SqliteStatement>();
  private getStatement?: SqliteStatement;
  private insertStatement?: SqliteStatement;
  private updateStatement?: SqliteStatement;
  private deleteStatement?: SqliteStatement;
  private beginStatement?: SqliteStatement;
  private commitStatement?: SqliteStatement;

  constructor(
    readonly db: Db,
    readonly id: number,
  ) {
    this.sqlName = entityTableName(id);
  }

  /** `[p, ts, etag]` of one entity (ts as bigint). */
  get selectOne(): SqliteStatement {
    this.getStatement ??= this.db
      .prepare(`SELECT p, ts, etag FROM ${this.sqlName} WHERE pk = ? AND rk = ?`)
      .raw(true)
      .safeIntegers(true);
    return this.getStatement;
  }

  /** `(pk, rk, p, ts, etag)`. */
  get insertOne(): SqliteStatement {
    this.insertStatement ??= this.db.prepare(
      `INSERT INTO ${this.sqlName} (pk, rk, p, ts, etag) VALUES (?, ?, ?, ?, ?)`,
    );
    return this.insertStatement;
  }

  /** `(p, ts, etag, pk, rk)`. */
  get updateOne(): SqliteStatement {
    this.updateStatement ??= this.db.prepare(
      `UPDATE ${this.sqlName} SET p = ?, ts = ?, etag = ? WHERE pk = ? AND rk = ?`,
    );
    return this.updateStatement;
  }

  /** `(pk, rk)`. */
  get deleteOne(): SqliteStatement {
    this.deleteStatement ??= this.db.prepare(`DELETE FROM ${this.sqlName} WHERE pk = ? AND rk = ?`);
    return this.deleteStatement;
  }

  /** Opens a (deferred) read transaction: the following statements share one snapshot. */
  beginRead(): void {
    this.beginStatement ??= this.db.prepare("BEGIN");
    this.beginStatement.run();
  }

  /** Ends the read transaction of `beginRead`. */
  endRead(): void {
    this.commitStatement ??= this.db.prepare("COMMIT");
    this.commitStatement.run();
  }

  /** The query statement cached under `key` (table-query.ts), if any. */
  cachedQuery(key: number | string): SqliteStatement | undefined {
    return this.queries.get(key);
  }

  /**
   * Prepares `sql` (a query of this table, `sqlName`) and caches it under `key`. Rows come back as
   * arrays, integers as bigints.
   */
  prepareQuery(key: number | string, sql: string): SqliteStatement {
    const statement = this.db.prepare(sql).raw(true).safeIntegers(true);
    if (this.queries.size >= MAX_CACHED_QUERIES) this.queries.delete(this.queries.keys().next().value!);
    this.queries.set(key, statement);
    return statement;
  }
}
