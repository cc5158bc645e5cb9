import type { Backend } from "../backend.js";
import { embeddedCapabilities, embeddedQueueCapabilities } from "./capabilities.js";
import { type DatabaseLease, type EmbeddedStoreOptions, openDatabase } from "./connection.js";
import { EmbeddedStore } from "./embedded-store.js";

export type { EmbeddedStoreOptions } from "./connection.js";

const optionKeys: Backend<EmbeddedStoreOptions>["optionKeys"] = {
  limits: true,
  queues: true,
  tableQueue: true,
};

/**
 * The embedded engine on SQLite, `file:PATH`: one database file, WAL, shared safely by several
 * processes. See docs/embedded.md.
 */
export const fileBackend: Backend<EmbeddedStoreOptions> = {
  optionKeys,
  async open(location, options) {
    return openEmbedded(openDatabase(location, false), false, options);
  },
};

/** The embedded engine in memory, `memory:` (private) or `memory:NAME` (shared within the process). */
export const memoryBackend: Backend<EmbeddedStoreOptions> = {
  optionKeys,
  async open(location, options) {
    return openEmbedded(openDatabase(location, true), true, options);
  },
};

function openEmbedded(lease: DatabaseLease, memory: boolean, options: EmbeddedStoreOptions): EmbeddedStore {
  try {
    return new EmbeddedStore(
      lease,
      embeddedCapabilities({ memory, limits: options.limits }),
      embeddedQueueCapabilities({ memory }),
    );
  } catch (err) {
    lease.release();
    throw err;
  }
}
