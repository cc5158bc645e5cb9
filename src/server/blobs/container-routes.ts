import { TableKitError } from "../../model/index.js";
import type { BlobContainer, HierarchyItem, PublicAccessLevel } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { MAX_SETTINGS_BODY_BYTES, parseStorageAcl, storageAclXml } from "../protocol/access-policies.js";
import { metadataFromHeaders, metadataHeaders } from "../protocol/metadata-headers.js";
import { invalidUri, ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { maxResults } from "../protocol/query-parameters.js";
import { answerServiceProperties } from "../protocol/service-properties.js";
import { httpDate } from "../protocol/xml.js";
import { askCore, notServed } from "./blob-ask.js";
import { httpConditions } from "./blob-conditions.js";
import { leaseHeaders } from "./blob-http.js";
import { leaseResource } from "./blob-property-routes.js";
import type { BlobContext, BlobDeps } from "./blob-service.js";
import { blobListingXml, containerListingXml } from "./blob-xml.js";
import { answerFindBlobs } from "./tag-routes.js";
import { answerUserDelegationKey } from "./user-delegation-key.js";

/**
 * The Blob service's service and container operations over the blob port, which keeps container
 * metadata, public access and stored access policies (and checks them).
 */

const XML = { "content-type": "application/xml" };
const PAGE = 5000;
/** Containers the service reserves (Azure's naming rules allow them; the port's rules do not). */
const SYSTEM_CONTAINERS = new Set(["$root", "$logs", "$web"]);

function publicAccessOf(ctx: BlobContext): PublicAccessLevel | undefined {
  const value = ctx.req.headers["x-ms-blob-public-access"];
  if (value === undefined || value === "") return undefined;
  if (value === "blob" || value === "container") return value;
  throw new ProtocolError(400, "InvalidHeaderValue", "x-ms-blob-public-access must be blob or container.");
}

/** The container a container operation names, and its client on the caller's scoped store. */
function containerOf(ctx: BlobContext, caller: StorageCaller): { name: string; container: BlobContainer } {
  const name = (ctx.resource as { container: string }).container;
  return { name, container: caller.store.container(name) };
}

/** `$root`, `$logs` and `$web`: valid names the server never creates. */
export function isSystemContainer(ctx: BlobContext): boolean {
  return ctx.resource.kind === "container" && SYSTEM_CONTAINERS.has(ctx.resource.container);
}

/** Any operation on a system container: reads find nothing, anything else is not served. */
export async function answerSystemContainer(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name } = containerOf(ctx, caller);
  if (ctx.method === "GET" || ctx.method === "HEAD") {
    // No public access level opens what does not exist: anonymous callers hear ResourceNotFound.
    caller.store.access?.checkBlob("getContainerProperties", { container: name });
    throw new TableKitError("ContainerNotFound", "The specified container does not exist.");
  }
  throw notServed("the system containers $root, $logs and $web");
}

/** Create Container. */
export async function createContainer(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name, container } = containerOf(ctx, caller);
  const metadataOf = () => metadataFromHeaders(ctx.req);
  askCore(caller, "createContainer", { container: name });
  const publicAccess = publicAccessOf(ctx);
  const created = await container.create({
    metadata: metadataOf(),
    ...(publicAccess ? { access: publicAccess } : {}),
  });
  send(ctx, 201, { etag: created.etag, "last-modified": httpDate(created.lastModified) });
}

/** Delete Container. */
export async function deleteContainer(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name, container } = containerOf(ctx, caller);
  askCore(caller, "deleteContainer", { container: name });
  const leaseId = ctx.req.headers["x-ms-lease-id"];
  await container.delete(typeof leaseId === "string" ? { conditions: { leaseId: leaseId.trim() } } : {});
  send(ctx, 202, {});
}

/** Get Container Properties and Get Container Metadata. */
export async function getContainerProperties(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name, container } = containerOf(ctx, caller);
  askCore(caller, "getContainerProperties", { container: name });
  const found = await container.getProperties();
  send(ctx, 200, {
    etag: found.etag,
    "last-modified": httpDate(found.lastModified),
    ...leaseHeaders(found),
    "x-ms-has-immutability-policy": "false",
    "x-ms-has-legal-hold": "false",
    ...(found.blobPublicAccess ? { "x-ms-blob-public-access": found.blobPublicAccess } : {}),
    ...metadataHeaders(found.metadata),
  });
}

/** Set Container Metadata. */
export async function setContainerMetadata(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name, container } = containerOf(ctx, caller);
  const metadataOf = () => metadataFromHeaders(ctx.req);
  askCore(caller, "setContainerMetadata", { container: name });
  // Set Container Metadata honours If-Modified-Since (the one condition it supports).
  const since = httpConditions(ctx).ifModifiedSince;
  const changed = await container.setMetadata(
    metadataOf(),
    since ? { conditions: { ifModifiedSince: since } } : {},
  );
  send(ctx, 200, { etag: changed.etag, "last-modified": httpDate(changed.lastModified) });
}

