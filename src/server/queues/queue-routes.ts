import type { QueueOperation } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import type { CorsRuleCache } from "../cors-rules.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { MAX_SETTINGS_BODY_BYTES, parseStorageAcl, storageAclXml } from "../protocol/access-policies.js";
import { metadataFromHeaders, metadataHeaders } from "../protocol/metadata-headers.js";
import { invalidUri, ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { integerParameter, maxResults, requiredParameter } from "../protocol/query-parameters.js";
import { answerServiceProperties, isServicePropertiesRequest } from "../protocol/service-properties.js";
import { httpDate } from "../protocol/xml.js";
import type { ServiceDeps } from "../service-handler.js";
import type { QueueContext } from "./queue-service.js";
import {
  messageTextOf,
  peekedMessagesXml,
  queueListingXml,
  receivedMessagesXml,
  sentMessageXml,
} from "./queue-xml.js";

/**
 * The Queue service's operations, each turned into one call of the store's queue port (which
 * checks every argument, metadata and stored access policies included) and its answer written
 * back as the service writes it.
 */

const XML = { "content-type": "application/xml" };

/** What the queue routes use: the service's deps and its CORS rules. */
export type QueueDeps = ServiceDeps & { readonly cors: CorsRuleCache };

/**
 * Asks the core, before the request's body or parameters are read, whether the caller's token
 * allows `operation` (no I/O): a refused request is refused first, as the service does, and the
 * port asks the same `AccessPolicy` again when it is called.
 */
function askCore(caller: StorageCaller, operation: QueueOperation, queueName?: string): void {
  caller.store.access?.checkQueue(operation, queueName);
}

export async function answerQueueRequest(
  ctx: QueueContext,
  caller: StorageCaller,
  deps: QueueDeps,
): Promise<void> {
  const resource = ctx.resource;
  switch (resource.kind) {
    case "service":
      return answerService(ctx, caller, deps);
    case "queue":
      return answerQueue(ctx, resource.queueName, caller);
    case "messages":
      return answerMessages(ctx, resource.queueName, caller, deps);
    case "message":
      return answerMessage(ctx, resource.queueName, resource.messageId, caller);
  }
}

async function answerService(ctx: QueueContext, caller: StorageCaller, deps: QueueDeps): Promise<void> {
  if (isServicePropertiesRequest(ctx)) {
    await answerServiceProperties(ctx, {
      service: "queue",
      store: caller.store,
      cors: deps.cors,
      check: (operation) => askCore(caller, operation),
    });
    return;
  }
  if (ctx.query.get("comp") !== "list") throw invalidUri();
  if (ctx.method !== "GET") throw unsupportedVerb(ctx.method);
  askCore(caller, "listQueues");
  const prefix = ctx.query.get("prefix") ?? undefined;
  const marker = ctx.query.get("marker") ?? undefined;
  const size = maxResults(ctx, 5000);
  const withMetadata = (ctx.query.get("include") ?? "").split(",").includes("metadata");
  const pages = caller.store
    .listQueues({ ...(prefix === undefined ? {} : { prefix }), includeMetadata: withMetadata })
    .byPage({
      ...(size === undefined ? {} : { maxPageSize: size }),
      ...(marker ? { continuationToken: marker } : {}),
    });
  const next = await pages.next();
  const page = next.done ? [] : next.value;
  const body = queueListingXml({
    serviceEndpoint: ctx.baseUrl,
    ...(prefix === undefined ? {} : { prefix }),
    ...(marker === undefined ? {} : { marker }),
    ...(size === undefined ? {} : { maxResults: size }),
    queues: page.map((q) => ({
      name: q.name,
      ...(withMetadata ? { metadata: q.metadata ?? {} } : {}),
    })),
    ...(page.continuationToken === undefined ? {} : { nextMarker: page.continuationToken }),
  });
  send(ctx, 200, XML, body);
}

async function answerQueue(ctx: QueueContext, name: string, caller: StorageCaller): Promise<void> {
  const comp = ctx.query.get("comp");
  const queue = caller.store.queue(name);
  if (comp === "metadata") {
    if (ctx.method === "GET" || ctx.method === "HEAD") {
      askCore(caller, "getMetadata", name);
      const { approximateMessagesCount, metadata } = await queue.getProperties();
      send(ctx, 200, {
        "x-ms-approximate-messages-count": String(approximateMessagesCount),
        ...metadataHeaders(metadata),
      });
      return;
    }
    if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
    askCore(caller, "setMetadata", name);
    await queue.setMetadata(metadataFromHeaders(ctx.req));
    send(ctx, 204, {});
    return;
  }
  if (comp === "acl") {
    if (ctx.method === "GET" || ctx.method === "HEAD") {
      askCore(caller, "getAcl", name);
      const { signedIdentifiers } = await queue.getAccessPolicy();
      send(ctx, 200, XML, storageAclXml(signedIdentifiers));
      return;
    }
    if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
    askCore(caller, "setAcl", name);
    await queue.setAccessPolicy(parseStorageAcl(await readBody(ctx.req, MAX_SETTINGS_BODY_BYTES)));
    send(ctx, 204, {});
    return;
  }
  if (comp !== null)
    throw new ProtocolError(400, "InvalidQueryParameterValue", `comp=${comp} is not a queue operation.`);
  if (ctx.method === "PUT") {
    askCore(caller, "createQueue", name);
    const metadata = metadataFromHeaders(ctx.req);
    const { succeeded } = await queue.createIfNotExists({ metadata });
    // An existing queue is 204 only with the same metadata: create() answers QueueAlreadyExists otherwise.
    if (!succeeded) await queue.create({ metadata });
    send(ctx, succeeded ? 201 : 204, {});
    return;
  }
  if (ctx.method === "DELETE") {
    askCore(caller, "deleteQueue", name);
    await queue.delete();
    send(ctx, 204, {});
    return;
  }
  if (ctx.method === "GET" || ctx.method === "HEAD") throw invalidUri();
  throw unsupportedVerb(ctx.method);
}

async function answerMessages(
  ctx: QueueContext,
  name: string,
  caller: StorageCaller,
  deps: QueueDeps,
): Promise<void> {
  const queue = caller.store.queue(name);
  if (ctx.method === "POST") {
    askCore(caller, "sendMessage", name);
    const text = messageTextOf(await readBody(ctx.req, deps.maxBodyBytes));
    const visibilityTimeout = integerParameter(ctx, "visibilitytimeout");
    const messageTimeToLive = integerParameter(ctx, "messagettl");
    const sent = await queue.sendMessage(text, {
      ...(visibilityTimeout === undefined ? {} : { visibilityTimeout }),
      ...(messageTimeToLive === undefined ? {} : { messageTimeToLive }),
    });
    send(ctx, 201, XML, sentMessageXml(sent));
    return;
  }
  if (ctx.method === "GET") {
    const numberOfMessages = integerParameter(ctx, "numofmessages");
    if (ctx.query.get("peekonly")?.toLowerCase() === "true") {
      askCore(caller, "peekMessages", name);
      const { peekedMessageItems } = await queue.peekMessages(
        numberOfMessages === undefined ? {} : { numberOfMessages },
      );
      send(ctx, 200, XML, peekedMessagesXml(peekedMessageItems));
      return;
    }
    askCore(caller, "receiveMessages", name);
    const visibilityTimeout = integerParameter(ctx, "visibilitytimeout");
    const { receivedMessageItems } = await queue.receiveMessages({
      ...(numberOfMessages === undefined ? {} : { numberOfMessages }),
      ...(visibilityTimeout === undefined ? {} : { visibilityTimeout }),
    });
    send(ctx, 200, XML, receivedMessagesXml(receivedMessageItems));
    return;
  }
  if (ctx.method === "DELETE") {
    askCore(caller, "clearMessages", name);
    await queue.clearMessages();
    send(ctx, 204, {});
    return;
  }
  throw unsupportedVerb(ctx.method);
}

async function answerMessage(
  ctx: QueueContext,
  name: string,
  messageId: string,
  caller: StorageCaller,
): Promise<void> {
  const queue = caller.store.queue(name);
  if (ctx.method === "DELETE") {
    askCore(caller, "deleteMessage", name);
    await queue.deleteMessage(messageId, requiredParameter(ctx, "popreceipt"));
    send(ctx, 204, {});
    return;
  }
  if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
  askCore(caller, "updateMessage", name);
  const popReceipt = requiredParameter(ctx, "popreceipt");
  requiredParameter(ctx, "visibilitytimeout");
  const visibilityTimeout = integerParameter(ctx, "visibilitytimeout");
  const body = await readBody(ctx.req, 1024 * 1024);
  const text = body.trim() === "" ? undefined : messageTextOf(body);
  const result = await queue.updateMessage(messageId, popReceipt, text, visibilityTimeout);
  send(ctx, 204, {
    "x-ms-popreceipt": result.popReceipt,
    "x-ms-time-next-visible": httpDate(result.nextVisibleOn),
  });
}
