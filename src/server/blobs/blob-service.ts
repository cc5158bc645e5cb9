import { authorizeStorage } from "../auth/storage-access.js";
import { storedPolicyLookup } from "../auth/stored-policies.js";
import { CorsRuleCache } from "../cors-rules.js";
import { matchOperation } from "../http/operations.js";
import { type RequestContext, withResource } from "../http/request-context.js";
import { nameLengthOutOfRange } from "../protocol/protocol-error.js";
import type { ServiceDeps, StorageService } from "../service-handler.js";
import { askCore } from "./blob-ask.js";
import { BLOB_ROUTES, unmatchedBlobRequest } from "./blob-operations.js";
import { type BlobResource, parseBlobPath } from "./blob-resource.js";
import { rememberCopySourceAccess } from "./copy-source-access.js";

/** A Blob service request: the context and the resource its path names. */
export interface BlobContext extends RequestContext {
  readonly resource: BlobResource;
}

/** What the blob routes use: the service's deps, the CORS rules, and the service's `answer` for a batch's sub-requests. */
export interface BlobDeps extends ServiceDeps {
  readonly cors: CorsRuleCache;
  readonly answerSubRequest: (sub: RequestContext) => Promise<void>;
}

/** The Blob service over the store's blob port, its bodies and errors in XML. */
export function blobService(deps: ServiceDeps & { readonly location?: string }): StorageService<BlobContext> {
  const blobDeps: BlobDeps = {
    ...deps,
    cors: new CorsRuleCache("blob", deps.store),
    answerSubRequest: (sub) => service.answer(service.context(sub)),
  };
  const service: StorageService<BlobContext> = {
    name: "Blob",
    cors: blobDeps.cors,
    context: (ctx) => withResource(ctx, parseBlobPath(ctx.path)),
    errorsInXml: () => true,
    async answer(ctx) {
      const resource = ctx.resource;
      const container = resource.kind === "service" ? undefined : resource.container;
      const store = deps.accounts.get(ctx.account)?.store;
      const storedPolicy = await storedPolicyLookup(ctx, store, "container", container);
      const target =
        resource.kind === "service"
          ? {}
          : resource.kind === "container"
            ? { container: resource.container }
            : { container: resource.container, blob: resource.blob };
      const caller = authorizeStorage(ctx, {
        service: "blob",
        accounts: deps.accounts,
        store: deps.store(ctx.account),
        resource: target,
        storedPolicy,
        ...(deps.oauth ? { oauth: deps.oauth } : {}),
      });
      // Only a copy names a source to authorize.
      if (ctx.req.headers["x-ms-copy-source"] !== undefined) rememberCopySourceAccess(ctx, deps);
      if (resource.kind !== "service" && (resource.container.length < 3 || resource.container.length > 63)) {
        throw nameLengthOutOfRange();
      }
      // An empty `comp=` is none, as the Blob service has always read it.
      const comp = ctx.query.get("comp") || undefined;
      const operation = matchOperation(BLOB_ROUTES, ctx, resource.kind, comp) ?? unmatchedBlobRequest(ctx);
      // The core is asked before the handler reads anything; the port asks it again.
      if (operation.needs) askCore(caller, operation.needs, target);
      await operation.handle(ctx, caller, blobDeps);
    },
  };
  return service;
}