/** Get Container ACL. */
export async function getContainerAcl(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name, container } = containerOf(ctx, caller);
  askCore(caller, "getContainerAcl", { container: name });
  const found = await container.getProperties();
  const { blobPublicAccess, signedIdentifiers } = await container.getAccessPolicy();
  send(
    ctx,
    200,
    {
      ...XML,
      etag: found.etag,
      "last-modified": httpDate(found.lastModified),
      ...(blobPublicAccess ? { "x-ms-blob-public-access": blobPublicAccess } : {}),
    },
    storageAclXml(signedIdentifiers),
  );
}

/** Set Container ACL. */
export async function setContainerAcl(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name, container } = containerOf(ctx, caller);
  askCore(caller, "setContainerAcl", { container: name });
  const identifiers = parseStorageAcl(await readBody(ctx.req, MAX_SETTINGS_BODY_BYTES));
  const publicAccess = publicAccessOf(ctx);
  const changed = await container.setAccessPolicy(publicAccess, identifiers);
  send(ctx, 200, { etag: changed.etag, "last-modified": httpDate(changed.lastModified) });
}

/** List Blobs. */
export function listBlobsOfContainer(ctx: BlobContext, caller: StorageCaller, deps: BlobDeps): Promise<void> {
  const { name } = containerOf(ctx, caller);
  return listBlobs(ctx, caller, deps, name);
}

/** Lease Container. */
export function leaseContainer(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { container } = containerOf(ctx, caller);
  return leaseResource(ctx, caller, container, undefined, httpConditions(ctx));
}

/** Find Blobs by Tags in a container. */
export function findBlobsInContainer(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  const { name } = containerOf(ctx, caller);
  return answerFindBlobs(ctx, (op) => askCore(caller, op, { container: name }), caller, name);
}

/** What the service answers a container request no operation matches. */
export function unmatchedContainerRequest(ctx: BlobContext): never {
  const comp = ctx.query.get("comp");
  if (ctx.query.get("restype") !== "container") {
    throw new ProtocolError(
      400,
      "InvalidQueryParameterValue",
      "A container operation takes restype=container.",
    );
  }
  // Blob Batch is a POST, matched first (blob-operations.ts).
  if (comp === "batch") throw unsupportedVerb(ctx.method);
  if (ctx.method === "GET" || ctx.method === "PUT" || ctx.method === "HEAD" || ctx.method === "DELETE") {
    throw notServed(`comp=${comp} on a container`);
  }
  throw unsupportedVerb(ctx.method);
}

/** Get User Delegation Key (`comp=userdelegationkey`, a bearer token's POST). */
export function userDelegationKey(ctx: BlobContext, caller: StorageCaller, deps: BlobDeps): Promise<void> {
  return answerUserDelegationKey(ctx, caller, deps);
}

/** Get and Set Blob Service Properties and Get Blob Service Stats: the shared answerer asks the core per comp. */
export async function blobServiceProperties(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
): Promise<void> {
  await answerServiceProperties(ctx, {
    service: "blob",
    store: caller.store,
    cors: deps.cors,
    check: (operation) => askCore(caller, operation),
  });
}

/** Get Account Information. */
export async function getAccountInfo(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  askCore(caller, "getAccountInfo");
  send(ctx, 200, {
    // Read-access geo-redundant: serve answers reads on the account's -secondary endpoint.
    "x-ms-sku-name": "Standard_RAGRS",
    "x-ms-account-kind": "StorageV2",
    "x-ms-is-hns-enabled": "false",
  });
}

/** Find Blobs by Tags across the account (`comp=blobs` without restype). */
export function findBlobs(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  return answerFindBlobs(ctx, (op) => askCore(caller, op), caller);
}

/** List Containers. */
export async function listContainers(ctx: BlobContext, caller: StorageCaller): Promise<void> {
  askCore(caller, "listContainers");
  const prefix = ctx.query.get("prefix") ?? undefined;
  const marker = ctx.query.get("marker") ?? undefined;
  const size = maxResults(ctx, PAGE);
  const withMetadata = (ctx.query.get("include") ?? "").split(",").includes("metadata");
  const pages = caller.store
    .listContainers({ ...(prefix === undefined ? {} : { prefix }), includeMetadata: withMetadata })
    .byPage({
      ...(size === undefined ? {} : { maxPageSize: size }),
      ...(marker ? { continuationToken: marker } : {}),
    });
  const next = await pages.next();
  const page = next.done ? { containerItems: [] } : next.value;
  send(
    ctx,
    200,
    XML,
    containerListingXml({
      serviceEndpoint: ctx.baseUrl,
      ...(prefix === undefined ? {} : { prefix }),
      ...(marker === undefined ? {} : { marker }),
      ...(size === undefined ? {} : { maxResults: size }),
      containers: page.containerItems.map((c) => ({
        ...c,
        ...(c.properties.publicAccess ? { publicAccess: c.properties.publicAccess } : {}),
      })),
      ...(page.continuationToken === undefined ? {} : { nextMarker: page.continuationToken }),
    }),
  );
}

