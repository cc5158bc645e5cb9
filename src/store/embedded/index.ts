import type { BackendFactory } from "../backend.js";
import { embeddedBlobCapabilities, embeddedCapabilities } from "./capabilities.js";
import { openDatabase } from "./database.js";
import { EmbeddedBlobService } from "./embedded-blob-service.js";
import { EmbeddedStore } from "./embedded-store.js";

/**
 * The embedded engine on SQLite: `file:PATH` (one database file, WAL, shared safely by several
 * processes) or `memory:` / `memory:NAME` (in memory; a name is shared within the process).
 * See docs/embedded.md.
 */
export const embeddedBackend: BackendFactory = async (location, options) => {
  const memory = options.memory === true;
  const lease = openDatabase(location, memory);
  const store = new EmbeddedStore(lease, embeddedCapabilities({ memory, limits: options.limits }));
  // The blob port shares the database (docs/blobs.md).
  return Object.assign(store, { blobs: new EmbeddedBlobService(lease.db, embeddedBlobCapabilities(memory)) });
};
