import { TableKitError } from "../../model/index.js";
import type { BlobOperation } from "../access/storage-operations.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { requireTags } from "./blob-annotations.js";
import type { ContainerBackend, StoredBlobItem } from "./blob-backend.js";
import { headerProperties } from "./blob-headers.js";
import type {
  BlobItem,
  HierarchyItem,
  ListBlobsFlatSegment,
  ListBlobsHierarchySegment,
  ListBlobsOptions,
} from "./blob-list-types.js";
import {
  blobNameMarkers,
  blobScope,
  resumeAfter,
  type SegmentedAsyncIterableIterator,
  segmentedIterator,
} from "./blob-paging.js";
import { copyProperties, tierProperties } from "./blob-properties.js";
import type { BlobPort } from "./blob-service.js";
import { requireSnapshots } from "./blob-snapshot.js";
import { deletionFields, requireSoftDelete } from "./blob-soft-delete.js";

/** Listing a container's blobs, flat or by hierarchy, as `BlobContainer` answers it. */

/** What a listing needs of its container: the port, the backend and the per-call checks. */
export interface ListingScope {
  readonly port: BlobPort;
  readonly backend: ContainerBackend;
  readonly containerName: string;
  begin(options: OperationOptions | undefined, operation: BlobOperation): Promise<CallOptions>;
}

/** Every blob whose name starts with `prefix`, in name order; `byPage()` yields the SDK's segments. */
export function listFlat(
  scope: ListingScope,
  options: ListBlobsOptions = {},
): SegmentedAsyncIterableIterator<BlobItem, ListBlobsFlatSegment> {
  const prefix = options.prefix ?? "";
  return segmentedIterator(
    async (maxPageSize, continuation, after) => {
      const page = await listPage(scope, options, maxPageSize, continuation, after);
      const withMetadata = options.includeMetadata === true;
      return {
        items: page.items.map((i) =>
          toBlobItem(i as StoredBlobItem, withMetadata, options.includeTags === true),
        ),
        continuation: page.continuation,
      };
    },
    pageSizes(scope, options, prefix),
    (blobItems, continuationToken) => withToken({ prefix, segment: { blobItems } }, continuationToken),
  );
}

/**
 * Blobs and virtual directories one level below `prefix`: a name holding `delimiter` after the
 * prefix rolls up into the prefix that ends there. Items come in name order, directories as
 * `{ kind: "prefix", name }`; a page counts both.
 */
export function listByHierarchy(
  scope: ListingScope,
  delimiter: string,
  options: ListBlobsOptions = {},
): SegmentedAsyncIterableIterator<HierarchyItem, ListBlobsHierarchySegment> {
  const prefix = options.prefix ?? "";
  return segmentedIterator(
    async (maxPageSize, continuation, after) => {
      if (typeof delimiter !== "string" || delimiter === "") {
        throw new TableKitError("InvalidInput", "The delimiter is a non-empty string, e.g. '/'");
      }
      const page = await listPage(scope, options, maxPageSize, continuation, after, delimiter);
      return {
        items: page.items.map(
          (i): HierarchyItem =>
            i.kind === "prefix"
              ? { kind: "prefix", name: i.name }
              : {
                  kind: "blob",
                  ...toBlobItem(i, options.includeMetadata === true, options.includeTags === true),
                },
        ),
        continuation: page.continuation,
      };
    },
    pageSizes(scope, options, prefix, typeof delimiter === "string" ? delimiter : ""),
    (items, continuationToken) =>
      withToken(
        {
          prefix,
          delimiter,
          segment: {
            blobItems: items.flatMap(({ kind, ...item }) => (kind === "blob" ? [item as BlobItem] : [])),
            blobPrefixes: items.flatMap((i) => (i.kind === "prefix" ? [{ name: i.name }] : [])),
          },
        },
        continuationToken,
      ),
  );
}

