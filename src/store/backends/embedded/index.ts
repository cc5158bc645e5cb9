import type { Backend, BackendStore } from "../../backend.js";
import { throttling } from "../../throttling/throttling.js";
import {
  checkPagePolicy,
  type EmbeddedStoreOptions,
  openDatabase,
  parseEmbeddedLocation,
} from "./connection.js";
import { EmbeddedStore } from "./embedded-store.js";
import { embeddedQueueCapabilities } from "./queue-capabilities.js";
import { embeddedCapabilities } from "./table-capabilities.js";

export type { EmbeddedStoreOptions } from "./connection.js";

const optionKeys: Backend<EmbeddedStoreOptions>["optionKeys"] = {
  limits: true,
  throttle: true,
  pages: true,
  queues: true,
  tableQueue: true,
  s3: true,
};

/**
 * Opens the database, wrapped in the throttling emulator when `?throttle=` or the option asks for
 * it; the URL's parameters take precedence over the options.
 */
async function open(location: string, options: EmbeddedStoreOptions, memory: boolean): Promise<BackendStore> {
  const parsed = parseEmbeddedLocation(location);
  const throttle = parsed.throttle ?? options.throttle;
  const pages =
    parsed.pages ?? (options.pages === undefined ? "fill" : checkPagePolicy(options.pages, "InvalidInput"));
  const throttled = throttle === undefined ? undefined : throttling(throttle); // bad settings fail first
  const lease = openDatabase(parsed.location, memory);
  let store: EmbeddedStore;
  try {
    const capabilities = embeddedCapabilities({ memory, limits: options.limits, pages });
    store = new EmbeddedStore(lease, capabilities, embeddedQueueCapabilities({ memory }));
  } catch (err) {
    lease.release();
    throw err;
  }
  return throttled ? throttled(store) : store;
}

/**
 * The embedded engine on SQLite, `file:PATH`: one database file, WAL, shared safely by several
 * processes. See docs/embedded.md.
 */
export const fileBackend: Backend<EmbeddedStoreOptions> = {
  optionKeys,
  open: (location, options) => open(location, options, false),
};

/** The embedded engine in memory, `memory:` (private) or `memory:NAME` (shared within the process). */
export const memoryBackend: Backend<EmbeddedStoreOptions> = {
  optionKeys,
  open: (location, options) => open(location, options, true),
};
