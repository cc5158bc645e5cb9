import type { BackendStore } from "../../backend.js";
import type { QueueCapabilities } from "../../queues/queue-capabilities.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import { embeddedBlobCapabilities } from "./blob-capabilities.js";
import type { DatabaseLease } from "./connection.js";
import { EmbeddedContainers } from "./embedded-containers.js";
import { EmbeddedQueues } from "./embedded-queues.js";
import { EmbeddedTables } from "./embedded-tables.js";
import { prepareStateSchema } from "./resource-state.js";

/** What `file:` and `memory:` open: one SQLite database, serving the table, queue and blob ports. */
export class EmbeddedStore implements BackendStore {
  readonly tables: EmbeddedTables;
  readonly queues: EmbeddedQueues;
  /** Blobs in the same database, bytes beside it (docs/blobs.md). */
  readonly blobs: EmbeddedContainers;

  constructor(
    private readonly lease: DatabaseLease,
    capabilities: Capabilities,
    queueCapabilities: QueueCapabilities,
  ) {
    prepareStateSchema(lease.db);
    this.tables = new EmbeddedTables(lease, capabilities);
    this.queues = new EmbeddedQueues(lease.db, queueCapabilities);
    this.blobs = new EmbeddedContainers(lease.db, embeddedBlobCapabilities(!capabilities.persistent));
  }

  async close(): Promise<void> {
    this.tables.clear();
    this.lease.release();
  }
}
