import type { StorageCaller } from "../auth/storage-access.js";
import type { CorsRuleCache } from "../cors-rules.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { MAX_SETTINGS_BODY_BYTES, parseStorageAcl, storageAclXml } from "../protocol/access-policies.js";
import { metadataFromHeaders, metadataHeaders } from "../protocol/metadata-headers.js";
import { integerParameter, maxResults, requiredParameter } from "../protocol/query-parameters.js";
import { answerServiceProperties } from "../protocol/service-properties.js";
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

/** The handlers of the Queue service's operations (queue-operations.ts lists them). */

export type QueueHandler = (ctx: QueueContext, caller: StorageCaller, deps: QueueDeps) => Promise<void>;

function queueOf(ctx: QueueContext, caller: StorageCaller) {
  return caller.store.queue((ctx.resource as { queueName: string }).queueName);
}

export const serviceProperties: QueueHandler = (ctx, caller, deps) =>
  answerServiceProperties(ctx, {
    service: "queue",
    store: caller.store,
    cors: deps.cors,
    check: (operation) => caller.store.access?.checkQueue(operation),
  });

export const listQueues: QueueHandler = async (ctx, caller) => {
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
};

export const getMetadata: QueueHandler = async (ctx, caller) => {
  const { approximateMessagesCount, metadata } = await queueOf(ctx, caller).getProperties();
  send(ctx, 200, {
    "x-ms-approximate-messages-count": String(approximateMessagesCount),
    ...metadataHeaders(metadata),
  });
};

export const setMetadata: QueueHandler = async (ctx, caller) => {
  await queueOf(ctx, caller).setMetadata(metadataFromHeaders(ctx.req));
  send(ctx, 204, {});
};

export const getAcl: QueueHandler = async (ctx, caller) => {
  const { signedIdentifiers } = await queueOf(ctx, caller).getAccessPolicy();
  send(ctx, 200, XML, storageAclXml(signedIdentifiers));
};

export const setAcl: QueueHandler = async (ctx, caller) => {
  const identifiers = parseStorageAcl(await readBody(ctx.req, MAX_SETTINGS_BODY_BYTES));
  await queueOf(ctx, caller).setAccessPolicy(identifiers);
  send(ctx, 204, {});
};

export const createQueue: QueueHandler = async (ctx, caller) => {
  const queue = queueOf(ctx, caller);
  const metadata = metadataFromHeaders(ctx.req);
  const { succeeded } = await queue.createIfNotExists({ metadata });
  // An existing queue is 204 only with the same metadata: create() answers QueueAlreadyExists otherwise.
  if (!succeeded) await queue.create({ metadata });
  send(ctx, succeeded ? 201 : 204, {});
};

export const deleteQueue: QueueHandler = async (ctx, caller) => {
  await queueOf(ctx, caller).delete();
  send(ctx, 204, {});
};

export const sendMessage: QueueHandler = async (ctx, caller, deps) => {
  const text = messageTextOf(await readBody(ctx.req, deps.maxBodyBytes));
  const visibilityTimeout = integerParameter(ctx, "visibilitytimeout");
  const messageTimeToLive = integerParameter(ctx, "messagettl");
  const sent = await queueOf(ctx, caller).sendMessage(text, {
    ...(visibilityTimeout === undefined ? {} : { visibilityTimeout }),
    ...(messageTimeToLive === undefined ? {} : { messageTimeToLive }),
  });
  send(ctx, 201, XML, sentMessageXml(sent));
};

export const peekMessages: QueueHandler = async (ctx, caller) => {
  const numberOfMessages = integerParameter(ctx, "numofmessages");
  const { peekedMessageItems } = await queueOf(ctx, caller).peekMessages(
    numberOfMessages === undefined ? {} : { numberOfMessages },
  );
  send(ctx, 200, XML, peekedMessagesXml(peekedMessageItems));
};

export const receiveMessages: QueueHandler = async (ctx, caller) => {
  const numberOfMessages = integerParameter(ctx, "numofmessages");
  const visibilityTimeout = integerParameter(ctx, "visibilitytimeout");
  const { receivedMessageItems } = await queueOf(ctx, caller).receiveMessages({
    ...(numberOfMessages === undefined ? {} : { numberOfMessages }),
    ...(visibilityTimeout === undefined ? {} : { visibilityTimeout }),
  });
  send(ctx, 200, XML, receivedMessagesXml(receivedMessageItems));
};

export const clearMessages: QueueHandler = async (ctx, caller) => {
  await queueOf(ctx, caller).clearMessages();
  send(ctx, 204, {});
};

export const deleteMessage: QueueHandler = async (ctx, caller) => {
  const { messageId } = ctx.resource as { messageId: string };
  await queueOf(ctx, caller).deleteMessage(messageId, requiredParameter(ctx, "popreceipt"));
  send(ctx, 204, {});
};

export const updateMessage: QueueHandler = async (ctx, caller) => {
  const { messageId } = ctx.resource as { messageId: string };
  const popReceipt = requiredParameter(ctx, "popreceipt");
  requiredParameter(ctx, "visibilitytimeout");
  const visibilityTimeout = integerParameter(ctx, "visibilitytimeout");
  const body = await readBody(ctx.req, 1024 * 1024);
  const text = body.trim() === "" ? undefined : messageTextOf(body);
  const result = await queueOf(ctx, caller).updateMessage(messageId, popReceipt, text, visibilityTimeout);
  send(ctx, 204, {
    "x-ms-popreceipt": result.popReceipt,
    "x-ms-time-next-visible": httpDate(result.nextVisibleOn),
  });
};
