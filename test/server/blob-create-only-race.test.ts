/**
 * A create-only token (`c` without `w`) may create a blob but never overwrite one. The server asks
 * the core (no I/O) and the blob port writes with `ifNoneMatch: "*"` in the same backend call, so
 * there is no check-then-write window: a blob created by another writer after the request was
 * authorized and before its write wins, and the token's write answers what the service answers a
 * `c` token writing over an existing blob, 403 AuthorizationPermissionMismatch, changing nothing.
 * A hook on the request's scoped store forces that interleaving: the other writer creates the blob
 * the moment the server calls the port's write.
 */
import {
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import type { BlobContainer, Store } from "../../src/store/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";
import { type StorageRequest, storageRequest } from "../support/raw-storage-client.js";

const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
let endpoint: string;
let stop: () => Promise<void>;
/** Blob names whose first write through a scoped view lets another writer in first; each fires once. */
const interleave = new Map<string, () => Promise<void>>();
let fired = 0;
let served: Store;

const WRITES = new Set(["upload", "uploadStream", "create", "commitBlockList"]);

/** Wraps a view's containers so that a write of `name` runs its hook first. */
function hookView(view: Store): Store {
  const original = view.container.bind(view);
  view.container = (containerName: string): BlobContainer => {
    const container = original(containerName);
    return new Proxy(container, {
      get(target, prop, receiver) {
        if (prop !== "getBlockBlobClient" && prop !== "getAppendBlobClient") {
          return Reflect.get(target, prop, receiver);
        }
        const make = Reflect.get(target, prop, receiver) as (name: string) => object;
        return (name: string) => {
          const client = make.call(target, name);
          return new Proxy(client, {
            get(t, p, r) {
              const value = Reflect.get(t, p, r);
              if (typeof p !== "string" || !WRITES.has(p) || typeof value !== "function") return value;
              return async (...args: unknown[]) => {
                const other = interleave.get(name);
                if (other) {
                  interleave.delete(name);
                  await other();
                  fired++;
                }
                return (value as (...a: unknown[]) => Promise<unknown>).apply(t, args);
              };
            },
          });
        };
      },
    });
  };
  return view;
}

/** Every request with a token runs on `store.scoped(policy)`: hook the views it makes. */
function hook(store: Store): void {
  served = store;
  const scoped = store.scoped.bind(store);
  store.scoped = (access) => hookView(scoped(access));
}

beforeAll(async () => {
  const server = await startServer({
    port: 0,
    services: ["blob"],
    mounts: (store) => {
      hook(store);
      return [];
    },
  });
  endpoint = server.endpoints.blob!.url;
  stop = server.stop;
  expect((await call({ method: "PUT", path: "race?restype=container" })).status).toBe(201);
});
afterAll(() => stop?.());

const call = (request: StorageRequest) => storageRequest(endpoint, request);

function createOnlySas(): { sas: string } {
  const sas = generateBlobSASQueryParameters(
    {
      containerName: "race",
      permissions: ContainerSASPermissions.parse("c"),
      expiresOn: new Date(Date.now() + 3_600_000),
    },
    credential,
  ).toString();
  return { sas };
}

/** The other writer: creates `name` with the key, through the server, while the token's request waits. */
function otherWriterCreates(name: string, body: string): void {
  interleave.set(name, async () => {
    const put = await call({
      method: "PUT",
      path: `race/${name}`,
      headers: { "x-ms-blob-type": "BlockBlob" },
      body,
    });
    expect(put.status).toBe(201);
  });
}

/** The other writer is a library user of the same store: it creates `name` through the port, leaving the server's staged blocks alone. */
function portWriterCreates(name: string, body: string): void {
  interleave.set(name, async () => {
    await served.container("race").getBlockBlobClient(name).upload(body, Buffer.byteLength(body));
  });
}

async function content(name: string): Promise<string> {
  const got = await call({ path: `race/${name}` });
  expect(got.status).toBe(200);
  return got.text;
}

describe("a create-only SAS against a concurrent create", () => {
  it("Put Blob loses to a blob created after its authorization: 403, the other blob kept", async () => {
    otherWriterCreates("put-blob", "the other writer's");
    const before = fired;
    const put = await call({
      method: "PUT",
      path: "race/put-blob",
      headers: { "x-ms-blob-type": "BlockBlob" },
      body: "the token's",
      auth: createOnlySas(),
    });
    expect(fired).toBe(before + 1);
    expect([put.status, put.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    expect(await content("put-blob")).toBe("the other writer's");
  });

  it("an append blob's Put Blob loses the same way", async () => {
    otherWriterCreates("put-append", "kept");
    const before = fired;
    const put = await call({
      method: "PUT",
      path: "race/put-append",
      headers: { "x-ms-blob-type": "AppendBlob" },
      auth: createOnlySas(),
    });
    expect(fired).toBe(before + 1);
    expect([put.status, put.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    expect(await content("put-append")).toBe("kept");
  });

  it("Put Block List loses to a blob created after its authorization", async () => {
    const sas = createOnlySas();
    const id = Buffer.from("block-1").toString("base64");
    const staged = await call({
      method: "PUT",
      path: `race/put-list?comp=block&blockid=${encodeURIComponent(id)}`,
      body: "the token's block",
      auth: sas,
    });
    expect(staged.status).toBe(201);
    // Through the server, the other writer's Put Blob would discard the staged block (as the
    // service does), and the commit would fail on that instead; through the port it does not.
    portWriterCreates("put-list", "the other writer's");
    const before = fired;
    const commit = await call({
      method: "PUT",
      path: "race/put-list?comp=blocklist",
      body: `<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>${id}</Latest></BlockList>`,
      auth: sas,
    });
    expect(fired).toBe(before + 1);
    expect([commit.status, commit.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    expect(await content("put-list")).toBe("the other writer's");
  });

  it("without a concurrent writer the same token creates, and then cannot overwrite", async () => {
    const first = await call({
      method: "PUT",
      path: "race/alone",
      headers: { "x-ms-blob-type": "BlockBlob" },
      body: "first",
      auth: createOnlySas(),
    });
    expect(first.status).toBe(201);
    const again = await call({
      method: "PUT",
      path: "race/alone",
      headers: { "x-ms-blob-type": "BlockBlob" },
      body: "second",
      auth: createOnlySas(),
    });
    expect([again.status, again.code]).toEqual([403, "AuthorizationPermissionMismatch"]);
    expect(await content("alone")).toBe("first");
  });

  it("If-Match on a create-only write fails: the blob it names did not exist", async () => {
    const put = await call({
      method: "PUT",
      path: "race/if-match",
      headers: { "x-ms-blob-type": "BlockBlob", "if-match": "*" },
      body: "x",
      auth: createOnlySas(),
    });
    expect([put.status, put.code]).toEqual([412, "ConditionNotMet"]);
    expect((await call({ method: "HEAD", path: "race/if-match" })).status).toBe(404);
  });
});
