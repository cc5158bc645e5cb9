import { TableKitError } from "../../model/index.js";
import { AZURE_BLOB_RULES, type BlobCapabilities } from "../../store/blobs/blob-capabilities.js";
import { normalizeMetadata } from "../../store/blobs/blob-rules.js";
import type { Store } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { accessPoliciesXml, parseAccessPolicies } from "../protocol/access-policies.js";
import { metadataFromHeaders, metadataHeaders } from "../protocol/metadata-headers.js";
import { invalidUri, ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { integerParameter, maxResults, requiredParameter } from "../protocol/query-parameters.js";
import { answerServiceProperties, isServicePropertiesRequest } from "../protocol/service-properties.js";
import { httpDate } from "../protocol/xml.js";
import type { ServiceDeps } from "../service-handler.js";
import type { QueueContext } from "./queue-service.js";
import { allowQueue } from "./queue-service.js";
import {
  messageTextOf,
  peekedMessagesXml,
  queueListingXml,
  receivedMessagesXml,
  sentMessageXml,
} from "./queue-xml.js";

/**
 * The Queue service's operations, each turned into one call of the store's queue port (which
 * checks every argument) and its answer written back as the service writes it. Queue metadata and
 * stored access policies are the server's (the port has no place for them).
 */

const XML = { "content-type": "application/xml" };

/** Queue metadata follows the Blob service's metadata rules (C# identifiers, 8 KiB). */
const METADATA_RULES: BlobCapabilities = {
  ...AZURE_BLOB_RULES,
  backend: "the Queue service",
  nameOrder: "utf8",
  persistent: true,
  divergences: [],
};

function queueMetadata(ctx: QueueContext): Record<string, string> {
  return normalizeMetadata(metadataFromHeaders(ctx.req), METADATA_RULES);
}

function sameMetadata(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

export async function answerQueueRequest(
  ctx: QueueContext,
  caller: StorageCaller,
  deps: ServiceDeps,
): Promise<void> {
  const resource = ctx.resource;
  switch (resource.kind) {
    case "service":
      return answerService(ctx, caller, deps);
    case "queue":
      return answerQueue(ctx, resource.queueName, caller, deps);
    case "messages":
      return answerMessages(ctx, resource.queueName, caller, deps);
    case "message":
      return answerMessage(ctx, resource.queueName, resource.messageId, caller, deps.store(ctx.account));
  }
}

async function answerService(ctx: QueueContext, caller: StorageCaller, deps: ServiceDeps): Promise<void> {
  if (isServicePropertiesRequest(ctx)) {
    await answerServiceProperties(ctx, {
      state: deps.state,
      maxBodyBytes: deps.maxBodyBytes,
      check: (operation) => allowQueue(caller, operation),
    });
    return;
  }
  if (ctx.query.get("comp") !== "list") throw invalidUri();
  if (ctx.method !== "GET") throw unsupportedVerb(ctx.method);
  allowQueue(caller, "listQueues");
  const prefix = ctx.query.get("prefix") ?? undefined;
  const marker = ctx.query.get("marker") ?? undefined;
  const size = maxResults(ctx, 5000);
  const withMetadata = (ctx.query.get("include") ?? "").split(",").includes("metadata");
  const pages = deps
    .store(ctx.account)
    .listQueues(prefix === undefined ? {} : { prefix })
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
      ...(withMetadata ? { metadata: deps.state.resource(ctx.account, q.name).metadata ?? {} } : {}),
    })),
    ...(page.continuationToken === undefined ? {} : { nextMarker: page.continuationToken }),
  });
  send(ctx, 200, XML, body);
}

async function answerQueue(
  ctx: QueueContext,
  name: string,
  caller: StorageCaller,
  deps: ServiceDeps,
): Promise<void> {
  const { state } = deps;
  const store = deps.store(ctx.account);
  const comp = ctx.query.get("comp");
  const queue = store.queue(name);
  if (comp === "metadata") {
    if (ctx.method === "GET" || ctx.method === "HEAD") {
      allowQueue(caller, "getMetadata");
      const { approximateMessagesCount } = await queue.getProperties();
      send(ctx, 200, {
        "x-ms-approximate-messages-count": String(approximateMessagesCount),
        ...metadataHeaders(state.resource(ctx.account, name).metadata),
      });
      return;
    }
    if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
    allowQueue(caller, "setMetadata");
    const metadata = queueMetadata(ctx);
    await queue.getProperties();
    state.setResource(ctx.account, name, { ...state.resource(ctx.account, name), metadata });
    send(ctx, 204, {});
    return;
  }
  if (comp === "acl") {
    if (ctx.method === "GET" || ctx.method === "HEAD") {
      allowQueue(caller, "getAcl");
      await queue.getProperties();
      send(ctx, 200, XML, accessPoliciesXml(state.acl(ctx.account, name)));
      return;
    }
    if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
    allowQueue(caller, "setAcl");
    const policies = parseAccessPolicies(await readBody(ctx.req, deps.maxBodyBytes), "raup");
    await queue.getProperties();
    state.setAcl(ctx.account, name, policies);
    send(ctx, 204, {});
    return;
  }
  if (comp !== null)
    throw new ProtocolError(400, "InvalidQueryParameterValue", `comp=${comp} is not a queue operation.`);
  if (ctx.method === "PUT") {
    allowQueue(caller, "createQueue");
    const metadata = queueMetadata(ctx);
    const { succeeded } = await queue.createIfNotExists();
    if (succeeded) {
      state.dropAcl(ctx.account, name);
      if (Object.keys(metadata).length > 0) state.setResource(ctx.account, name, { metadata });
      send(ctx, 201, {});
      return;
    }
    // An existing queue: success only when the metadata is the same (the service's rule).
    if (!sameMetadata(metadata, state.resource(ctx.account, name).metadata ?? {})) {
      throw new TableKitError("QueueAlreadyExists", "The specified queue already exists.");
    }
    send(ctx, 204, {});
    return;
  }
  if (ctx.method === "DELETE") {
    allowQueue(caller, "deleteQueue");
    await queue.delete();
    state.dropAcl(ctx.account, name);
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
  deps: ServiceDeps,
): Promise<void> {
  const queue = deps.store(ctx.account).queue(name);
  if (ctx.method === "POST") {
    allowQueue(caller, "sendMessage");
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
      allowQueue(caller, "peekMessages");
      const { peekedMessageItems } = await queue.peekMessages(
        numberOfMessages === undefined ? {} : { numberOfMessages },
      );
      send(ctx, 200, XML, peekedMessagesXml(peekedMessageItems));
      return;
    }
    allowQueue(caller, "receiveMessages");
    const visibilityTimeout = integerParameter(ctx, "visibilitytimeout");
    const { receivedMessageItems } = await queue.receiveMessages({
      ...(numberOfMessages === undefined ? {} : { numberOfMessages }),
      ...(visibilityTimeout === undefined ? {} : { visibilityTimeout }),
    });
    send(ctx, 200, XML, receivedMessagesXml(receivedMessageItems));
    return;
  }
  if (ctx.method === "DELETE") {
    allowQueue(caller, "clearMessages");
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
  store: Store,
): Promise<void> {
  const queue = store.queue(name);
  if (ctx.method === "DELETE") {
    allowQueue(caller, "deleteMessage");
    await queue.deleteMessage(messageId, requiredParameter(ctx, "popreceipt"));
    send(ctx, 204, {});
    return;
  }
  if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
  allowQueue(caller, "updateMessage");
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
