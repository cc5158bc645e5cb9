import type { QueueOperation } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import type { Operation } from "../http/operations.js";
import { invalidUri, ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import type { QueueResource } from "./queue-resource.js";
import * as route from "./queue-routes.js";
import type { QueueContext } from "./queue-service.js";

/**
 * The Queue service as a list of operations (the route recipe, src/server/http/operations.ts):
 * one entry per operation of the REST reference. `needs` names the operation in
 * src/store/access/storage-operations.ts that the core checks.
 */
export type QueueOperationRoute = Operation<
  QueueContext,
  QueueResource["kind"],
  QueueOperation,
  StorageCaller,
  route.QueueDeps
>;

const READ = ["GET", "HEAD"];

export const QUEUE_ROUTES: readonly QueueOperationRoute[] = [
  // Get/Set Service Properties and Get Service Stats: the shared handler asks the core per comp.
  {
    name: "Service Properties",
    methods: ["GET", "PUT", "HEAD", "POST", "DELETE"],
    resource: "service",
    restype: "service",
    comp: "*",
    handle: route.serviceProperties,
  },
  {
    name: "List Queues",
    methods: ["GET"],
    resource: "service",
    comp: "list",
    needs: "listQueues",
    handle: route.listQueues,
  },
  {
    name: "Create Queue",
    methods: ["PUT"],
    resource: "queue",
    needs: "createQueue",
    handle: route.createQueue,
  },
  {
    name: "Delete Queue",
    methods: ["DELETE"],
    resource: "queue",
    needs: "deleteQueue",
    handle: route.deleteQueue,
  },
  {
    name: "Get Queue Metadata",
    methods: READ,
    resource: "queue",
    comp: "metadata",
    needs: "getMetadata",
    handle: route.getMetadata,
  },
  {
    name: "Set Queue Metadata",
    methods: ["PUT"],
    resource: "queue",
    comp: "metadata",
    needs: "setMetadata",
    handle: route.setMetadata,
  },
  {
    name: "Get Queue ACL",
    methods: READ,
    resource: "queue",
    comp: "acl",
    needs: "getAcl",
    handle: route.getAcl,
  },
  {
    name: "Set Queue ACL",
    methods: ["PUT"],
    resource: "queue",
    comp: "acl",
    needs: "setAcl",
    handle: route.setAcl,
  },
  {
    name: "Put Message",
    methods: ["POST"],
    resource: "messages",
    comp: "*",
    needs: "sendMessage",
    handle: route.sendMessage,
  },
  {
    name: "Peek Messages",
    methods: ["GET"],
    resource: "messages",
    comp: "*",
    when: (ctx) => ctx.query.get("peekonly")?.toLowerCase() === "true",
    needs: "peekMessages",
    handle: route.peekMessages,
  },
  {
    name: "Get Messages",
    methods: ["GET"],
    resource: "messages",
    comp: "*",
    needs: "receiveMessages",
    handle: route.receiveMessages,
  },
  {
    name: "Clear Messages",
    methods: ["DELETE"],
    resource: "messages",
    comp: "*",
    needs: "clearMessages",
    handle: route.clearMessages,
  },
  {
    name: "Delete Message",
    methods: ["DELETE"],
    resource: "message",
    comp: "*",
    needs: "deleteMessage",
    handle: route.deleteMessage,
  },
  {
    name: "Update Message",
    methods: ["PUT"],
    resource: "message",
    comp: "*",
    needs: "updateMessage",
    handle: route.updateMessage,
  },
];

/** What the Queue service answers a request no entry matches (its codes for unknown operations). */
export function unmatchedQueueRequest(ctx: QueueContext): never {
  const comp = ctx.query.get("comp");
  const kind = ctx.resource.kind;
  if (kind === "service" && comp !== "list") throw invalidUri();
  if (kind === "queue" && comp !== null && comp !== "metadata" && comp !== "acl") {
    throw new ProtocolError(400, "InvalidQueryParameterValue", `comp=${comp} is not a queue operation.`);
  }
  if (kind === "queue" && comp === null && READ.includes(ctx.method)) throw invalidUri();
  throw unsupportedVerb(ctx.method);
}
