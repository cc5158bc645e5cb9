import { TableKitError } from "../../model/index.js";
import type { PublicAccessLevel, Store } from "../../store/index.js";
import { authorizeStorage, type StorageCaller } from "../auth/storage-access.js";
import { storedPolicyLookup } from "../auth/stored-policies.js";
import { CorsRuleCache } from "../cors-rules.js";
import { type RequestContext, withResource } from "../http/request-context.js";
import { nameLengthOutOfRange, ProtocolError } from "../protocol/protocol-error.js";
import type { ServiceDeps, StorageService } from "../service-handler.js";
import { answerBatch, isBatchRequest } from "./blob-batch.js";
import { BLOB_OPERATIONS, type BlobOperation } from "./blob-operations.js";
import { type BlobResource, parseBlobPath } from "./blob-resource.js";
import { answerBlob } from "./blob-routes.js";
import { answerContainerOrService } from "./container-routes.js";

/** A Blob service request: the context and the resource its path names. */
export interface BlobContext extends RequestContext {
  readonly resource: BlobResource;
}

/** What the blob routes use: the service's deps and the CORS rules. */
export interface BlobDeps extends ServiceDeps {
  readonly cors: CorsRuleCache;
}

/** A request for something the server does not serve: a clear refusal, never a wrong answer (docs/server.md). */
export function notServed(what: string): ProtocolError {
  return new ProtocolError(
    501,
    "NotImplemented",
    `tablekit serve does not serve ${what} (docs/server.md lists what it serves).`,
  );
}

/** Reads anonymous callers may make of a public container: `blob` lets them read blobs, `container` also list. */
const PUBLIC_READS: Partial<Record<BlobOperation, "blob" | "container">> = {
  readBlob: "blob",
  getContainerProperties: "container",
  listBlobs: "container",
};

/**
 * Throws unless the caller may do `operation`: the account key may do everything, a token what
 * it grants, an anonymous caller only the reads its container's public access level allows.
 */
export function allowBlob(
  caller: StorageCaller,
  operation: BlobOperation,
  container: string | undefined,
  // Kept for the callers' sake: the level now travels with the anonymous caller.
  _deps: ServiceDeps,
  _account: string,
  method?: string,
): void {
  if (caller.kind === "key") return;
  if (caller.kind === "sas" || caller.kind === "bearer") {
    caller.allow(BLOB_OPERATIONS[operation]);
    return;
  }
  const level = PUBLIC_READS[operation];
  // The container's level, read through the port when the anonymous request was authorized (blobService).
  const granted = container === undefined ? undefined : caller.publicAccess;
  if (level && granted && (granted === "container" || level === "blob") && method !== "PUT") return;
  // Anonymous requests for anything else are refused as the service refuses them: as not found.
  throw new TableKitError(
    level ? "ResourceNotFound" : "AuthenticationFailed",
    level
      ? "The specified resource does not exist."
      : "Server failed to authenticate the request. The request carries no Authorization header and no shared access signature.",
  );
}

/** A container's public access level (none when it does not exist or its name is not one): anonymous callers only. */
async function publicAccessLevel(
  store: Store | undefined,
  container: string | undefined,
): Promise<PublicAccessLevel | undefined> {
  if (!store || container === undefined || !store.stateCapabilities.blobs) return undefined;
  try {
    return (await store.container(container).getProperties()).blobPublicAccess;
  } catch (err) {
    if (err instanceof TableKitError && (err.status === 404 || err.status === 400)) return undefined;
    throw err;
  }
}

/** How the caller may write a blob: any blob, or only one that does not exist yet. */
export type BlobWriteGrant = "write" | "createOnly";

/**
 * Throws unless the caller may write the blob: `w` writes any blob; a token with only `c` writes
 * one that does not exist yet (`exists` is asked only then, so nobody learns of a blob through it).
 * The answer `"createOnly"` obliges the caller to make the write itself conditional
 * (`ifNoneMatch: "*"`, see `createOnlyConditions`): the check alone does not stop a blob created
 * between it and the write from being overwritten.
 */
export async function allowBlobWrite(
  caller: StorageCaller,
  container: string,
  deps: ServiceDeps,
  account: string,
  exists: () => Promise<boolean>,
): Promise<BlobWriteGrant> {
  if (caller.kind !== "sas") {
    allowBlob(caller, "writeBlob", container, deps, account);
    return "write";
  }
  try {
    caller.allow(BLOB_OPERATIONS.writeBlob);
    return "write";
  } catch (err) {
    if (!(err instanceof TableKitError) || err.code !== "AuthorizationPermissionMismatch") throw err;
    caller.allow(BLOB_OPERATIONS.createBlob);
    if (await exists()) throw err;
    return "createOnly";
  }
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
      const authorized = authorizeStorage(ctx, {
        service: "blob",
        accounts: deps.accounts,
        resource:
          resource.kind === "service"
            ? {}
            : resource.kind === "container"
              ? { container: resource.container }
              : { container: resource.container, blob: resource.blob },
        storedPolicy,
        ...(deps.oauth ? { oauth: deps.oauth } : {}),
      });
      const caller: StorageCaller =
        authorized.kind === "anonymous"
          ? { kind: "anonymous", publicAccess: await publicAccessLevel(store, container) }
          : authorized;
      if (resource.kind !== "service" && (resource.container.length < 3 || resource.container.length > 63)) {
        throw nameLengthOutOfRange();
      }
      // Blob Batch: each sub-request goes through this same `answer`, as a request of its own.
      if (isBatchRequest(ctx)) return answerBatch(ctx, caller, (sub) => service.answer(service.context(sub)));
      if (resource.kind === "blob") await answerBlob(ctx, caller, blobDeps);
      else await answerContainerOrService(ctx, caller, blobDeps);
    },
  };
  return service;
}
