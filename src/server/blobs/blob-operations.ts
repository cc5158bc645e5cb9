import type { BlobOperation } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import type { Operation } from "../http/operations.js";
import { isServicePropertiesRequest } from "../protocol/service-properties.js";
import { askCore } from "./blob-ask.js";
import { answerBatch } from "./blob-batch.js";
import {
  getBlobMetadata,
  leaseResource,
  setBlobMetadata,
  setBlobProperties,
} from "./blob-property-routes.js";
import type { BlobResource } from "./blob-resource.js";
import * as blob from "./blob-routes.js";
import { onBlob } from "./blob-routes.js";
import type { BlobContext, BlobDeps } from "./blob-service.js";
import { getBlockList, putBlock, putBlockList } from "./block-list-routes.js";
import * as container from "./container-routes.js";
import { abortCopy, copyBlob, isCopy, putBlockFromUrl } from "./copy-routes.js";
import { incrementalCopy } from "./incremental-copy-route.js";
import { asksPageProperties } from "./page-blob-routes.js";
import { snapshotBlob } from "./snapshot-routes.js";
import { undeleteBlob } from "./soft-delete-routes.js";
import { answerBlobTags, answerBlobTier } from "./tag-routes.js";

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

const READ = ["GET", "HEAD"];

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

const BLOB = { resource: "blob" } as const;

const BLOB_ROUTES_OF_BLOBS: readonly BlobOperationRoute[] = [
  {
    name: "Any operation on a version",
    methods: "*",
    ...BLOB,
    comp: "*",
    when: (ctx) => ctx.query.has("versionid"),
    handle: blob.refuseVersions,
  },
  // Get Blob, Get Blob Properties and Delete Blob of a snapshot; anything else naming one is refused.
  {
    name: "Any operation on a snapshot",
    methods: "*",
    ...BLOB,
    comp: "*",
    when: (ctx) => ctx.query.has("snapshot"),
    handle: blob.answerSnapshotOf,
  },
  { name: "Get Blob", methods: ["GET"], ...BLOB, needs: "readBlob", handle: onBlob(blob.getBlob) },
  {
    name: "Get Blob Properties",
    methods: ["HEAD"],
    ...BLOB,
    needs: "readBlob",
    handle: onBlob(blob.getBlob),
  },
  // Copy Blob and Put Blob ask for `w`, or `c` alone for a create-only write.
  {
    name: "Copy Blob",
    methods: ["PUT"],
    ...BLOB,
    when: isCopy,
    handle: onBlob((ctx, caller, b) => copyBlob(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Put Blob",
    methods: ["PUT"],
    ...BLOB,
    handle: onBlob((ctx, caller, b) => blob.putBlob(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Abort Copy Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "copy",
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => abortCopy(ctx, caller, b.client)),
  },
  {
    name: "Incremental Copy Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "incrementalcopy",
    handle: onBlob((ctx, caller, b) => incrementalCopy(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Snapshot Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "snapshot",
    needs: "createBlob",
    handle: onBlob((ctx, caller, b) => snapshotBlob(ctx, caller, b.client, b.conditions)),
  },
  {
    name: "Undelete Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "undelete",
    needs: "undeleteBlob",
    handle: onBlob((ctx, caller, b) => undeleteBlob(ctx, caller, b.client)),
  },
  { name: "Delete Blob", methods: ["DELETE"], ...BLOB, needs: "deleteBlob", handle: onBlob(blob.deleteBlob) },
  {
    name: "Put Block From URL",
    methods: ["PUT"],
    ...BLOB,
    comp: "block",
    when: isCopy,
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => putBlockFromUrl(ctx, caller, b.container, b.name)),
  },
  {
    name: "Put Block",
    methods: ["PUT"],
    ...BLOB,
    comp: "block",
    handle: onBlob((ctx, caller, b) => putBlock(ctx, caller, b.container, b.name)),
  },
  {
    name: "Put Block List",
    methods: ["PUT"],
    ...BLOB,
    comp: "blocklist",
    handle: onBlob((ctx, caller, b) => putBlockList(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Get Block List",
    methods: ["GET"],
    ...BLOB,
    comp: "blocklist",
    needs: "readBlob",
    handle: onBlob((ctx, caller, b) => getBlockList(ctx, caller, b.container, b.name)),
  },
  // Append Block From URL too (x-ms-copy-source): the same checks first.
  {
    name: "Append Block",
    methods: ["PUT"],
    ...BLOB,
    comp: "appendblock",
    needs: "appendBlock",
    handle: onBlob(blob.appendBlock),
  },
  // x-ms-if-tags is read before the core is asked, as the handler always has.
  {
    name: "Set Blob Tags",
    methods: ["PUT"],
    ...BLOB,
    comp: "tags",
    handle: onBlob((ctx, caller, b) =>
      answerBlobTags(ctx, (op) => askCore(caller, op, b.target), b.container, b.name),
    ),
  },
  {
    name: "Get Blob Tags",
    methods: ["GET"],
    ...BLOB,
    comp: "tags",
    handle: onBlob((ctx, caller, b) =>
      answerBlobTags(ctx, (op) => askCore(caller, op, b.target), b.container, b.name),
    ),
  },
  {
    name: "Set Blob Tier",
    methods: ["PUT"],
    ...BLOB,
    comp: "tier",
    needs: "setBlobTier",
    handle: onBlob((ctx, caller, b) =>
      answerBlobTier(ctx, (op) => askCore(caller, op, b.target), b.container, b.name),
    ),
  },
  {
    name: "Put Page",
    methods: ["PUT"],
    ...BLOB,
    comp: "page",
    needs: "writeBlob",
    handle: onBlob(blob.putPageOf),
  },
  {
    name: "Get Page Ranges",
    methods: READ,
    ...BLOB,
    comp: "pagelist",
    needs: "readBlob",
    handle: onBlob(blob.getPageRangesOf),
  },
  {
    name: "Append Blob Seal",
    methods: ["PUT"],
    ...BLOB,
    comp: "seal",
    needs: "writeBlob",
    handle: onBlob(blob.sealBlobOf),
  },
  {
    name: "Set Blob Metadata",
    methods: ["PUT"],
    ...BLOB,
    comp: "metadata",
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => setBlobMetadata(ctx, caller, b.container, b.name, b.conditions)),
  },
  // A page blob's size or sequence number (x-ms-blob-content-length, x-ms-sequence-number-action).
  {
    name: "Set Blob Properties (page blob)",
    methods: ["PUT"],
    ...BLOB,
    comp: "properties",
    when: asksPageProperties,
    needs: "writeBlob",
    handle: onBlob(blob.setPagePropertiesOf),
  },
  {
    name: "Set Blob Properties",
    methods: ["PUT"],
    ...BLOB,
    comp: "properties",
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => setBlobProperties(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Get Blob Metadata",
    methods: READ,
    ...BLOB,
    comp: "metadata",
    needs: "readBlob",
    handle: onBlob((ctx, caller, b) => getBlobMetadata(ctx, caller, b.container, b.name, b.conditions)),
  },
  // Acquire, renew, change, release, break: the handler asks per action.
  {
    name: "Lease Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "lease",
    handle: onBlob((ctx, caller, b) => leaseResource(ctx, caller, b.container, b.name, b.conditions)),
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
