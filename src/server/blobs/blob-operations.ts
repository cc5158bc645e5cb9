import type { BlobOperation } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import type { Operation } from "../http/operations.js";
import { isServicePropertiesRequest } from "../protocol/service-properties.js";
import { answerBatch } from "./blob-batch.js";
import { BLOB_ROUTES_OF_BLOBS, READ } from "./blob-level-operations.js";
import type { BlobResource } from "./blob-resource.js";
import * as blob from "./blob-routes.js";
import type { BlobContext, BlobDeps } from "./blob-service.js";
import * as container from "./container-routes.js";

/**
 * The Blob service as a list of operations (the route recipe, src/server/http/operations.ts):
 * one entry per operation of the REST reference, first match wins. `needs` names the operation in
 * src/store/access/storage-operations.ts that the server asks the core first (askCore); the port
 * asks the same `AccessPolicy` again. Entries without `needs` ask in their handler (per comp,
 * per lease action, write-or-create).
 */
export type BlobOperationRoute = Operation<
  BlobContext,
  BlobResource["kind"],
  BlobOperation,
  StorageCaller,
  BlobDeps
>;

/** Blob Batch: each sub-request goes through the service's own `answer`, as a request of its own. */
const blobBatch = (ctx: BlobContext, caller: StorageCaller, deps: BlobDeps) =>
  answerBatch(ctx, caller, deps.answerSubRequest);

const SERVICE_ROUTES: readonly BlobOperationRoute[] = [
  { name: "Blob Batch", methods: ["POST"], resource: "service", comp: "batch", handle: blobBatch },
  {
    name: "Get User Delegation Key",
    methods: "*",
    resource: "service",
    comp: "userdelegationkey",
    handle: container.userDelegationKey,
  },
  // Get/Set Blob Service Properties and Get Blob Service Stats: the shared answerer asks the core per comp.
  {
    name: "Blob Service Properties",
    methods: "*",
    resource: "service",
    comp: "*",
    when: isServicePropertiesRequest,
    handle: container.blobServiceProperties,
  },
  {
    name: "Get Account Information",
    methods: "*",
    resource: "service",
    restype: "account",
    comp: "properties",
    needs: "getAccountInfo",
    handle: container.getAccountInfo,
  },
  // Answers its own 405 for any verb but GET; asks the core after it.
  {
    name: "Find Blobs by Tags",
    methods: "*",
    resource: "service",
    comp: "blobs",
    when: (ctx) => !ctx.query.has("restype"),
    handle: container.findBlobs,
  },
  {
    name: "List Containers",
    methods: ["GET"],
    resource: "service",
    comp: "list",
    needs: "listContainers",
    handle: container.listContainers,
  },
];

const CONTAINER = { resource: "container", restype: "container" } as const;

const CONTAINER_ROUTES: readonly BlobOperationRoute[] = [
  // The SDKs send a container's batch with or without restype=container: answerBatch checks it.
  { name: "Blob Batch", methods: ["POST"], resource: "container", comp: "batch", handle: blobBatch },
  {
    name: "Any operation on $root, $logs or $web",
    methods: "*",
    ...CONTAINER,
    comp: "*",
    when: container.isSystemContainer,
    handle: container.answerSystemContainer,
  },
  {
    name: "Create Container",
    methods: ["PUT"],
    ...CONTAINER,
    needs: "createContainer",
    handle: container.createContainer,
  },
  {
    name: "Delete Container",
    methods: ["DELETE"],
    ...CONTAINER,
    needs: "deleteContainer",
    handle: container.deleteContainer,
  },
  {
    name: "Get Container Properties",
    methods: READ,
    ...CONTAINER,
    needs: "getContainerProperties",
    handle: container.getContainerProperties,
  },
  {
    name: "Get Container Metadata",
    methods: READ,
    ...CONTAINER,
    comp: "metadata",
    needs: "getContainerProperties",
    handle: container.getContainerProperties,
  },
  {
    name: "Set Container Metadata",
    methods: ["PUT"],
    ...CONTAINER,
    comp: "metadata",
    needs: "setContainerMetadata",
    handle: container.setContainerMetadata,
  },
  {
    name: "Get Container ACL",
    methods: READ,
    ...CONTAINER,
    comp: "acl",
    needs: "getContainerAcl",
    handle: container.getContainerAcl,
  },
  {
    name: "Set Container ACL",
    methods: ["PUT"],
    ...CONTAINER,
    comp: "acl",
    needs: "setContainerAcl",
    handle: container.setContainerAcl,
  },
  {
    name: "List Blobs",
    methods: ["GET"],
    ...CONTAINER,
    comp: "list",
    needs: "listBlobs",
    handle: container.listBlobsOfContainer,
  },
  // Acquire, renew, change, release, break: the handler asks per action.
  {
    name: "Lease Container",
    methods: ["PUT"],
    ...CONTAINER,
    comp: "lease",
    handle: container.leaseContainer,
  },
  {
    name: "Find Blobs by Tags in Container",
    methods: ["GET"],
    ...CONTAINER,
    comp: "blobs",
    handle: container.findBlobsInContainer,
  },
];

export const BLOB_ROUTES: readonly BlobOperationRoute[] = [
  ...SERVICE_ROUTES,
  ...CONTAINER_ROUTES,
  ...BLOB_ROUTES_OF_BLOBS,
];

/** What the Blob service answers a request no entry matches (its codes for unknown operations). */
export function unmatchedBlobRequest(ctx: BlobContext): never {
  if (ctx.resource.kind === "blob") return blob.unmatchedBlobLevelRequest(ctx);
  if (ctx.resource.kind === "service") return container.unmatchedServiceRequest(ctx);
  return container.unmatchedContainerRequest(ctx);
}
