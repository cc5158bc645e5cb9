import type { BackendStore } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import type { DatabaseLease } from "./connection.js";
import { EmbeddedTables } from "./embedded-tables.js";

/** What `file:` and `memory:` open: one SQLite database, serving the table port. */
export class EmbeddedStore implements BackendStore {
  readonly tables: EmbeddedTables;

  constructor(
    private readonly lease: DatabaseLease,
    capabilities: Capabilities,
  ) {
    this.tables = new EmbeddedTables(lease, capabilities);
  }

  async close(): Promise<void> {
    this.tables.clear();
    this.lease.release();
  }
}
