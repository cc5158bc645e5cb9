import { randomBytes } from "node:crypto";
import {
  type CoreStoreOptions,
  openStore,
  type Queue,
  type QueueCapabilities,
  type Store,
} from "../../../src/index.js";

/**
 * One queue backend under test, as the queue conformance suite sees it. The suite reads
 * `capabilities` and nothing else about the backend, so it runs UNCHANGED on every backend.
 */
export interface QueueTarget {
  /** For test titles only. */
  readonly name: string;
  readonly store: Store;
  readonly capabilities: QueueCapabilities;
  /** A new, empty, uniquely named queue; tests never share queues. */
  freshQueue(): Promise<Queue>;
  /** A valid, unique queue name not created yet; deleted by `dispose()` if a test created it. */
  freshQueueName(length?: number): string;
  /** Opens another store on the same backend (another "process"), with the core's options; the test closes it. */
  openStore(options?: CoreStoreOptions): Promise<Store>;
  /** How many messages the concurrency test sends through this backend (2,000 unless the setup says). */
  readonly concurrencyMessages: number;
  /** Deletes every queue this target created, then releases the store. */
  dispose(): Promise<void>;
}

export interface QueueSetup {
  readonly name: string;
  open(): Promise<QueueTarget>;
}

export interface QueueTargetOptions {
  /** Opens another store on the same backend, with the core's options. */
  readonly openStore: (options?: CoreStoreOptions) => Promise<Store>;
  /** Runs after the queues are deleted (close the store, stop a server). Default: `store.close()`. */
  readonly release?: () => Promise<void>;
  readonly concurrencyMessages?: number;
}

const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Builds a target over an open store whose `queueCapabilities` are set. */
export function queueTargetFromStore(name: string, store: Store, options: QueueTargetOptions): QueueTarget {
  const capabilities = store.queueCapabilities;
  if (!capabilities) throw new Error(`${name}: the store has no queue port`);
  const created = new Set<string>();
  const freshQueueName = (length = 20): string => {
    if (length < 3 || length > 63) throw new RangeError(`queue names have 3..63 characters, not ${length}`);
    let tail = "";
    for (const b of randomBytes(length - 1)) tail += LOWER[b % LOWER.length];
    const queueName = `q${tail}`;
    created.add(queueName);
    return queueName;
  };
  return {
    name,
    store,
    capabilities,
    freshQueueName,
    openStore: options.openStore,
    concurrencyMessages: options.concurrencyMessages ?? 2000,
    async freshQueue() {
      return store.createQueue(freshQueueName());
    },
    async dispose() {
      for (const queueName of created) await store.queue(queueName).deleteIfExists();
      created.clear();
      await (options.release ? options.release() : store.close());
    },
  };
}

/**
 * Starts a server, opens a store on the URL `urlOf(server)` gives, and returns a target whose
 * release closes the store and stops the server (also stopped when opening fails).
 */
export async function queueTargetOnServer<S extends { stop(): Promise<void> }>(
  name: string,
  start: () => Promise<S>,
  urlOf: (server: S) => string,
  options: { concurrencyMessages?: number } = {},
): Promise<QueueTarget> {
  const server = await start();
  try {
    const url = urlOf(server);
    const store = await openStore(url);
    return queueTargetFromStore(name, store, {
      ...options,
      openStore: (core) => openStore(url, core),
      release: async () => {
        await store.close();
        await server.stop();
      },
    });
  } catch (err) {
    await server.stop();
    throw err;
  }
}
