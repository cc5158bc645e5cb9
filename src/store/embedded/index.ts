import type { Backend } from "../backend.js";
import { embeddedCapabilities } from "./capabilities.js";
import { type EmbeddedStoreOptions, openDatabase } from "./connection.js";
import { EmbeddedStore } from "./embedded-store.js";

export type { EmbeddedStoreOptions } from "./connection.js";

const optionKeys: Backend<EmbeddedStoreOptions>["optionKeys"] = { limits: true };

/**
 * The embedded engine on SQLite, `file:PATH`: one database file, WAL, shared safely by several
 * processes. See docs/embedded.md.
 */
export const fileBackend: Backend<EmbeddedStoreOptions> = {
  optionKeys,
  async open(location, options) {
    const lease = openDatabase(location, false);
    return new EmbeddedStore(lease, embeddedCapabilities({ memory: false, limits: options.limits }));
  },
};

/** The embedded engine in memory, `memory:` (private) or `memory:NAME` (shared within the process). */
export const memoryBackend: Backend<EmbeddedStoreOptions> = {
  optionKeys,
  async open(location, options) {
    const lease = openDatabase(location, true);
    return new EmbeddedStore(lease, embeddedCapabilities({ memory: true, limits: options.limits }));
  },
};
