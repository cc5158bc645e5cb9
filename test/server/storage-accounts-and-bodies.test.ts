/**
 * The Queue and Blob services with two accounts (as AZURITE_ACCOUNTS gives them): one account's
 * key or token reaches nothing of the other's, by its own URL or the other's; and malformed XML
 * bodies and bodies past the services' limits get the service's errors with nothing written.
 */
import { randomBytes } from "node:crypto";
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  generateAccountSASQueryParameters,
  StorageSharedKeyCredential,
} from "@azure/storage-queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StorageRequest, storageRequest, xmlValue } from "../support/raw-storage-client.js";
import { serveStorageAccounts } from "../support/tablekit-server.js";

const A = { name: "accounta", key: randomBytes(64).toString("base64") };
const B = { name: "accountb", key: randomBytes(64).toString("base64") };
let queueUrl: string;
let blobUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ queueUrl, blobUrl, stop } = await serveStorageAccounts([A, B]));
});
afterAll(() => stop?.());

type Who = { name: string; key: string };
/** `who` signs; the URL names `where` (by default `who`). */
const queue = (who: Who, r: StorageRequest, where: Who = who) =>
  storageRequest(queueUrl, { ...r, account: where.name, signer: where.name, key: who.key });
const blob = (who: Who, r: StorageRequest, where: Who = who) =>
  storageRequest(blobUrl, { ...r, account: where.name, signer: where.name, key: who.key });
const sasOf = (who: Who) =>
  generateAccountSASQueryParameters(
    {
      services: AccountSASServices.parse("bq").toString(),
      resourceTypes: AccountSASResourceTypes.parse("sco").toString(),
      permissions: AccountSASPermissions.parse("rwdlacup"),
      expiresOn: new Date(Date.now() + 3_600_000),
    },
    new StorageSharedKeyCredential(who.name, who.key),
  ).toString();
const message = (text: string) => `<QueueMessage><MessageText>${text}</MessageText></QueueMessage>`;
const count = async (who: Who, q: string) =>
  (await queue(who, { path: `${q}?comp=metadata` })).headers["x-ms-approximate-messages-count"];

describe("tablekit serve, Queue and Blob services: accounts are isolated", () => {
  it("A's queues and containers are not B's; B's key or token cannot reach them, by either URL", async () => {
    expect((await queue(A, { method: "PUT", path: "shared" })).status).toBe(201);
    expect((await queue(A, { method: "POST", path: "shared/messages", body: message("a") })).status).toBe(
      201,
    );
    expect((await blob(A, { method: "PUT", path: "box?restype=container" })).status).toBe(201);
    const put = { method: "PUT", path: "box/doc", headers: { "x-ms-blob-type": "BlockBlob" }, body: "a" };
    expect((await blob(A, put)).status).toBe(201);
    // By B's own URL, A's resources do not exist.
    expect((await queue(B, { path: "shared/messages?peekonly=true" })).code).toBe("QueueNotFound");
    expect((await blob(B, { path: "box/doc" })).code).toBe("ContainerNotFound");
    expect((await queue(B, { path: "?comp=list" })).text).not.toContain("<Name>shared</Name>");
    // By A's URL, B's key and B's token do not verify: every operation refused, nothing done.
    const sas = { sas: sasOf(B) };
    const attempts: StorageRequest[] = [
      { path: "shared/messages" },
      { method: "POST", path: "shared/messages", body: message("b") },
      { method: "DELETE", path: "shared/messages" },
      { method: "DELETE", path: "shared" },
    ];
    for (const r of attempts) {
      for (const refused of [await queue(B, r, A), await queue(B, { ...r, auth: sas }, A)]) {
        expect([refused.status, refused.code], `${r.method} ${r.path}`).toEqual([
          403,
          "AuthenticationFailed",
        ]);
      }
    }
    for (const r of [
      put,
      { path: "box/doc" },
      { method: "DELETE", path: "box/doc" },
      { path: "box?restype=container&comp=list" },
    ]) {
      for (const refused of [await blob(B, r, A), await blob(B, { ...r, auth: sas }, A)]) {
        expect([refused.status, refused.code], `${r.method} ${r.path}`).toEqual([
          403,
          "AuthenticationFailed",
        ]);
      }
    }
    expect(await count(A, "shared")).toBe("1");
    expect((await blob(A, { path: "box/doc" })).text).toBe("a");
    // A's token on B's URL: signed with A's key, refused there too.
    const cross = await queue(A, { method: "PUT", path: "other", auth: { sas: sasOf(A) } }, B);
    expect([cross.status, cross.code]).toEqual([403, "AuthenticationFailed"]);
    expect((await queue(B, { path: "other?comp=metadata" })).code).toBe("QueueNotFound");
  });
});

