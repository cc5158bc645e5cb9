import type { FilterNode } from "../../../filter/ast.js";
import { TableKitError, tableNotFound } from "../../../model/index.js";
import { createEntityTableSql, type Db, entityTableName } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";
import { decodeTableContinuation, encodeTableContinuation } from "./table-continuation.js";
import { filterToSql, type SqlLayout } from "./table-filter-translator.js";

/** Table listings filter on `TableName`, the name as created. */
const TABLE_LAYOUT: SqlLayout = {
  columns: { TableName: { column: "name", type: "String", storedKey: false } },
};

/**
 * The `tk_tables` catalogue: each table's name as created, its lower-cased name (names are
 * case-insensitive) and the id of its entity table `e_<id>`.
 */
export class EmbeddedTableCatalogue {
  private readonly lookupStatement: SqliteStatement;

  constructor(private readonly db: Db) {
    this.lookupStatement = db.prepare("SELECT id FROM tk_tables WHERE lname = ?").pluck(true);
  }

  /** The entity table id of a table, or undefined. */
  lookup(name: string): number | undefined {
    return this.lookupStatement.get(name.toLowerCase()) as number | undefined;
  }

  /** Creates the table; TableAlreadyExists when a table of that name exists in any case. */
  create(name: string): number {
    return this.db
      .transaction(() => {
        if (this.lookup(name) !== undefined) {
          throw new TableKitError("TableAlreadyExists", "The table specified already exists.", {
            details: { tableName: name },
          });
        }
        const id = this.db
          .prepare("INSERT INTO tk_tables (name, lname) VALUES (?, ?) RETURNING id")
          .pluck(true)
          .get(name, name.toLowerCase()) as number;
        this.db.exec(createEntityTableSql(id));
        return id;
      })
      .immediate();
  }

  /** Deletes the table and all its entities (a DROP, whatever the table's size); TableNotFound if absent. */
  drop(name: string): number {
    return this.db
      .transaction(() => {
        const id = this.lookup(name);
        if (id === undefined) throw tableNotFound(name);
        this.db.prepare("DELETE FROM tk_tables WHERE id = ?").run(id);
        this.db.exec(`DROP TABLE ${entityTableName(id)}`);
        return id;
      })
      .immediate();
  }

  /** One page of table names in case-insensitive order. */
  list(query: { filter?: FilterNode; maxPageSize: number; continuation?: string }): {
    names: string[];
    continuation?: string;
  } {
    const from = query.continuation === undefined ? "" : decodeTableContinuation(query.continuation);
    const filter = query.filter ? filterToSql(query.filter, TABLE_LAYOUT) : { sql: "1", params: [] };
    const rows = this.db
      .prepare(`SELECT name, lname FROM tk_tables WHERE lname >= ? AND ${filter.sql} ORDER BY lname LIMIT ?`)
      .raw(true)
      .all(from, ...filter.params, query.maxPageSize + 1) as [string, string][];
    const names = rows.slice(0, query.maxPageSize).map((r) => r[0]);
    const next = rows[query.maxPageSize];
    return next ? { names, continuation: encodeTableContinuation(next[1]) } : { names };
  }
}
