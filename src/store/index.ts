export { type AccessOperation, AccessPolicy, type AccessScope } from "./access-policy.js";
export {
  AppendBlobClient,
  type AppendBlobCreateOptions,
  type AppendBlockOptions,
  type AppendBlockResponse,
} from "./append-blob-client.js";
export type { AzureStoreOptions } from "./azure/connection.js";
export type { CommonStoreOptions } from "./backend.js";
export type { BlobCapabilities, BlobType, Metadata } from "./blob-backend.js";
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
export type { BlobStoreOptions, S3BlobOptions } from "./blob-options.js";
export type { SegmentedAsyncIterableIterator } from "./blob-paging.js";
export type { ContainerItem, ListContainersOptions, ListContainersSegment } from "./blob-port.js";
export { type BlobRequestConditions, validateBlobName, validateContainerName } from "./blob-rules.js";
export { BlockBlobClient, type BlockBlobUploadOptions } from "./block-blob-client.js";
export type { OperationOptions } from "./call-options.js";
export type { Capabilities } from "./capabilities.js";
export { DEVELOPMENT_ACCOUNT } from "./development-account.js";
export type { DynamoDbStoreOptions } from "./dynamodb/connection.js";
export type { EmbeddedStoreOptions } from "./embedded/connection.js";
export type { AccessOptions } from "./open-store.js";
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
} from "./queue.js";
export type { QueueCapabilities } from "./queue-backend.js";
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
} from "./sas-token.js";
export { type ListQueuesOptions, type ListTablesOptions, Store } from "./store.js";
export {
  type CreateTableOptions,
  type DeleteTableOptions,
  type GetEntityOptions,
  type ListEntitiesOptions,
  Table,
  type UpdateOptions,
  type WriteResponse,
} from "./table.js";
export type { UpdateMode } from "./table-backend.js";
export type { TableQueueOptions } from "./table-queue/connection.js";
export type { ThrottleEvent, ThrottleOptions, ThrottleProfile } from "./throttling.js";
export type { TransactionAction, TransactionResponse, TransactionSubResponse } from "./transaction.js";
export {
  type AccessTokenOptions,
  type AccountKeys,
  type StoredAccessPolicy,
  type VerifySasOptions,
  verifySasToken,
} from "./verify-sas.js";
