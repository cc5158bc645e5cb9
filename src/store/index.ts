export {
  type AccessOperation,
  AccessPolicy,
  type AccessScope,
  type AccountAccessScope,
  inKeyRange,
  type TableAccessScope,
} from "./access-policy.js";
export type * from "./backend.js";
export type { OperationOptions } from "./call-options.js";
export type { Capabilities } from "./capabilities.js";
export { DEVELOPMENT_ACCOUNT } from "./development-account.js";
export { DEFAULT_STORE_URL, openStore } from "./open-store.js";
export type { Page, PagedAsyncIterableIterator, PageSettings } from "./paging.js";
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
export { type ListTablesOptions, Store } from "./store.js";
export {
  type GetEntityOptions,
  type ListEntitiesOptions,
  Table,
  type UpdateOptions,
  type WriteResponse,
} from "./table.js";
export type { TransactionAction, TransactionResponse, TransactionSubResponse } from "./transaction.js";
export {
  type AccessTokenOptions,
  type AccountKeys,
  type StoredAccessPolicy,
  type VerifySasOptions,
  verifySasToken,
} from "./verify-sas.js";
