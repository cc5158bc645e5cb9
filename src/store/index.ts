export {
  type AccessOperation,
  AccessPolicy,
  type AccessScope,
  type BlobTarget,
} from "./access/access-policy.js";
export { DEVELOPMENT_ACCOUNT } from "./access/development-account.js";
export {
  type AccountPermissions,
  type AccountSasOptions,
  DEFAULT_SAS_VERSION,
  type EntityKeyRange,
  generateAccountSas,
  generateTableSas,
  parseSasToken,
  type SasAccount,
  type SasFields,
  type SasIpRange,
  type SasProtocol,
  type TablePermissions,
  type TableSasOptions,
} from "./access/sas-token.js";
export type {
  CorsRule,
  Logging,
  Metrics,
  RetentionPolicy,
  ServiceProperties,
  StaticWebsite,
  StorageServiceName,
} from "./access/service-properties.js";
export type { PublicAccessLevel, ResourceMetadata as QueueMetadata } from "./access/state-backend.js";
export {
  type BlobOperation,
  PUBLIC_READS,
  type QueueOperation,
} from "./access/storage-operations.js";
export type { SignedIdentifier, TableSignedIdentifier } from "./access/stored-access-policies.js";
export {
  type AccessTokenOptions,
  type AccountKeys,
  type StoredAccessPolicy,
  type VerifySasOptions,
  verifySasToken,
} from "./access/verify-sas.js";
export type { AzureStoreOptions } from "./backends/azure/connection.js";
export type { DynamoDbStoreOptions } from "./backends/dynamodb/connection.js";
export type { EmbeddedStoreOptions } from "./backends/embedded/connection.js";
export type { BlobStoreOptions, S3BlobOptions } from "./backends/s3/connection.js";
export type { TableQueueOptions } from "./backends/table-queue/connection.js";
export {
  AppendBlobClient,
  type AppendBlobCreateOptions,
  type AppendBlockFromURLOptions,
  type AppendBlockOptions,
  type AppendBlockResponse,
} from "./blobs/append-blob-client.js";
export type {
  AccessTier,
  ArchiveStatus,
  BlobPart,
  BlobType,
  DeleteSnapshots,
  Metadata,
  RehydratePriority,
} from "./blobs/blob-backend.js";
export {
  type BatchBlob,
  BlobBatchClient,
  type BlobBatchResponse,
  type BlobBatchSubResponse,
  MAX_BLOB_BATCH,
} from "./blobs/blob-batch-client.js";
export type { BlobBytes, BlobStream } from "./blobs/blob-body.js";
export type { BlobCapabilities } from "./blobs/blob-capabilities.js";
export {
  BlobClient,
  type BlobCreateSnapshotOptions,
  type BlobCreateSnapshotResponse,
  type BlobDeleteOptions,
  type BlobDeleteResult,
  type BlobDownloadOptions,
  type BlobDownloadResponse,
  type BlobProperties,
  type BlobReadOptions,
  type BlobSetOptions,
  type BlobSetTierOptions,
  type BlobTagOptions,
  type BlobWriteResponse,
} from "./blobs/blob-client.js";
export { isNotModified } from "./blobs/blob-conditions.js";
export {
  BlobContainer,
  type BlobItem,
  type BlobPrefix,
  type ContainerCreateOptions,
  type ContainerDeleteOptions,
  type ContainerGetAccessPolicyResponse,
  type ContainerProperties,
  type HierarchyItem,
  type ListBlobsFlatSegment,
  type ListBlobsHierarchySegment,
  type ListBlobsOptions,
} from "./blobs/blob-container.js";
export type {
  BlobBeginCopyFromUrlPoller,
  BlobCopyOptions,
  BlobCopyResponse,
  BlobCopySourceConditions,
  BlobCopySourceTags,
} from "./blobs/blob-copy.js";
export { copySourceRefusal } from "./blobs/blob-copy.js";
export type { CopySource } from "./blobs/blob-copy-into.js";
export type { BlobHTTPHeaders } from "./blobs/blob-headers.js";
export { BlobLeaseClient, type Lease } from "./blobs/blob-lease-client.js";
export type { LeaseDuration, LeaseState, LeaseStatus } from "./blobs/blob-leases.js";
export type { SegmentedAsyncIterableIterator } from "./blobs/blob-paging.js";
export { type BlobRequestConditions, validateBlobName, validateContainerName } from "./blobs/blob-rules.js";
export type { ContainerItem, ListContainersOptions, ListContainersSegment } from "./blobs/blob-service.js";
export { checkSnapshot } from "./blobs/blob-snapshot.js";
export { type BlobTags, checkTags, tagsFromPairs } from "./blobs/blob-tags.js";
export {
  type BlobBlock,
  BlockBlobClient,
  type BlockBlobUploadOptions,
  type BlockListEntry,
  type BlockListResponse,
  type StageBlockOptions,
} from "./blobs/block-blob-client.js";
export type { FilterBlobItem, FindBlobsByTagsSegment } from "./blobs/find-by-tags.js";
export {
  PageBlobClient,
  type PageBlobCreateOptions,
  type PageBlobRequestConditions,
  type PageRangesResponse,
  type PageWriteOptions,
  type PageWriteResponse,
} from "./blobs/page-blob-client.js";
export { parseTagConditions, parseTagQuery } from "./blobs/tag-expression.js";
export type { OperationOptions } from "./call-options.js";
export type { AccessOptions, CoreStoreOptions } from "./open-store.js";
export {
  DEFAULT_STORE_URL,
  openStore,
  type StoreOptions,
  type StoreOptionsByScheme,
  type StoreScheme,
} from "./open-store.js";
export type { Page, PagedAsyncIterableIterator, PageSettings } from "./paging.js";
export {
  type PeekedMessageItem,
  Queue,
  type QueueCreateOptions,
  type QueueGetAccessPolicyResponse,
  type QueueGetPropertiesResponse,
  type QueueIfResponse,
  type QueuePeekMessagesOptions,
  type QueuePeekMessagesResponse,
  type QueueReceiveMessageOptions,
  type QueueReceiveMessageResponse,
  type QueueSendMessageOptions,
  type QueueSendMessageResponse,
  type QueueUpdateMessageResponse,
  type ReceivedMessageItem,
} from "./queues/queue.js";
export type { QueueCapabilities } from "./queues/queue-capabilities.js";
export type { StateCapabilities } from "./store.js";
export { type ListQueuesOptions, type ListTablesOptions, Store } from "./store.js";
export type { CommonStoreOptions } from "./store-options.js";
export {
  type CreateEntityOptions,
  type CreateTableOptions,
  type DeleteTableOptions,
  type GetEntityOptions,
  type ListEntitiesOptions,
  Table,
  type UpdateOptions,
  type WriteResponse,
} from "./tables/table.js";
export type { UpdateMode } from "./tables/table-backend.js";
export type { Capabilities } from "./tables/table-capabilities.js";
export type { CheckedEntity } from "./tables/table-rules.js";
export {
  RECEIVED_BODY_BYTES,
  type ReceivedTransactionOptions,
  STORED_ENTITY,
  type TransactionAction,
  type TransactionResponse,
  type TransactionSubResponse,
} from "./tables/table-transaction.js";
export type { ThrottleEvent, ThrottleOptions, ThrottleProfile } from "./throttling/throttling.js";
