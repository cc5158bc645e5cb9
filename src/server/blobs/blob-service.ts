import { authorizeStorage } from "../auth/storage-access.js";
import { storedPolicyLookup } from "../auth/stored-policies.js";
import { CorsRuleCache } from "../cors-rules.js";
import { type RequestContext, withResource } from "../http/request-context.js";
import { nameLengthOutOfRange } from "../protocol/protocol-error.js";
import type { ServiceDeps, StorageService } from "../service-handler.js";
import { answerBatch, isBatchRequest } from "./blob-batch.js";
import { type BlobResource, parseBlobPath } from "./blob-resource.js";
import { answerBlob } from "./blob-routes.js";
import { answerContainerOrService } from "./container-routes.js";
import { rememberCopySourceAccess } from "./copy-source-access.js";

/** A Blob service request: the context and the resource its path names. */
export interface BlobContext extends RequestContext {
  readonly resource: BlobResource;
}

/** What the blob routes use: the service's deps and the CORS rules. */
export interface BlobDeps extends ServiceDeps {
  readonly cors: CorsRuleCache;
}

/** The Blob service over the store's blob port, its bodies and errors in XML. */
export function blobService(deps: ServiceDeps & { readonly location?: string }): StorageService<BlobContext> {
  const blobDeps: BlobDeps = { ...deps, cors: new CorsRuleCache("blob", deps.store) };
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
      const caller = authorizeStorage(ctx, {
        service: "blob",
        accounts: deps.accounts,
        store: deps.store(ctx.account),
        resource:
          resource.kind === "service"
            ? {}
            : resource.kind === "container"
              ? { container: resource.container }
              : { container: resource.container, blob: resource.blob },
        storedPolicy,
        ...(deps.oauth ? { oauth: deps.oauth } : {}),
      });
      // Only a copy names a source to authorize.
      if (ctx.req.headers["x-ms-copy-source"] !== undefined) rememberCopySourceAccess(ctx, deps);
      if (resource.kind !== "service" && (resource.container.length < 3 || resource.container.length > 63)) {
        throw nameLengthOutOfRange();
      }
      // Blob Batch: each sub-request goes through this same `answer`, as a request of its own.
      if (isBatchRequest(ctx)) return answerBatch(ctx, caller, (sub) => service.answer(service.context(sub)));
      if (resource.kind === "blob") await answerBlob(ctx, caller);
      else await answerContainerOrService(ctx, caller, blobDeps);
    },
  };
  return service;
}
