import { openStore, type StoreOptions } from "../../src/index.js";
import { type ConformanceTarget, targetFromStore } from "../conformance/factory.js";

/** A test server the harnesses start: its store URL, and how to stop it. */
export interface TestServer {
  readonly storeUrl: string;
  /** Options every store opened on this server needs (e.g. `emulator: false`). */
  readonly storeOptions?: StoreOptions;
  stop(): Promise<void>;
}

/**
 * Starts a server, opens a store on it and returns a conformance target whose release closes the
 * store and stops the server (which is also stopped if opening fails). `sharedUrl` lets suites open
 * more stores — other "processes" — on the same server.
 */
export async function targetOnServer(
  name: string,
  start: () => Promise<TestServer>,
): Promise<ConformanceTarget & { sharedUrl: string }> {
  const server = await start();
  try {
    const store = await openStore(server.storeUrl, server.storeOptions);
    const target = targetFromStore(name, store, {
      openAnother: () => openStore(server.storeUrl),
      release: async () => {
        await store.close();
        await server.stop();
      },
    });
    return { ...target, sharedUrl: server.storeUrl };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
