/**
 * The Queue and Blob services with two accounts, every operation: B's key against A's URL is
 * refused for each (queues, messages, containers, blobs, blocks, metadata, ACLs, service
 * properties, the secondary's stats), whichever account the Authorization header names, and with
 * A's name written in another case; none of it changes anything of A's.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StorageRequest, storageRequest, xmlValue } from "../support/raw-storage-client.js";
import { serveStorageAccounts } from "../support/tablekit-server.js";

const A = { name: "accounta", key: randomBytes(64).toString("base64") };
const B = { name: "accountb", key: randomBytes(64).toString("base64") };
let queueUrl: string;
let blobUrl: string;
let stop: () => Promise<void>;
let message: { id: string; receipt: string };

const asA = (url: string, r: StorageRequest) => storageRequest(url, { ...r, account: A.name, key: A.key });
const xml = { "content-type": "application/xml" };
const meta = { "x-ms-meta-owner": "b" };
const queueMessage = (text: string) => `<QueueMessage><MessageText>${text}</MessageText></QueueMessage>`;
const SERVICE_PROPERTIES =
  '<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors><CorsRule><AllowedOrigins>https://b.example</AllowedOrigins><AllowedMethods>GET</AllowedMethods><MaxAgeInSeconds>5</MaxAgeInSeconds><ExposedHeaders></ExposedHeaders><AllowedHeaders></AllowedHeaders></CorsRule></Cors></StorageServiceProperties>';
const ACL =
  '<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>policyb</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>';

beforeAll(async () => {
  ({ queueUrl, blobUrl, stop } = await serveStorageAccounts([A, B]));
  expect((await asA(queueUrl, { method: "PUT", path: "ledger" })).status).toBe(201);
  const sent = await asA(queueUrl, { method: "POST", path: "ledger/messages", body: queueMessage("a") });
  message = { id: xmlValue(sent.text, "MessageId")!, receipt: xmlValue(sent.text, "PopReceipt")! };
  expect((await asA(blobUrl, { method: "PUT", path: "vault?restype=container" })).status).toBe(201);
  const block = { "x-ms-blob-type": "BlockBlob" };
  expect((await asA(blobUrl, { method: "PUT", path: "vault/doc", headers: block, body: "a" })).status).toBe(
    201,
  );
  const append = { "x-ms-blob-type": "AppendBlob" };
  expect((await asA(blobUrl, { method: "PUT", path: "vault/log", headers: append })).status).toBe(201);
});
afterAll(() => stop?.());

/** Every Queue service operation on A's queue `ledger` and its message. */
function queueOperations(): StorageRequest[] {
  const receipt = encodeURIComponent(message.receipt);
  return [
    { path: "?comp=list" },
    { method: "PUT", path: "intruder" },
    { method: "DELETE", path: "ledger" },
    { path: "ledger?comp=metadata" },
    { method: "PUT", path: "ledger?comp=metadata", headers: meta },
    { path: "ledger?comp=acl" },
    { method: "PUT", path: "ledger?comp=acl", body: ACL, headers: xml },
    { method: "POST", path: "ledger/messages", body: queueMessage("b") },
    { path: "ledger/messages" },
    { path: "ledger/messages?peekonly=true" },
    { method: "DELETE", path: "ledger/messages" },
    { method: "DELETE", path: `ledger/messages/${message.id}?popreceipt=${receipt}` },
    {
      method: "PUT",
      path: `ledger/messages/${message.id}?popreceipt=${receipt}&visibilitytimeout=0`,
      body: queueMessage("b"),
    },
    { path: "?restype=service&comp=properties" },
    { method: "PUT", path: "?restype=service&comp=properties", body: SERVICE_PROPERTIES, headers: xml },
  ];
}

