import type { BackendStore } from "../backend.js";
import type { Capabilities } from "../capabilities.js";
import { embeddedBlobCapabilities } from "./capabilities.js";
import type { DatabaseLease } from "./connection.js";
import { EmbeddedContainers } from "./embedded-containers.js";
import { EmbeddedTables } from "./embedded-tables.js";

/** What `file:` and `memory:` open: one SQLite database, serving the table and blob ports. */
export class EmbeddedStore implements BackendStore {
  readonly tables: EmbeddedTables;
  /** Blobs in the same database, bytes beside it (docs/blobs.md). */
  readonly blobs: EmbeddedContainers;

  constructor(
    private readonly lease: DatabaseLease,
    capabilities: Capabilities,
  ) {
    this.tables = new EmbeddedTables(lease, capabilities);
    this.blobs = new EmbeddedContainers(lease.db, embeddedBlobCapabilities(!capabilities.persistent));
  }

  async close(): Promise<void> {
    this.tables.clear();
    this.lease.release();
  }
}
