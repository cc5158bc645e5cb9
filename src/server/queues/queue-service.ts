import { authorizeStorage } from "../auth/storage-access.js";
import { storedPolicyLookup } from "../auth/stored-policies.js";
import { CorsRuleCache } from "../cors-rules.js";
import { matchOperation } from "../http/operations.js";
import { type RequestContext, withResource } from "../http/request-context.js";
import { nameLengthOutOfRange } from "../protocol/protocol-error.js";
import type { ServiceDeps, StorageService } from "../service-handler.js";
import { QUEUE_ROUTES, unmatchedQueueRequest } from "./queue-operations.js";
import { parseQueuePath, type QueueResource } from "./queue-resource.js";

/** A Queue service request: the context and the queue resource its path names. */
export interface QueueContext extends RequestContext {
  readonly resource: QueueResource;
}

/** The Queue service over the store's queue port, its bodies and errors in XML. */
export function queueService(deps: ServiceDeps): StorageService<QueueContext> {
  const queueDeps = { ...deps, cors: new CorsRuleCache("queue", deps.store) };
  return {
    name: "Queue",
    cors: queueDeps.cors,
    context: (ctx) => withResource(ctx, parseQueuePath(ctx.path)),
    errorsInXml: () => true,
    // Get Messages is a GET that dequeues (Peek Messages, `peekonly=true`, only reads).
    writesOnRead: (ctx) =>
      ctx.method === "GET" &&
      ctx.resource.kind === "messages" &&
      ctx.query.get("peekonly")?.toLowerCase() !== "true",
    async answer(ctx) {
      const queueName = ctx.resource.kind === "service" ? undefined : ctx.resource.queueName;
      const storedPolicy = await storedPolicyLookup(
        ctx,
        deps.accounts.get(ctx.account)?.store,
        "queue",
        queueName,
      );
      const caller = authorizeStorage(ctx, {
        service: "queue",
        accounts: deps.accounts,
        store: deps.store(ctx.account),
        resource: queueName === undefined ? {} : { container: queueName },
        storedPolicy,
        ...(deps.oauth ? { oauth: deps.oauth } : {}),
      });
      // A name of the wrong length is the service's OutOfRangeInput (other bad names, InvalidResourceName).
      if (queueName !== undefined && (queueName.length < 3 || queueName.length > 63)) {
        throw nameLengthOutOfRange();
      }
      const operation = matchOperation(QUEUE_ROUTES, ctx, ctx.resource.kind) ?? unmatchedQueueRequest(ctx);
      // The core is asked before the handler reads anything; the port asks it again.
      if (operation.needs) caller.store.access?.checkQueue(operation.needs, queueName);
      await operation.handle(ctx, caller, queueDeps);
    },
  };
}
