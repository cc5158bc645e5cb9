/**
 * tablekit/data-tables: what `@azure/data-tables` exports that a program uses, over any tablekit
 * store. Change the import line and the connection string (`memory:`, `file:./app.db`,
 * `dynamodb:…`, or an Azure connection string), and an Azure Table program runs unchanged
 * (docs/data-tables.md). Nothing here loads the SDK.
 */

// Its declarations name Node types (streams, Buffer): a consumer without "types" loads them from here.
/// <reference types="node" preserve="true" />

export {
  type AccountSasOptions,
  type AccountSasPermissions,
  type AccountSasServices,
  AzureNamedKeyCredential,
  AzureSASCredential,
  generateAccountSas,
  generateTableSas,
  type NamedKeyCredential,
  type SASCredential,
  type SasIPRange,
  type TableSasPermissions,
  type TableSasSignatureValues,
} from "./credentials.js";
export type {
  DeleteTableEntityOptions,
  Edm,
  EdmTypes,
  GetTableEntityOptions,
  ListTableEntitiesOptions,
  ListTableItemsOptions,
  OperationOptions,
  PagedAsyncIterableIterator,
  PageSettings,
  TableEntity,
  TableEntityQueryOptions,
  TableEntityResult,
  TableEntityResultPage,
  TableItem,
  TableItemResultPage,
  TableServiceClientOptions,
  TransactionAction,
  UpdateMode,
  UpdateTableEntityOptions,
} from "./models.js";
export { odata } from "./odata.js";
export type {
  TableDeleteEntityHeaders,
  TableInsertEntityHeaders,
  TableMergeEntityHeaders,
  TableTransactionEntityResponse,
  TableTransactionResponse,
  TableUpdateEntityHeaders,
} from "./responses.js";
export {
  type HttpHeaders,
  isRestError,
  type PipelineRequest,
  type PipelineResponse,
  RestError,
  type RestErrorOptions,
} from "./rest-error.js";
export type {
  AccessPolicy,
  CorsRule,
  GeoReplication,
  Logging,
  Metrics,
  RetentionPolicy,
  ServiceProperties,
  SignedIdentifier,
  TableServiceStats,
} from "./service-state.js";
export { closeDataTablesStores } from "./store-registry.js";
export { TableClient } from "./table-client.js";
export { TableServiceClient } from "./table-service-client.js";
export { TableTransaction } from "./table-transaction.js";
