export type {
  AppendBlobCreateOptions,
  AppendBlockOptions,
  AppendBlockResponse,
} from "./append-blob-client.js";
export { AppendBlobClient } from "./append-blob-client.js";
export type * from "./backend.js";
export type * from "./blob-backend.js";
export type { BlobBytes, BlobStream } from "./blob-body.js";
export {
  BlobClient,
  type BlobDeleteOptions,
  type BlobDownloadOptions,
  type BlobDownloadResponse,
  type BlobProperties,
  type BlobReadOptions,
  type BlobWriteResponse,
} from "./blob-client.js";
export {
  BlobContainer,
  type BlobItem,
  type BlobPrefix,
  type HierarchyItem,
  type ListBlobsFlatSegment,
  type ListBlobsHierarchySegment,
  type ListBlobsOptions,
} from "./blob-container.js";
export type { S3BlobOptions } from "./blob-options.js";
export type { SegmentedAsyncIterableIterator } from "./blob-paging.js";
export type { ContainerItem, ListContainersOptions, ListContainersSegment } from "./blob-port.js";
export type { BlobRequestConditions } from "./blob-rules.js";
export { BlockBlobClient, type BlockBlobUploadOptions } from "./block-blob-client.js";
export type { OperationOptions } from "./call-options.js";
export type { Capabilities } from "./capabilities.js";
export { DEFAULT_STORE_URL, openStore } from "./open-store.js";
export type { Page, PagedAsyncIterableIterator, PageSettings } from "./paging.js";
export { type ListTablesOptions, Store } from "./store.js";
export {
  type GetEntityOptions,
  type ListEntitiesOptions,
  Table,
  type UpdateOptions,
  type WriteResponse,
} from "./table.js";
export type { TransactionAction, TransactionResponse, TransactionSubResponse } from "./transaction.js";