/** What the service answers a service request no operation matches. */
export function unmatchedServiceRequest(ctx: BlobContext): never {
  if (ctx.query.get("comp") === "list") throw unsupportedVerb(ctx.method);
  if (ctx.query.has("comp") || ctx.query.has("restype")) throw notServed(`this service operation`);
  throw invalidUri();
}

async function listBlobs(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
  name: string,
): Promise<void> {
  askCore(caller, "listBlobs", { container: name });
  const container = caller.store.container(name);
  const prefix = ctx.query.get("prefix") ?? undefined;
  const delimiter = ctx.query.get("delimiter") ?? undefined;
  const marker = ctx.query.get("marker") ?? undefined;
  const size = maxResults(ctx, PAGE);
  // The service reads the values in any case (include=Snapshots lists snapshots).
  const include = (ctx.query.get("include") ?? "")
    .split(",")
    .filter((s) => s !== "")
    .map((s) => s.toLowerCase());
  // Inclusions that would list what the server never has (versions, deleted blobs) change nothing.
  for (const wanted of include) {
    if (
      ![
        "metadata",
        "snapshots",
        "uncommittedblobs",
        "deleted",
        "versions",
        "copy",
        "deletedwithversions",
        "immutabilitypolicy",
        "legalhold",
        "tags",
        "permissions",
      ].includes(wanted)
    ) {
      throw new ProtocolError(
        400,
        "InvalidQueryParameterValue",
        `include=${wanted} is not a listing option.`,
      );
    }
  }
  // Snapshots where the store keeps them; a store without (S3) has none to list.
  const caps = deps.store(ctx.account).blobCapabilities;
  const snapshots = include.includes("snapshots") && caps?.snapshots === true;
  // Soft-deleted blobs likewise, where the store keeps them.
  const deleted = include.includes("deleted") && caps?.softDelete === true;
  // Names with staged blocks only, where the store keeps staged blocks (S3 has none to list).
  const uncommitted = include.includes("uncommittedblobs") && caps?.blocks === true;
  const options = {
    ...(prefix === undefined ? {} : { prefix }),
    ...(deleted ? { includeDeleted: true } : {}),
    includeMetadata: include.includes("metadata"),
    ...(include.includes("tags") ? { includeTags: true } : {}),
    ...(snapshots ? { includeSnapshots: true } : {}),
    ...(include.includes("copy") ? { includeCopy: true } : {}),
    ...(uncommitted ? { includeUncommitedBlobs: true } : {}),
  };
  const settings = {
    ...(size === undefined ? {} : { maxPageSize: size }),
    ...(marker ? { continuationToken: marker } : {}),
  };
  let items: HierarchyItem[];
  let nextMarker: string | undefined;
  if (delimiter === undefined || delimiter === "") {
    const next = await container.listBlobsFlat(options).byPage(settings).next();
    items = next.done ? [] : next.value.segment.blobItems.map((b) => ({ kind: "blob" as const, ...b }));
    nextMarker = next.done ? undefined : next.value.continuationToken;
  } else {
    const next = await container.listBlobsByHierarchy(delimiter, options).byPage(settings).next();
    const segment = next.done ? undefined : next.value;
    items = segment
      ? [
          ...segment.segment.blobPrefixes.map((p) => ({ kind: "prefix" as const, name: p.name })),
          ...segment.segment.blobItems.map((b) => ({ kind: "blob" as const, ...b })),
        ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      : [];
    nextMarker = segment?.continuationToken;
  }
  if (items.length === 0 && marker === undefined) {
    // An empty listing of a missing container is ContainerNotFound. The listing was authorized;
    // whether its container exists is asked of the account's store (a token with `l` alone may
    // not read the container's properties, and must still hear 404, as before).
    await deps
      .store(ctx.account)
      .container(name)
      .getProperties()
      .catch((err: unknown) => {
        if (err instanceof TableKitError) throw err;
      });
  }
  send(
    ctx,
    200,
    XML,
    blobListingXml({
      serviceEndpoint: ctx.baseUrl,
      containerName: name,
      ...(prefix === undefined ? {} : { prefix }),
      ...(marker === undefined ? {} : { marker }),
      ...(size === undefined ? {} : { maxResults: size }),
      ...(delimiter === undefined ? {} : { delimiter }),
      items,
      ...(nextMarker === undefined ? {} : { nextMarker }),
    }),
  );
}
