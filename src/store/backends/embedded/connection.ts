import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { fileError } from "../../../model/file-error.js";
import { compareUtf16, TableKitError } from "../../../model/index.js";
import type { CommonStoreOptions } from "../../store-options.js";
import {
  THROTTLE_URL_PARAMETERS,
  type ThrottleOptions,
  type ThrottleProfile,
  throttleFromParameters,
} from "../../throttling/throttling.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { fromStoredKey, fromUtf16Hex } from "./table-key-order.js";

/**
 * Options of a `file:` or `memory:` store: those every store takes (`limits`), `throttle`, the
 * services' scalability targets (docs/throttling.md), and `pages`. The location is the URL:
 * `file:./data/app.db`, `memory:` (private) or `memory:NAME` (shared within the process), each
 * optionally followed by `?pages=partition` and the throttle parameters.
 */
export interface EmbeddedStoreOptions extends CommonStoreOptions {
  readonly throttle?: ThrottleOptions | ThrottleProfile;
  /**
   * Where a query page ends. `"fill"` (the default), as the service usually pages: up to the page
   * size (and the page time budget), across partitions. `"partition"`: also wherever the next
   * entity is of another partition, as the service may do at any partition boundary, for code
   * that wants its paging exercised (`capabilities.pageEndsAtPartitionBoundary`).
   */
  readonly pages?: PagePolicy;
}

export type PagePolicy = "fill" | "partition";

/** An embedded store's URL after the scheme: the database's location and the store's settings. */
export interface EmbeddedLocation {
  readonly location: string;
  readonly pages?: PagePolicy;
  readonly throttle?: ThrottleOptions;
}

const URL_PARAMETERS = ["pages", ...THROTTLE_URL_PARAMETERS];

/**
 * Splits `?pages=partition&throttle=azure…` off an embedded store's location: only when the text
 * after the last `?` starts with one of the parameters, so any other path is left alone. Unknown
 * parameters and values are InvalidStoreUrl.
 */
export function parseEmbeddedLocation(location: string): EmbeddedLocation {
  const at = location.lastIndexOf("?");
  if (at < 0 || !URL_PARAMETERS.some((name) => location.startsWith(`${name}=`, at + 1))) return { location };
  const params = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(location.slice(at + 1))) {
    if (!URL_PARAMETERS.includes(key)) {
      throw new TableKitError(
        "InvalidStoreUrl",
        `Unknown store URL parameter '${key}' (${URL_PARAMETERS.join(", ")})`,
      );
    }
    params.set(key, value);
  }
  const pages = params.get("pages");
  const throttle = throttleFromParameters(params);
  return {
    location: location.slice(0, at),
    ...(pages === undefined ? {} : { pages: checkPagePolicy(pages, "InvalidStoreUrl") }),
    ...(throttle === undefined ? {} : { throttle }),
  };
}

/** `"fill"` or `"partition"`; anything else is `code` (InvalidStoreUrl in a URL, InvalidInput as an option). */
export function checkPagePolicy(value: unknown, code: "InvalidStoreUrl" | "InvalidInput"): PagePolicy {
  if (value === "fill" || value === "partition") return value;
  throw new TableKitError(code, `pages must be "fill" or "partition", got ${JSON.stringify(value)}`, {
    details: { pages: value },
  });
}

export type Db = SqliteDatabase;

/** Bumped when the on-disk layout changes incompatibly. */
const FORMAT_VERSION = 1;

/**
 * How long a call waits for another connection's write lock before ServerBusy. The wait is
 * asynchronous and abortable (embedded-tables.ts): SQLite's own busy handler, which would block
 * the thread, is used only while a store opens.
 */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * Runs schema preparation (at open, or a port's tables on first use) with SQLite's busy handler
 * on: another process may hold the write lock, and these run outside the store's own lock wait.
 */
export function withBusyWait<T>(db: Db, work: () => T): T {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  try {
    return work();
  } finally {
    db.pragma("busy_timeout = 0");
  }
}

/**
 * Pragmas of a file store: write-ahead logging (readers never block the writer, several processes
 * can share the file) with `synchronous = NORMAL` (each commit is atomic and survives a crash of
 * the process; the last commits may be lost on power failure, never half-applied), checkpointed
 * every 4,000 pages (16 MiB at 4 KiB pages) instead of SQLite's 1,000: a page written many times
 * between checkpoints is copied once (docs/embedded.md), and the log still fits the first block of
 * SQLite's WAL index (4,062 frames), so finding a page in it costs no more.
 */
export const FILE_PRAGMAS = [
  "journal_mode = WAL",
  "synchronous = NORMAL",
  "wal_autocheckpoint = 4000",
] as const;

interface SharedMemory {
  readonly db: Db;
  refs: number;
}

/**
 * A test hook (test/store/embedded/statement-count.test.ts): while set, every database opened
 * afterwards reports the SQL of each statement it executes (better-sqlite3's `verbose`), so a test
 * can count what one call costs. Unset, it costs nothing: the option is not passed at all.
 */
let statementObserver: ((sql: string) => void) | undefined;

/** Sets (or, with undefined, clears) the observer of the statements of databases opened from now on. */
export function observeStatements(observer: ((sql: string) => void) | undefined): void {
  statementObserver = observer;
}

function verbose(): { verbose?: (sql: unknown) => void } {
  const observer = statementObserver;
  return observer ? { verbose: (sql) => observer(String(sql)) } : {};
}

/** Named in-memory databases, shared by every store of this process opened with the same name. */
const namedMemory = new Map<string, SharedMemory>();

/** An open database and how to let go of it. */
export interface DatabaseLease {
  readonly db: Db;
  release(): void;
}

/**
 * Opens (creating if needed) the database of a store: a file path, or an in-memory database
 * (`memory: true`; an empty name is private to the caller, a non-empty name is shared in-process).
 */
export function openDatabase(location: string, memory: boolean): DatabaseLease {
  if (memory) return openMemory(location);
  if (location === "")
    throw new TableKitError("InvalidStoreUrl", "file: needs a path, e.g. file:./data/app.db");
  const path = resolve(location);
  makeDirectories(dirname(path));
  let db: Db;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS, ...verbose() });
  } catch (err) {
    throw fileError(err, "open the database file", path);
  }
  try {
    for (const pragma of FILE_PRAGMAS) db.pragma(pragma);
    prepareSchema(db);
    db.pragma("busy_timeout = 0");
  } catch (err) {
    db.close();
    if (err instanceof TableKitError) throw err;
    if (/^SQLITE_(CANTOPEN|READONLY|PERM)/.test(String((err as { code?: unknown }).code)))
      throw fileError(err, "write the database file", path);
    throw new TableKitError("BackendError", `${path} is not a usable tablekit database`, { cause: err });
  }
  return { db, release: () => db.close() };
}

