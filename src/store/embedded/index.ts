import type { BackendFactory } from "../backend.js";
import { embeddedCapabilities, embeddedQueueCapabilities } from "./capabilities.js";
import { openDatabase } from "./database.js";
import { EmbeddedQueues } from "./embedded-queues.js";
import { EmbeddedStore } from "./embedded-store.js";

/**
 * The embedded engine on SQLite: `file:PATH` (one database file, WAL, shared safely by several
 * processes) or `memory:` / `memory:NAME` (in memory; a name is shared within the process).
 * See docs/embedded.md.
 */
export const embeddedBackend: BackendFactory = async (location, options) => {
  const memory = options.memory === true;
  const lease = openDatabase(location, memory);
  try {
    const queues = new EmbeddedQueues(lease.db, embeddedQueueCapabilities({ memory }));
    return new EmbeddedStore(lease, embeddedCapabilities({ memory, limits: options.limits }), queues);
  } catch (err) {
    lease.release();
    throw err;
  }
};