/** Every Blob service operation on A's container `vault`, its block blob `doc` and append blob `log`. */
function blobOperations(): StorageRequest[] {
  return [
    { path: "?comp=list" },
    { method: "PUT", path: "intruder?restype=container" },
    { method: "DELETE", path: "vault?restype=container" },
    { path: "vault?restype=container" },
    { path: "vault?restype=container&comp=metadata" },
    { method: "PUT", path: "vault?restype=container&comp=metadata", headers: meta },
    { path: "vault?restype=container&comp=acl" },
    { method: "PUT", path: "vault?restype=container&comp=acl", body: ACL, headers: xml },
    { path: "vault?restype=container&comp=list" },
    { method: "PUT", path: "vault/doc", headers: { "x-ms-blob-type": "BlockBlob" }, body: "b" },
    { method: "PUT", path: "vault/new", headers: { "x-ms-blob-type": "BlockBlob" }, body: "b" },
    { path: "vault/doc" },
    { method: "HEAD", path: "vault/doc" },
    { method: "DELETE", path: "vault/doc" },
    { method: "PUT", path: "vault/doc?comp=metadata", headers: meta },
    { method: "PUT", path: "vault/doc?comp=properties", headers: { "x-ms-blob-content-type": "text/x-b" } },
    {
      method: "PUT",
      path: `vault/doc?comp=block&blockid=${Buffer.from("b1").toString("base64")}`,
      body: "b",
    },
    { method: "PUT", path: "vault/doc?comp=blocklist", body: "<BlockList></BlockList>", headers: xml },
    { path: "vault/doc?comp=blocklist&blocklisttype=all" },
    { method: "PUT", path: "vault/log?comp=appendblock", body: "b" },
    { path: "?restype=service&comp=properties" },
    { method: "PUT", path: "?restype=service&comp=properties", body: SERVICE_PROPERTIES, headers: xml },
  ];
}

/** Everything of A's, read with A's key: compared before and after B's attempts. */
async function stateOfA(): Promise<string[]> {
  const reads: [string, StorageRequest][] = [
    [queueUrl, { path: "?comp=list&include=metadata" }],
    [queueUrl, { path: "ledger?comp=metadata" }],
    [queueUrl, { path: "ledger?comp=acl" }],
    [queueUrl, { path: "ledger/messages?peekonly=true&numofmessages=32" }],
    [queueUrl, { path: "?restype=service&comp=properties" }],
    [blobUrl, { path: "?comp=list&include=metadata" }],
    [blobUrl, { path: "vault?restype=container&comp=acl" }],
    [blobUrl, { path: "vault?restype=container&comp=list&include=metadata" }],
    [blobUrl, { path: "vault/doc" }],
    [blobUrl, { path: "vault/doc?comp=blocklist&blocklisttype=committed" }],
    [blobUrl, { path: "vault/log" }],
    [blobUrl, { path: "?restype=service&comp=properties" }],
  ];
  const out: string[] = [];
  for (const [url, r] of reads) {
    const response = await asA(url, r);
    const headers = ["x-ms-approximate-messages-count", "x-ms-meta-owner", "content-type", "etag"]
      .map((h) => `${h}=${response.headers[h] ?? ""}`)
      .join(" ");
    // Dates and request ids change per response; what A holds does not.
    out.push(
      `${response.status} ${headers} ${response.text.replace(/<(Last-Modified|Date)>[^<]*</g, "<$1>")}`,
    );
  }
  return out;
}

/** B's key at A's URL: the header names A (in any case), or names B; the path names A in any case. */
const impostors: { url: string; signer: string }[] = [
  { url: A.name, signer: A.name },
  { url: A.name, signer: B.name },
  { url: "ACCOUNTA", signer: "ACCOUNTA" },
  { url: "AccountA", signer: A.name },
  { url: "accountA", signer: B.name },
  { url: `${A.name}-secondary`, signer: A.name },
];

describe("tablekit serve, Queue and Blob services: another account's key", () => {
  it.each([
    ["Queue", () => queueUrl, queueOperations],
    ["Blob", () => blobUrl, blobOperations],
  ] as const)(
    "is refused at A's URL for every %s operation, in any case of A's name, changing nothing",
    async (_, url, operations) => {
      const before = await stateOfA();
      const stats: StorageRequest = { path: "?restype=service&comp=stats" };
      for (const request of [...operations(), stats]) {
        // Get Messages is a GET that dequeues: a write, for the secondary.
        const dequeues =
          request.method === undefined &&
          /\/messages($|\?)/.test(request.path) &&
          !request.path.includes("peekonly=true");
        const read = (request.method === undefined || request.method === "HEAD") && !dequeues;
        // The secondary serves reads only (a write there is refused before any key is looked at).
        for (const { url: account, signer } of impostors.filter(
          (i) => read || !i.url.endsWith("-secondary"),
        )) {
          const r = await storageRequest(url(), { ...request, account, signer, key: B.key });
          expect([request.method ?? "GET", request.path, account, signer, r.status, r.code]).toEqual([
            request.method ?? "GET",
            request.path,
            account,
            signer,
            403,
            "AuthenticationFailed",
          ]);
        }
      }
      expect(await stateOfA()).toEqual(before);
      // A's own key does what B's could not (the attempts were refused for the key, not the request).
      const own = await storageRequest(url(), {
        ...stats,
        account: `${A.name}-secondary`,
        signer: A.name,
        key: A.key,
      });
      expect(own.status).toBe(200);
      expect((await asA(url(), operations()[0]!)).status).toBe(200);
    },
  );
});
