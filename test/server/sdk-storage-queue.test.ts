/**
 * @azure/storage-queue, the official client, against tablekit serve's Queue service: queues with
 * metadata and paging, every message operation, the service's limits and error codes, ACLs,
 * service properties, and malformed bodies refused with nothing written.
 */
import { QueueServiceClient, StorageSharedKeyCredential } from "@azure/storage-queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.js";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "../support/azurite.js";

let server: RunningServer;
let service: QueueServiceClient;

beforeAll(async () => {
  server = await startServer({ port: 0, services: ["queue"] });
  service = QueueServiceClient.fromConnectionString(server.connectionString);
});
afterAll(() => server?.stop());

async function failure(work: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await work;
  } catch (err) {
    const e = err as { statusCode: number; code: string };
    return { status: e.statusCode, code: e.code };
  }
  throw new Error("expected a failure");
}

/** A signed raw request through the SDK's own credential policy (for bodies the SDK would not send). */
async function raw(method: string, path: string, body?: string): Promise<Response> {
  const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
  const url = `${server.endpoints.queue!.url}/${path}`;
  const date = new Date().toUTCString();
  const pathname = new URL(url).pathname;
  const query = [...new URL(url).searchParams.entries()]
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `\n${k}:${v}`)
    .join("");
  const length = body === undefined || body.length === 0 ? "" : String(Buffer.byteLength(body));
  const type = body === undefined ? "" : "application/xml";
  const text = `${method}\n\n\n${length}\n\n${type}\n\n\n\n\n\n\nx-ms-date:${date}\nx-ms-version:2021-12-02\n/${AZURITE_ACCOUNT}${pathname}${query}`;
  const signature = credential.computeHMACSHA256(text);
  return fetch(url, {
    method,
    headers: {
      "x-ms-date": date,
      "x-ms-version": "2021-12-02",
      authorization: `SharedKey ${AZURITE_ACCOUNT}:${signature}`,
      ...(body === undefined ? {} : { "content-type": type }),
    },
    ...(body === undefined ? {} : { body }),
  });
}

