/**
 * tablekit/storage-blob: the basics of `@azure/storage-blob` a program uses, over any tablekit
 * store's blob port. Change the import line and the connection string (`memory:`, `file:./app.db`,
 * or an Azure connection string), and a blob program runs unchanged (docs/api.md#queues-and-blobs-tablekitstorage-queue-and-tablekitstorage-blob).
 * Nothing here loads the SDK.
 */

// Its declarations name Node types (streams, Buffer): a consumer without "types" loads them from here.
/// <reference types="node" preserve="true" />

export { isRestError, RestError } from "../data-tables/rest-error.js";
export { closeDataTablesStores as closeStorageBlobStores } from "../data-tables/store-registry.js";
export {
  AppendBlobClient,
  BlobClient,
  type BlobDeleteIfExistsResponse,
  type BlobDownloadResponse,
  type BlobGetPropertiesResponse,
  type BlobWriteResponse,
  BlockBlobClient,
  type BlockBlobUploadOptions,
  type BlockListEntry,
  type BlockListResponse,
  PageBlobClient,
} from "./blob-clients.js";
export { BlobLeaseClient, type Lease } from "./blob-lease-client.js";
export {
  BlobServiceClient,
  type ContainerItem,
  type ListContainersOptions,
  type ServiceListContainersSegmentResponse,
} from "./blob-service-client.js";
export {
  type BlobItem,
  type BlobPrefix,
  ContainerClient,
  type ContainerCreateOptions,
  type ContainerCreateResponse,
  type ContainerIfResponse,
  type HierarchyItem,
  type ListBlobsFlatSegmentResponse,
  type ListBlobsHierarchySegmentResponse,
} from "./container-client.js";
export type { BlobResponseHeaders } from "./responses.js";
