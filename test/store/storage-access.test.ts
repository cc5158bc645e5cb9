/**
 * Queue and Blob service tokens enforced by the core, as table tokens are: a store scoped by an
 * `AccessPolicy` refuses, before any write, every queue and blob operation the token does not
 * grant, on the resource it names only. Each rule is also tried from the side: another queue,
 * container or blob than the token's, a blob token on container operations, a create-only token
 * overwriting, an account token of another service, an anonymous caller on a private container.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessPolicy, openStore, type Store } from "../../src/index.js";
import { expectCode } from "../support/expect-code.js";

const LATER = new Date(Date.now() + 3_600_000);
let store: Store;

beforeAll(async () => {
  store = await openStore("memory:");
  await store.createQueue("jobs");
  await store.createQueue("other");
  await store.createContainer("pics");
  await store.createContainer("docs");
  await store.container("pics").getBlockBlobClient("a.txt").uploadData(Buffer.from("a"));
});
afterAll(() => store.close());

function queueToken(queueName: string, permissions: string): Store {
  return store.scoped(new AccessPolicy({ kind: "queue", queueName, permissions, expiresOn: LATER }));
}

function blobToken(containerName: string, permissions: string, blobName?: string): Store {
  return store.scoped(
    new AccessPolicy({
      kind: "blob",
      containerName,
      permissions,
      expiresOn: LATER,
      ...(blobName === undefined ? {} : { blobName }),
    }),
  );
}

function accountToken(services: string, resourceTypes: string, permissions: string): Store {
  return store.scoped(
    new AccessPolicy({ kind: "account", services, resourceTypes, permissions, expiresOn: LATER }),
  );
}

describe("queue tokens, enforced by the core", () => {
  it("a queue SAS with a (add) sends, and cannot receive, peek, clear or delete the queue", async () => {
    const scoped = queueToken("jobs", "a").queue("jobs");
    await scoped.sendMessage("hello");
    await expectCode(scoped.receiveMessages(), "AuthorizationPermissionMismatch");
    await expectCode(scoped.peekMessages(), "AuthorizationPermissionMismatch");
    // No service SAS clears a queue or deletes it, whatever its letters.
    await expectCode(
      queueToken("jobs", "raup").queue("jobs").clearMessages(),
      "AuthorizationPermissionMismatch",
    );
    await expectCode(queueToken("jobs", "raup").queue("jobs").delete(), "AuthorizationResourceTypeMismatch");
    expect((await store.queue("jobs").getProperties()).approximateMessagesCount).toBeGreaterThan(0);
  });

  it("a queue SAS reaches its own queue only", async () => {
    await expectCode(queueToken("jobs", "raup").queue("other").sendMessage("x"), "AuthorizationFailure");
    await expectCode(queueToken("jobs", "raup").queue("JOBS").peekMessages(), "AuthorizationFailure");
    expect((await store.queue("other").peekMessages()).peekedMessageItems).toHaveLength(0);
  });

  it("a queue SAS without p cannot take or delete a message another consumer holds", async () => {
    await store.queue("other").sendMessage("held");
    const [held] = (await store.queue("other").receiveMessages({ visibilityTimeout: 60 }))
      .receivedMessageItems;
    const scoped = queueToken("other", "rau").queue("other");
    await expectCode(
      scoped.deleteMessage(held!.messageId, held!.popReceipt),
      "AuthorizationPermissionMismatch",
    );
    await expectCode(scoped.receiveMessages(), "AuthorizationPermissionMismatch");
    await store.queue("other").deleteMessage(held!.messageId, held!.popReceipt);
  });

  it("an account SAS needs q in ss, the resource type and one of the letters", async () => {
    await expectCode(
      accountToken("b", "sco", "rwdlacup").queue("jobs").peekMessages(),
      "AuthorizationServiceMismatch",
    );
    await expectCode(
      accountToken("q", "sc", "rwdlacup").queue("jobs").peekMessages(),
      "AuthorizationResourceTypeMismatch",
    );
    await expectCode(
      accountToken("q", "o", "w").queue("jobs").peekMessages(),
      "AuthorizationPermissionMismatch",
    );
    await accountToken("q", "o", "r").queue("jobs").peekMessages();
    await expectCode(accountToken("q", "c", "r").listQueues().next(), "AuthorizationResourceTypeMismatch");
    expect((await accountToken("q", "s", "l").listQueues().next()).done).toBe(false);
  });

  it("no token but the key reads or sets a queue's stored access policies' operations (keyOnly)", () => {
    const policy = new AccessPolicy({
      kind: "account",
      services: "q",
      resourceTypes: "sco",
      permissions: "rwdlacup",
    });
    expect(() => policy.checkQueue("getAcl", "jobs")).toThrow(/permission/);
    const bearer = new AccessPolicy({ kind: "bearer", service: "queue" });
    expect(() => bearer.checkQueue("setAcl", "jobs")).toThrow(/account key/);
    expect(() => bearer.checkQueue("sendMessage", "jobs")).not.toThrow();
  });

  it("a queue token reaches no table and no container; a table token no queue", async () => {
    await expectCode(queueToken("jobs", "raup").table("Tab1").createTable(), "AuthorizationServiceMismatch");
    expect(() => queueToken("jobs", "raup").container("pics")).toThrow(/Queue service/);
    const tableToken = store.scoped(
      new AccessPolicy({
        kind: "table",
        tableName: "Tab1",
        permissions: { query: true, add: true, update: true, delete: true },
        keyRange: {},
      }),
    );
    expect(() => tableToken.queue("jobs")).toThrow(/Table service/);
  });
});

describe("blob tokens, enforced by the core", () => {
  it("a container SAS with r reads and cannot write, delete or list", async () => {
    const pics = blobToken("pics", "r").container("pics");
    expect((await pics.getBlobClient("a.txt").downloadToBuffer()).toString()).toBe("a");
    await expectCode(
      pics.getBlockBlobClient("b.txt").uploadData(Buffer.from("b")),
      "AuthorizationPermissionMismatch",
    );
    await expectCode(pics.getBlobClient("a.txt").delete(), "AuthorizationPermissionMismatch");
    await expectCode(pics.listBlobsFlat().next(), "AuthorizationPermissionMismatch");
    expect(await store.container("pics").getBlobClient("b.txt").exists()).toBe(false);
  });

  it("a container SAS reaches its own container only", async () => {
    const docs = blobToken("pics", "racwdl").container("docs");
    await expectCode(docs.getBlockBlobClient("x").uploadData(Buffer.from("x")), "AuthorizationFailure");
    await expectCode(docs.listBlobsFlat().next(), "AuthorizationFailure");
    expect(await store.container("docs").getBlobClient("x").exists()).toBe(false);
  });

  it("a blob SAS reaches its own blob only, and grants no container operation", async () => {
    const token = blobToken("pics", "racwdl", "a.txt");
    expect((await token.container("pics").getBlobClient("a.txt").getProperties()).contentLength).toBe(1);
    await expectCode(
      token.container("pics").getBlobClient("other.txt").getProperties(),
      "AuthorizationFailure",
    );
    await expectCode(token.container("pics").listBlobsFlat().next(), "AuthorizationResourceTypeMismatch");
    await expectCode(token.container("pics").getProperties(), "AuthorizationResourceTypeMismatch");
  });

  it("a create-only token (c without w) creates a new blob and never overwrites one", async () => {
    const pics = blobToken("pics", "c").container("pics");
    await pics.getBlockBlobClient("new.txt").uploadData(Buffer.from("first"));
    // The same write again meets a blob: refused as the permission it lacks, the blob untouched.
    await expectCode(
      pics.getBlockBlobClient("new.txt").uploadData(Buffer.from("second")),
      "AuthorizationPermissionMismatch",
    );
    // An ifMatch names a blob that exists: that is a rewrite, refused before any I/O.
    const { etag } = await store.container("pics").getBlobClient("new.txt").getProperties();
    await expectCode(
      pics.getBlockBlobClient("new.txt").uploadData(Buffer.from("third"), { conditions: { ifMatch: etag } }),
      "AuthorizationPermissionMismatch",
    );
    await expectCode(pics.getAppendBlobClient("new.txt").create(), "AuthorizationPermissionMismatch");
    expect((await store.container("pics").getBlobClient("new.txt").downloadToBuffer()).toString()).toBe(
      "first",
    );
  });

  it("blocks: staging needs w, or c for a blob that does not exist yet; the commit is create-only too", async () => {
    const id = Buffer.from("block-1").toString("base64");
    const reader = blobToken("pics", "r").container("pics").getBlockBlobClient("blocks.txt");
    await expectCode(reader.stageBlock(id, Buffer.from("x"), 1), "AuthorizationPermissionMismatch");
    const creator = blobToken("pics", "cr").container("pics").getBlockBlobClient("blocks.txt");
    await creator.stageBlock(id, Buffer.from("x"), 1);
    expect((await creator.getBlockList("all")).uncommittedBlocks).toHaveLength(1);
    await creator.commitBlockList([id]);
    // Now it exists: a create-only token neither stages for it nor commits over it.
    await expectCode(creator.stageBlock(id, Buffer.from("y"), 1), "AuthorizationPermissionMismatch");
    await store.container("pics").getBlockBlobClient("blocks.txt").stageBlock(id, Buffer.from("y"), 1);
    await expectCode(creator.commitBlockList([id]), "AuthorizationPermissionMismatch");
    expect((await store.container("pics").getBlobClient("blocks.txt").downloadToBuffer()).toString()).toBe(
      "x",
    );
  });

  it("no service SAS creates or deletes a container; an account SAS needs c and its letters", async () => {
    await expectCode(
      blobToken("fresh", "racwdl").container("fresh").create(),
      "AuthorizationResourceTypeMismatch",
    );
    await expectCode(
      accountToken("b", "o", "c").container("fresh").create(),
      "AuthorizationResourceTypeMismatch",
    );
    await expectCode(
      accountToken("b", "c", "r").container("fresh").create(),
      "AuthorizationPermissionMismatch",
    );
    await expectCode(accountToken("t", "c", "c").container("fresh").create(), "AuthorizationServiceMismatch");
    expect(await store.container("fresh").exists()).toBe(false);
    await accountToken("b", "c", "c").container("fresh").create();
    expect(await store.container("fresh").exists()).toBe(true);
  });

  it("an anonymous caller reads nothing of a private container and cannot write anywhere", async () => {
    const anonymous = store.scoped(new AccessPolicy({ kind: "anonymous" }));
    await expectCode(
      anonymous.container("pics").getBlobClient("a.txt").downloadToBuffer(),
      "ResourceNotFound",
    );
    await expectCode(anonymous.container("pics").listBlobsFlat().next(), "ResourceNotFound");
    await expectCode(
      anonymous.container("pics").getBlockBlobClient("z").uploadData(Buffer.from("z")),
      "AuthenticationFailed",
    );
    await expectCode(anonymous.container("pics").delete(), "AuthenticationFailed");
    await expectCode(anonymous.listContainers().next(), "AuthenticationFailed");
    expect(await store.container("pics").exists()).toBe(true);
  });

  it("public access levels: blob opens reads of blobs, container also the listing; never a write", () => {
    const anonymous = new AccessPolicy({ kind: "anonymous" });
    const blob = { container: "pics", blob: "a", publicAccess: "blob" } as const;
    const container = { container: "pics", publicAccess: "container" } as const;
    expect(() => anonymous.checkBlob("readBlob", blob)).not.toThrow();
    expect(() => anonymous.checkBlob("listBlobs", { ...blob, blob: undefined })).toThrow(/does not exist/);
    expect(() => anonymous.checkBlob("listBlobs", container)).not.toThrow();
    expect(() => anonymous.checkBlob("getContainerProperties", container)).not.toThrow();
    for (const op of [
      "writeBlob",
      "createBlob",
      "deleteBlob",
      "appendBlock",
      "setContainerMetadata",
    ] as const) {
      expect(() => anonymous.checkBlob(op, container)).toThrow(/authenticate/);
    }
  });

  it("an expired token is refused on every port", async () => {
    const past = new Date(Date.now() - 1000);
    const expired = store.scoped(
      new AccessPolicy({ kind: "queue", queueName: "jobs", permissions: "raup", expiresOn: past }),
    );
    await expectCode(expired.queue("jobs").peekMessages(), "AuthenticationFailed");
    const expiredBlob = store.scoped(
      new AccessPolicy({ kind: "blob", containerName: "pics", permissions: "r", expiresOn: past }),
    );
    await expectCode(
      expiredBlob.container("pics").getBlobClient("a.txt").getProperties(),
      "AuthenticationFailed",
    );
  });
});