async function listPage(
  scope: ListingScope,
  options: ListBlobsOptions,
  maxPageSize: number,
  continuation: string | undefined,
  after: string | undefined,
  delimiter?: string,
) {
  const call = await scope.begin(options, "listBlobs");
  if (options.includeTags === true) requireTags(scope.port.capabilities);
  const prefix = options.prefix ?? "";
  if (typeof prefix !== "string") throw new TableKitError("InvalidInput", "prefix must be a string");
  if (options.includeSnapshots === true) requireSnapshots(scope.port.capabilities);
  if (options.includeDeleted === true) requireSoftDelete(scope.port.capabilities);
  if (options.includeUncommitedBlobs === true && !scope.port.capabilities.blocks) {
    throw new TableKitError(
      "NotSupported",
      `${scope.port.capabilities.backend} keeps no staged blocks (blobCapabilities.blocks is false)`,
    );
  }
  return scope.backend.list(
    {
      prefix,
      ...(delimiter === undefined ? {} : { delimiter }),
      maxPageSize,
      ...(continuation === undefined ? {} : { continuation }),
      ...afterMarker(scope, after, prefix, delimiter),
      includeMetadata: options.includeMetadata === true,
      ...(options.includeTags === true ? { includeTags: true } : {}),
      ...(options.includeSnapshots === true ? { includeSnapshots: true } : {}),
      ...(options.includeCopy === true ? { includeCopy: true } : {}),
      ...(options.includeDeleted === true ? { includeDeleted: true } : {}),
      ...(options.includeUncommitedBlobs === true ? { includeUncommitted: true } : {}),
    },
    call,
  );
}
/** Page sizes, what the listing's tokens are bound to, and whether they may be names. */
function pageSizes<T extends { name: string; snapshot?: string; kind?: string }>(
  scope: ListingScope,
  options: ListBlobsOptions,
  prefix: string,
  delimiter = "",
) {
  const caps = scope.port.capabilities;
  const names = blobNameMarkers<T>(caps, options.includeDeleted === true);
  return {
    defaultPageSize: caps.maxListPageSize,
    maxPageSize: caps.maxListPageSize,
    tokenScope: blobScope("blobs", scope.containerName, prefix, delimiter),
    ...(names ? { names } : {}),
  };
}

/** The backend's `after` for a name token (docs/blobs.md, Semantics: Listing). */
function afterMarker(
  scope: ListingScope,
  marker: string | undefined,
  prefix: string,
  delimiter: string | undefined,
) {
  const after =
    marker === undefined
      ? undefined
      : resumeAfter(marker, prefix, delimiter, scope.port.capabilities.nameOrder);
  return after === undefined ? {} : { after };
}

function toBlobItem(item: StoredBlobItem, includeMetadata: boolean, includeTags: boolean): BlobItem {
  const p = item.properties;
  const deletion = deletionFields(item.deleted);
  return {
    name: item.name,
    ...deletion.item,
    ...(item.snapshot === undefined ? {} : { snapshot: item.snapshot }),
    properties: {
      etag: p.etag,
      lastModified: p.lastModified,
      contentLength: p.contentLength,
      ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
      ...headerProperties(p.headers),
      blobType: p.blobType,
      ...(p.createdOn === undefined ? {} : { createdOn: p.createdOn }),
      ...(p.lease === undefined
        ? {}
        : {
            leaseState: p.lease.state,
            leaseStatus: p.lease.status,
            ...(p.lease.duration === undefined ? {} : { leaseDuration: p.lease.duration }),
          }),
      ...tierProperties(p),
      ...(p.blobType === "AppendBlob" ? { isSealed: p.sealed === true } : {}),
      ...(p.sequenceNumber === undefined ? {} : { blobSequenceNumber: p.sequenceNumber }),
      ...(p.copy ? copyProperties(p.copy) : {}),
      ...deletion.properties,
    },
    ...(includeMetadata ? { metadata: { ...p.metadata } } : {}),
    ...(includeTags && item.tags && Object.keys(item.tags).length > 0 ? { tags: { ...item.tags } } : {}),
  };
}

function withToken<T extends object>(
  segment: T,
  continuationToken: string | undefined,
): T & { continuationToken?: string } {
  return continuationToken === undefined ? segment : { ...segment, continuationToken };
}