/**
 * Creates `dir` and its missing parents, one level at a time: `mkdirSync(…, { recursive: true })`
 * retries forever where mkdir fails with ENOENT under an existing parent (procfs does that).
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(at, { throwIfNoEntry: false });
    } catch (err) {
      throw fileError(err, "create the directory", dir);
    }
    if (stat) {
      if (!stat.isDirectory()) throw fileError({ code: "ENOTDIR" }, "create the directory", dir);
      break;
    }
    missing.push(at);
    if (dirname(at) === at) break;
    at = dirname(at);
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (err) {
      throw fileError(err, "create the directory", d);
    }
  }
}

function openMemory(name: string): DatabaseLease {
  const fresh = () => {
    const db: Db = new Database(":memory:", verbose());
    prepareSchema(db);
    return db;
  };
  if (name === "") {
    const db = fresh();
    return { db, release: () => db.close() };
  }
  let shared = namedMemory.get(name);
  if (!shared) {
    shared = { db: fresh(), refs: 0 };
    namedMemory.set(name, shared);
  }
  shared.refs++;
  const entry = shared;
  let released = false;
  return {
    db: entry.db,
    release: () => {
      if (released) return;
      released = true;
      if (--entry.refs === 0) {
        namedMemory.delete(name);
        entry.db.close();
      }
    },
  };
}

/** Creates the table catalogue once (concurrent openers serialize on the write lock). */
function prepareSchema(db: Db): void {
  registerFunctions(db);
  db.transaction(() => {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > FORMAT_VERSION) {
      throw new TableKitError(
        "NotSupported",
        `The database was written by a newer tablekit (format ${version}; this one reads ${FORMAT_VERSION})`,
      );
    }
    if (version === FORMAT_VERSION) return;
    // AUTOINCREMENT: a table id is never reused, so a stale id cached by another process can
    // only ever point at a dropped table, never at a different one.
    db.exec(`CREATE TABLE IF NOT EXISTS tk_tables (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      lname TEXT NOT NULL UNIQUE
    )`);
    db.pragma(`user_version = ${FORMAT_VERSION}`);
  }).immediate();
}

/** The SQL name of the entity table with this catalogue id. */
export function entityTableName(id: number): string {
  return `e_${id}`;
}

/**
 * One entity table: keys as the primary key of a WITHOUT ROWID table (rows are stored in key
 * order, so range reads are index range scans), properties as JSON, Timestamp ticks, ETag.
 */
export function createEntityTableSql(id: number): string {
  return `CREATE TABLE ${entityTableName(id)} (
    pk TEXT NOT NULL,
    rk TEXT NOT NULL,
    p TEXT NOT NULL,
    ts INTEGER NOT NULL,
    etag TEXT NOT NULL,
    PRIMARY KEY (pk, rk)
  ) WITHOUT ROWID`;
}

function registerFunctions(db: Db): void {
  let lastHex = "";
  let lastLiteral = "";
  // UTF-16 code-unit comparison for the rare literal where it differs from SQLite's code-point
  // order; the literal arrives as hex so lone surrogates survive the trip through SQLite.
  db.function("tk_cmp16", { deterministic: true }, (value: unknown, hex: unknown, storedKey: unknown) => {
    if (typeof value !== "string") return null;
    if (hex !== lastHex) {
      lastHex = hex as string;
      lastLiteral = fromUtf16Hex(lastHex);
    }
    return compareUtf16(storedKey ? fromStoredKey(value) : value, lastLiteral);
  });
}