describe("tablekit serve, Queue and Blob services: bad bodies write nothing", () => {
  it("messages: malformed XML, a missing MessageText, and past 64 KiB are 400 with the service's codes", async () => {
    await queue(A, { method: "PUT", path: "bodies" });
    const send = (body: string) => queue(A, { method: "POST", path: "bodies/messages", body });
    for (const [body, code] of [
      ["<QueueMessage><MessageText>x</MessageText>", "InvalidXmlDocument"],
      ["not xml", "InvalidXmlDocument"],
      ["<QueueMessage></QueueMessage>", "InvalidXmlDocument"],
      [message("x".repeat(64 * 1024 + 1)), "RequestBodyTooLarge"],
    ] as const) {
      const r = await send(body);
      expect([r.status, r.code], body.slice(0, 40)).toEqual([
        code === "RequestBodyTooLarge" ? 413 : 400,
        code,
      ]);
    }
    expect(await count(A, "bodies")).toBe("0");
    // At the limit: 64 KiB of text is accepted.
    expect((await send(message("x".repeat(64 * 1024)))).status).toBe(201);
    // Update with a malformed body leaves the message as it was.
    const sent = await send(message("kept"));
    const id = xmlValue(sent.text, "MessageId")!;
    const receipt = encodeURIComponent(xmlValue(sent.text, "PopReceipt")!);
    const update = await queue(A, {
      method: "PUT",
      path: `bodies/messages/${id}?popreceipt=${receipt}&visibilitytimeout=0`,
      body: "<QueueMessage><MessageText>changed",
    });
    expect([update.status, update.code]).toEqual([400, "InvalidXmlDocument"]);
    const peek = await queue(A, { path: "bodies/messages?peekonly=true&numofmessages=32" });
    expect(peek.text).toContain("<MessageText>kept</MessageText>");
    expect(peek.text).not.toContain("changed");
  });

  it("ACLs and block lists: malformed XML is 400, the ACL and the blob stay as they were", async () => {
    const acl = await queue(A, {
      method: "PUT",
      path: "bodies?comp=acl",
      body: "<SignedIdentifiers><SignedIdentifier>",
    });
    expect([acl.status, acl.code]).toEqual([400, "InvalidXmlDocument"]);
    expect((await queue(A, { path: "bodies?comp=acl" })).text).not.toContain("<Id>");
    await blob(A, { method: "PUT", path: "lists?restype=container" });
    const containerAcl = await blob(A, {
      method: "PUT",
      path: "lists?restype=container&comp=acl",
      body: "<Signed",
    });
    expect([containerAcl.status, containerAcl.code]).toEqual([400, "InvalidXmlDocument"]);
    const list = await blob(A, {
      method: "PUT",
      path: "lists/doc?comp=blocklist",
      body: "<BlockList><Latest>",
    });
    expect([list.status, list.code]).toEqual([400, "InvalidXmlDocument"]);
    expect((await blob(A, { path: "lists/doc" })).code).toBe("BlobNotFound");
  });
});