describe("@azure/storage-queue against tablekit serve", () => {
  it("creates queues with metadata: again with the same metadata is 204, with other metadata 409 QueueAlreadyExists", async () => {
    const queue = service.getQueueClient("created");
    expect((await queue.create({ metadata: { team: "a" } }))._response.status).toBe(201);
    expect((await queue.create({ metadata: { team: "a" } }))._response.status).toBe(204);
    expect(await failure(queue.create({ metadata: { team: "b" } }))).toEqual({
      status: 409,
      code: "QueueAlreadyExists",
    });
    expect((await queue.getProperties()).metadata).toEqual({ team: "a" });
    await queue.setMetadata({ team: "c", owner: "x" });
    expect((await queue.getProperties()).metadata).toEqual({ team: "c", owner: "x" });
    await queue.delete();
    expect(await failure(queue.getProperties())).toEqual({ status: 404, code: "QueueNotFound" });
    // The name is held for 30 s, as the service holds it (a queue created again under the name
    // starting without the old metadata is a conformance case, run with the hold off).
    expect(await failure(queue.create())).toEqual({ status: 409, code: "QueueBeingDeleted" });
  });

  it("refuses invalid names and metadata with the service's codes", async () => {
    expect(await failure(service.getQueueClient("Upper").create())).toEqual({
      status: 400,
      code: "InvalidResourceName",
    });
    // A name of the wrong length is OutOfRangeInput, as the service answers it.
    expect(await failure(service.getQueueClient("ab").create())).toEqual({
      status: 400,
      code: "OutOfRangeInput",
    });
    expect(await failure(service.getQueueClient("a".repeat(64)).create())).toEqual({
      status: 400,
      code: "OutOfRangeInput",
    });
    expect(await failure(service.getQueueClient("a".repeat(64)).sendMessage("x"))).toEqual({
      status: 400,
      code: "OutOfRangeInput",
    });
    expect(await failure(service.getQueueClient("a-".repeat(20)).create())).toEqual({
      status: 400,
      code: "InvalidResourceName",
    });
    await service.getQueueClient("aaa").create();
    await service.getQueueClient("a".repeat(63)).create();
    expect(await failure(service.getQueueClient("badmeta").create({ metadata: { "1x": "v" } }))).toEqual({
      status: 400,
      code: "InvalidMetadata",
    });
    expect(await service.getQueueClient("badmeta").exists()).toBe(false);
    await service.getQueueClient("a".repeat(63)).delete();
  });

  it("lists queues by prefix, in pages that resume from NextMarker, with metadata when asked", async () => {
    const names = Array.from({ length: 7 }, (_, i) => `list-${String(i).padStart(2, "0")}`);
    for (const name of [...names].reverse())
      await service.getQueueClient(name).create({ metadata: { n: name } });
    await service.getQueueClient("other").create();
    const seen: string[] = [];
    let pages = 0;
    for await (const page of service
      .listQueues({ prefix: "list-", includeMetadata: true })
      .byPage({ maxPageSize: 3 })) {
      pages++;
      for (const q of page.queueItems ?? []) {
        seen.push(q.name);
        expect(q.metadata).toEqual({ n: q.name });
      }
    }
    expect(seen).toEqual(names);
    expect(pages).toBe(3);
    const plain = (await service.listQueues({ prefix: "list-" }).byPage().next()).value;
    expect(plain.queueItems?.[0]?.metadata).toBeUndefined();
    for (const name of [...names, "other"]) await service.getQueueClient(name).delete();
  });

  it("sends, peeks, receives with a visibility timeout, updates and deletes messages; pop receipts go stale", async () => {
    const queue = service.getQueueClient("messages");
    await queue.create();
    const sent = await queue.sendMessage("first <&> 'quoted' \"text\"");
    expect(sent.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.expiresOn.getTime() - sent.insertedOn.getTime()).toBe(7 * 24 * 3600 * 1000);
    await queue.sendMessage("hidden", { visibilityTimeout: 60 });
    await queue.sendMessage("forever", { messageTimeToLive: -1 });
    const peeked = await queue.peekMessages({ numberOfMessages: 32 });
    expect(peeked.peekedMessageItems.map((m) => m.messageText)).toEqual([
      "first <&> 'quoted' \"text\"",
      "forever",
    ]);
    expect(peeked.peekedMessageItems[1]!.expiresOn.getUTCFullYear()).toBe(9999);
    const received = await queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 30 });
    expect(received.receivedMessageItems.map((m) => [m.messageText, m.dequeueCount])).toEqual([
      ["first <&> 'quoted' \"text\"", 1],
      ["forever", 1],
    ]);
    expect((await queue.receiveMessages()).receivedMessageItems).toEqual([]);
    const first = received.receivedMessageItems[0]!;
    const updated = await queue.updateMessage(first.messageId, first.popReceipt, "changed", 0);
    expect(await failure(queue.deleteMessage(first.messageId, first.popReceipt))).toEqual({
      status: 400,
      code: "PopReceiptMismatch",
    });
    const again = (await queue.receiveMessages()).receivedMessageItems[0]!;
    expect([again.messageText, again.dequeueCount]).toEqual(["changed", 2]);
    await queue.deleteMessage(again.messageId, again.popReceipt);
    expect(await failure(queue.deleteMessage(again.messageId, again.popReceipt))).toEqual({
      status: 404,
      code: "MessageNotFound",
    });
    expect(updated.popReceipt).not.toBe(first.popReceipt);
    expect((await queue.getProperties()).approximateMessagesCount).toBe(2);
    await queue.clearMessages();
    expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
    await queue.delete();
  });

  it("keeps the service's limits: 64 KiB texts, 1..32 messages, visibility and time-to-live ranges", async () => {
    const queue = service.getQueueClient("limits");
    await queue.create();
    await queue.sendMessage("x".repeat(64 * 1024));
    expect(await failure(queue.sendMessage("x".repeat(64 * 1024 + 1)))).toEqual({
      status: 413,
      code: "RequestBodyTooLarge",
    });
    expect(await failure(queue.receiveMessages({ numberOfMessages: 33 }))).toEqual({
      status: 400,
      code: "OutOfRangeQueryParameterValue",
    });
    expect(await failure(queue.peekMessages({ numberOfMessages: 0 }))).toEqual({
      status: 400,
      code: "OutOfRangeQueryParameterValue",
    });
    expect(await failure(queue.sendMessage("v", { visibilityTimeout: 7 * 24 * 3600 + 1 }))).toEqual({
      status: 400,
      code: "OutOfRangeQueryParameterValue",
    });
    expect(await failure(queue.sendMessage("t", { messageTimeToLive: 0 }))).toEqual({
      status: 400,
      code: "OutOfRangeQueryParameterValue",
    });
    // Any positive time-to-live (Put Message, 2017-07-29 and later); past 64 bits it is not a number.
    const longest = await queue.sendMessage("t", { messageTimeToLive: Number.MAX_SAFE_INTEGER });
    expect(longest.expiresOn.toISOString()).toBe("9999-12-31T23:59:59.000Z");
    expect(await failure(queue.sendMessage("t", { messageTimeToLive: 2 ** 64 }))).toEqual({
      status: 400,
      code: "InvalidQueryParameterValue",
    });
    expect(await failure(queue.sendMessage("t", { messageTimeToLive: 10, visibilityTimeout: 10 }))).toEqual({
      status: 400,
      code: "InvalidQueryParameterValue",
    });
    expect((await queue.getProperties()).approximateMessagesCount).toBe(2);
    await queue.delete();
  });

  it("answers malformed bodies and parameters with the service's errors and writes nothing", async () => {
    const queue = service.getQueueClient("malformed");
    await queue.create();
    for (const body of [
      "<QueueMessage><MessageText>a</MessageText>",
      "not xml",
      "<Other><MessageText>a</MessageText></Other>",
      "<QueueMessage><MessageText>&bogus;</MessageText></QueueMessage>",
    ]) {
      const response = await raw("POST", "malformed/messages", body);
      expect(response.status).toBe(400);
      expect(response.headers.get("x-ms-error-code")).toBe("InvalidXmlDocument");
      expect(await response.text()).toMatch(/<Error><Code>InvalidXmlDocument<\/Code>/);
    }
    const bad = await raw(
      "POST",
      "malformed/messages?visibilitytimeout=soon",
      "<QueueMessage><MessageText>a</MessageText></QueueMessage>",
    );
    expect([bad.status, bad.headers.get("x-ms-error-code")]).toEqual([400, "InvalidQueryParameterValue"]);
    const acl = await raw(
      "PUT",
      "malformed?comp=acl",
      "<SignedIdentifiers><SignedIdentifier><Id>x</Id><AccessPolicy><Permission>rwz</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>",
    );
    expect([acl.status, acl.headers.get("x-ms-error-code")]).toEqual([400, "InvalidXmlDocument"]);
    const missing = await raw("PUT", "malformed/messages/00000000-0000-0000-0000-000000000000?popreceipt=x");
    expect([missing.status, missing.headers.get("x-ms-error-code")]).toEqual([
      400,
      "MissingRequiredQueryParameter",
    ]);
    expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
    expect((await queue.getAccessPolicy()).signedIdentifiers).toEqual([]);
    await queue.delete();
  });

  it("keeps stored access policies and service properties (CORS rules included)", async () => {
    const queue = service.getQueueClient("acl");
    await queue.create();
    const expiresOn = new Date(Date.UTC(2030, 0, 1));
    await queue.setAccessPolicy([{ id: "readers", accessPolicy: { permissions: "rp", expiresOn } }]);
    const policies = (await queue.getAccessPolicy()).signedIdentifiers;
    expect(
      policies.map((p) => [p.id, p.accessPolicy?.permissions, p.accessPolicy?.expiresOn?.toISOString()]),
    ).toEqual([["readers", "rp", expiresOn.toISOString()]]);
    await service.setProperties({
      cors: [
        {
          allowedOrigins: "https://app.example",
          allowedMethods: "GET,PUT",
          allowedHeaders: "*",
          exposedHeaders: "*",
          maxAgeInSeconds: 60,
        },
      ],
    });
    expect((await service.getProperties()).cors?.map((r) => r.allowedOrigins)).toEqual([
      "https://app.example",
    ]);
    const preflight = await fetch(`${server.endpoints.queue!.url}/acl/messages`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "PUT" },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    await service.setProperties({ cors: [] });
    await queue.delete();
  });
});
