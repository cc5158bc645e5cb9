import type { TableKitError } from "../../../model/index.js";
import type {
  InitialResourceState,
  PublicAccessLevel,
  ResourceMetadata,
  ResourceStateChange,
  StateBackend,
  StatePart,
  StoredResourceState,
  StoredServiceProperties,
} from "../../access/state-backend.js";
import type { StoredAccessPolicy } from "../../access/verify-sas.js";
import type { CallOptions } from "../../call-options.js";
import { type Db, withBusyWait } from "./connection.js";

/**
 * What the services keep beside tables, queues and containers, in the same SQLite database: one
 * row per resource that has metadata, public access or stored policies, and one per service's
 * properties. Created IF NOT EXISTS, so databases written before gain the tables on open. Rows are
 * written and dropped in the transaction of the create or delete they belong to.
 */
const STATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS tk_resource_state (
  port TEXT NOT NULL,
  name TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '[]',
  public_access TEXT,
  policies TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (port, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tk_service_properties (
  service TEXT PRIMARY KEY,
  properties TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tk_deleted_names (
  port TEXT NOT NULL,
  name TEXT NOT NULL,
  deleted INTEGER NOT NULL,
  PRIMARY KEY (port, name)
) WITHOUT ROWID;
`;

/**
 * Creates the state tables when any is missing (concurrent openers serialize on the write lock),
 * so a database made before one of them gains it on open.
 */
export function prepareStateSchema(db: Db): void {
  const present = db
    .prepare(
      `SELECT count(*) FROM sqlite_master WHERE type = 'table'
        AND name IN ('tk_resource_state', 'tk_service_properties', 'tk_deleted_names')`,
    )
    .pluck()
    .get() as number;
  if (present === 3) return;
  withBusyWait(db, () => db.transaction(() => db.exec(STATE_SCHEMA)).immediate());
}

/** How one port of the embedded store reaches its resources: existence, transactions, its NotFound. */
export interface EmbeddedStateHost {
  /** `tables`, `queues` or `blobs`: the rows' `port`, and the service properties' key. */
  readonly port: "table" | "queue" | "blob";
  /** The row key of a resource name (tables: lower-cased, their names ignore case). */
  key(name: string): string;
  /** True when the resource exists; called inside a transaction. */
  exists(name: string): boolean;
  notFound(name: string): TableKitError;
  /** Runs `work` holding the write lock (one IMMEDIATE transaction), waiting abortably for it. */
  write<T>(call: CallOptions, work: () => T): Promise<T>;
  /** Runs `work` as one read transaction. */
  read<T>(call: CallOptions, work: () => T): Promise<T>;
  /** Called in the transaction of a change (a container's ETag and Last-Modified move with its state). */
  changed?(name: string): void;
}

interface StateRow {
  metadata: string;
  public_access: string | null;
  policies: string;
}

/** The state of one port of an embedded store. */
export class EmbeddedResourceState implements StateBackend {
  private readonly sql;

  constructor(
    db: Db,
    private readonly host: EmbeddedStateHost,
  ) {
    this.sql = {
      get: db.prepare<[string, string], StateRow>(
        "SELECT metadata, public_access, policies FROM tk_resource_state WHERE port = ? AND name = ?",
      ),
      drop: db.prepare<[string, string]>("DELETE FROM tk_resource_state WHERE port = ? AND name = ?"),
      insert: db.prepare<[string, string, string, string | null]>(
        "INSERT INTO tk_resource_state (port, name, metadata, public_access) VALUES (?, ?, ?, ?)",
      ),
      setMetadata: db.prepare<[string, string, string]>(
        `INSERT INTO tk_resource_state (port, name, metadata) VALUES (?, ?, ?)
         ON CONFLICT (port, name) DO UPDATE SET metadata = excluded.metadata`,
      ),
      setAccess: db.prepare<[string, string, string | null, string]>(
        `INSERT INTO tk_resource_state (port, name, public_access, policies) VALUES (?, ?, ?, ?)
         ON CONFLICT (port, name) DO UPDATE SET public_access = excluded.public_access, policies = excluded.policies`,
      ),
      getProperties: db.prepare<[string], { properties: string }>(
        "SELECT properties FROM tk_service_properties WHERE service = ?",
      ),
      deletedOn: db.prepare<[string, string], { deleted: number }>(
        "SELECT deleted FROM tk_deleted_names WHERE port = ? AND name = ?",
      ),
      recordDeleted: db.prepare<[string, string, number]>(
        `INSERT INTO tk_deleted_names (port, name, deleted) VALUES (?, ?, ?)
         ON CONFLICT (port, name) DO UPDATE SET deleted = excluded.deleted`,
      ),
      forgetDeleted: db.prepare<[string, string]>("DELETE FROM tk_deleted_names WHERE port = ? AND name = ?"),
      setProperties: db.prepare<[string, string]>(
        `INSERT INTO tk_service_properties (service, properties) VALUES (?, ?)
         ON CONFLICT (service) DO UPDATE SET properties = excluded.properties`,
      ),
    };
  }

  /**
   * Forgets a resource's state and records when it was deleted (the deleted-name hold reads it);
   * call inside the transaction that deletes it.
   */
  drop(name: string): void {
    const key = this.host.key(name);
    this.sql.drop.run(this.host.port, key);
    this.sql.recordDeleted.run(this.host.port, key, Date.now());
  }

  /** A new resource's state (any leftover row dropped first); call inside the transaction that creates it. */
  init(name: string, initial: InitialResourceState | undefined): void {
    const key = this.host.key(name);
    this.sql.drop.run(this.host.port, key);
    this.sql.forgetDeleted.run(this.host.port, key);
    if (initial) {
      this.sql.insert.run(
        this.host.port,
        key,
        encodeMetadata(initial.metadata),
        initial.publicAccess ?? null,
      );
    }
  }

  /** The row as stored, or the empty state; call inside a transaction. */
  peek(name: string): StoredResourceState {
    const row = this.sql.get.get(this.host.port, this.host.key(name));
    if (!row) return { metadata: {}, policies: [] };
    return {
      metadata: decodeMetadata(row.metadata),
      ...(row.public_access ? { publicAccess: row.public_access as PublicAccessLevel } : {}),
      policies: JSON.parse(row.policies) as StoredAccessPolicy[],
    };
  }

  getState(name: string, _part: StatePart, call: CallOptions): Promise<StoredResourceState> {
    return this.host.read(call, () => {
      if (!this.host.exists(name)) throw this.host.notFound(name);
      return this.peek(name);
    });
  }

  setState(name: string, change: ResourceStateChange, call: CallOptions): Promise<void> {
    const { port } = this.host;
    const key = this.host.key(name);
    return this.host.write(call, () => {
      if (!this.host.exists(name)) throw this.host.notFound(name);
      if ("metadata" in change) this.sql.setMetadata.run(port, key, encodeMetadata(change.metadata));
      else {
        const { publicAccess, policies } = change.access;
        this.sql.setAccess.run(port, key, publicAccess ?? null, JSON.stringify(policies));
      }
      this.host.changed?.(name);
    });
  }

  deletedOn(name: string, call: CallOptions): Promise<Date | undefined> {
    return this.host.read(call, () => {
      const row = this.sql.deletedOn.get(this.host.port, this.host.key(name));
      return row ? new Date(row.deleted) : undefined;
    });
  }

  getServiceProperties(call: CallOptions): Promise<StoredServiceProperties> {
    return this.host.read(call, () => {
      const row = this.sql.getProperties.get(this.host.port);
      return row ? (JSON.parse(row.properties) as StoredServiceProperties) : {};
    });
  }

  setServiceProperties(properties: StoredServiceProperties, call: CallOptions): Promise<void> {
    return this.host.write(call, () => {
      this.sql.setProperties.run(this.host.port, JSON.stringify(properties));
    });
  }
}

/** Metadata as a JSON list of pairs: names keep their case and order, and no name is special. */
function encodeMetadata(metadata: Readonly<ResourceMetadata>): string {
  return JSON.stringify(Object.entries(metadata));
}

function decodeMetadata(text: string): ResourceMetadata {
  const out: ResourceMetadata = {};
  for (const [name, value] of JSON.parse(text) as [string, string][]) {
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
