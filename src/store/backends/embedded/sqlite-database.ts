/**
 * The slice of better-sqlite3 the embedded engine uses, declared structurally (as the cloud SDKs'
 * slices are) so the published declarations type-check without better-sqlite3's dev-only typings.
 * `openDatabase` assigns a real better-sqlite3 `Database` to `SqliteDatabase`: the compiler checks
 * the slice against the library.
 */
export interface SqliteDatabase {
  readonly name: string;
  readonly memory: boolean;
  readonly inTransaction: boolean;
  // biome-ignore lint/complexity/noBannedTypes: better-sqlite3's own constraint (named parameters as one object)
  prepare<Params extends unknown[] | {} = unknown[], Row = unknown>(
    source: string,
  ): Params extends unknown[] ? SqliteStatement<Params, Row> : SqliteStatement<[Params], Row>;
  transaction<Args extends unknown[], Result>(fn: (...args: Args) => Result): SqliteTransaction<Args, Result>;
  exec(source: string): this;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  function(
    name: string,
    options: { deterministic?: boolean },
    implementation: (...args: never[]) => unknown,
  ): this;
  close(): this;
}

/** A prepared statement: positional parameters `Params`, rows of type `Row`. */
export interface SqliteStatement<Params extends unknown[] = unknown[], Row = unknown> {
  run(...params: Params): { changes: number; lastInsertRowid: number | bigint };
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
  pluck(toggle?: boolean): this;
  raw(toggle?: boolean): this;
  safeIntegers(toggle?: boolean): this;
}

/** `db.transaction(fn)`: `fn` wrapped in a transaction, called as it is or in one of the begin modes. */
export interface SqliteTransaction<Args extends unknown[], Result> {
  (...args: Args): Result;
  deferred(...args: Args): Result;
  immediate(...args: Args): Result;
  exclusive(...args: Args): Result;
}
