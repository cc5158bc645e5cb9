import { afterAll, beforeAll, describe } from "vitest";
import type { BlobCapabilities, BlobContainer, CoreStoreOptions, Store } from "../../../src/index.js";
import { randomAlphanumeric } from "../factory.js";

/**
 * One blob backend under test. Suites read `capabilities` and nothing else about the backend, so
 * they run UNCHANGED on every backend of the blob port.
 */
export interface BlobTarget {
  readonly name: string;
  readonly store: Store;
  readonly capabilities: BlobCapabilities;
  /** A new, empty, uniquely named container; tests never share containers. */
  freshContainer(): Promise<BlobContainer>;
  /** A unique valid container name that does not exist yet (deleted by `dispose()` if created). */
  freshContainerName(): string;
  /** Opens another store on the same data (another "process") with the core's options; the test closes it. */
  openStore?(options?: CoreStoreOptions): Promise<Store>;
  /** Deletes every container this target named, then releases the store (and its server). */
  dispose(): Promise<void>;
}

export interface BlobSetup {
  readonly name: string;
  open(): Promise<BlobTarget>;
}

/** A target over an open store; `release` runs after the containers are deleted (default: close). */
export function blobTargetFromStore(
  name: string,
  store: Store,
  release?: () => Promise<void>,
  reopen?: (options?: CoreStoreOptions) => Promise<Store>,
): BlobTarget {
  const caps = store.blobCapabilities;
  if (!caps) throw new Error(`${name} has no blob port`);
  const created = new Set<string>();
  const freshContainerName = () => {
    const n = `c${randomAlphanumeric(14).toLowerCase()}`;
    created.add(n);
    return n;
  };
  return {
    name,
    store,
    capabilities: caps,
    freshContainerName,
    ...(reopen ? { openStore: reopen } : {}),
    async freshContainer() {
      return store.createContainer(freshContainerName());
    },
    async dispose() {
      for (const n of created) await store.container(n).deleteIfExists();
      created.clear();
      await (release ? release() : store.close());
    },
  };
}

/**
 * Starts a server, opens a store on it and returns a target whose release closes the store and
 * stops the server (also stopped if opening fails).
 */
export async function blobTargetOnServer<S extends { stop(): Promise<void> }>(
  name: string,
  start: () => Promise<S>,
  open: (server: S, options?: CoreStoreOptions) => Promise<Store>,
): Promise<BlobTarget> {
  const server = await start();
  try {
    const store = await open(server);
    return blobTargetFromStore(
      name,
      store,
      async () => {
        await store.close();
        await server.stop();
      },
      (options) => open(server, options),
    );
  } catch (err) {
    await server.stop();
    throw err;
  }
}

export type BlobSuite = (target: () => BlobTarget) => void;

/** Registers every blob suite for one backend: opens it before the tests, disposes of it after. */
export function registerBlobSuites(setup: BlobSetup, suites: readonly BlobSuite[]): void {
  describe(`blob conformance: ${setup.name}`, () => {
    let target: BlobTarget | undefined;
    beforeAll(async () => {
      target = await setup.open();
    });
    afterAll(async () => {
      await target?.dispose();
    });
    const ref = () => {
      if (!target) throw new Error(`the blob target ${setup.name} did not open`);
      return target;
    };
    for (const suite of suites) suite(ref);
  });
}

/** `n` bytes of a position-dependent pattern from `offset` (so a shifted or truncated read shows). */
export function patternBytes(n: number, seed = 0, offset = 0): Buffer {
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) {
    const at = offset + i;
    out[i] = (at * 31 + seed + Math.floor(at / 251)) & 0xff;
  }
  return out;
}

/** The same bytes as `patternBytes(total, seed)`, generated chunk by chunk as they are read. */
export async function* patternStream(total: number, chunk = 64 * 1024, seed = 0): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < total; at += chunk) yield patternBytes(Math.min(chunk, total - at), seed, at);
}

/** Reads a whole stream into one Buffer. */
export async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Collects an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const i of items) out.push(i);
  return out;
}

/** The promise's TableKitError code, or "ok". */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}
