/**
 * The one error class of tablekit. Callers branch on `err.code`; codes mirror the Azure Table
 * service's own so code written against Azure keeps working. Every code is listed in docs/errors.md.
 */

/** Every stable error code, with the HTTP status the Table service answers it with. */
export const ERROR_STATUS = {
  // Entities and tables
  EntityAlreadyExists: 409,
  TableAlreadyExists: 409,
  UpdateConditionNotSatisfied: 412,
  ResourceNotFound: 404,
  TableNotFound: 404,
  TableBeingDeleted: 409,
  // Bad input
  InvalidInput: 400,
  InvalidResourceName: 400,
  InvalidValueType: 400,
  OutOfRangeInput: 400,
  KeyValueTooLarge: 400,
  PropertyNameInvalid: 400,
  PropertyNameTooLong: 400,
  PropertyValueTooLarge: 400,
  TooManyProperties: 400,
  EntityTooLarge: 400,
  DuplicatePropertiesSpecified: 400,
  // Entity group transactions
  InvalidDuplicateRow: 400,
  CommandsInBatchActOnDifferentPartitions: 400,
  // $filter
  InvalidFilter: 400,
  // Queues (Azure Queue Storage's codes)
  QueueNotFound: 404,
  QueueAlreadyExists: 409,
  QueueBeingDeleted: 409,
  MessageNotFound: 404,
  PopReceiptMismatch: 400,
  RequestBodyTooLarge: 413,
  OutOfRangeQueryParameterValue: 400,
  InvalidQueryParameterValue: 400,
  // Blobs (the Blob service's own codes)
  ContainerNotFound: 404,
  ContainerAlreadyExists: 409,
  ContainerBeingDeleted: 409,
  BlobNotFound: 404,
  BlobAlreadyExists: 409,
  ConditionNotMet: 412,
  InvalidRange: 416,
  InvalidBlobType: 409,
  InvalidMetadata: 400,
  MetadataTooLarge: 400,
  SnapshotsPresent: 409,
  PreviousSnapshotNotFound: 409,
  PreviousSnapshotCannotBeNewer: 400,
  IncrementalCopySourceMustBeSnapshot: 409,
  IncrementalCopyOfEarlierSnapshotNotAllowed: 409,
  IncrementalCopyBlobMismatch: 409,
  OperationNotAllowedOnIncrementalCopyBlob: 409,
  NoPendingCopyOperation: 409,
  CannotVerifyCopySource: 404,
  SourceConditionNotMet: 412,
  Md5Mismatch: 400,
  UnsatisfiableCondition: 400,
  // Stored access policies and service properties (the services' XML-node answers)
  InvalidXmlDocument: 400,
  InvalidXmlNodeValue: 400,
  BlockCountExceedsLimit: 409,
  InvalidBlockId: 400,
  InvalidBlockList: 400,
  InvalidBlobOrBlock: 400,
  AppendPositionConditionNotMet: 412,
  MaxBlobSizeConditionNotMet: 412,
  // Leases on blobs and containers (the Blob service's codes; docs/blobs.md#leases)
  LeaseIdMissing: 412,
  LeaseIdMismatchWithBlobOperation: 412,
  LeaseIdMismatchWithContainerOperation: 412,
  LeaseNotPresentWithBlobOperation: 412,
  LeaseNotPresentWithContainerOperation: 412,
  LeaseIdMismatchWithLeaseOperation: 409,
  LeaseNotPresentWithLeaseOperation: 409,
  LeaseAlreadyPresent: 409,
  LeaseIsBrokenAndCannotBeRenewed: 409,
  LeaseIsBreakingAndCannotBeAcquired: 409,
  LeaseIsBreakingAndCannotBeChanged: 409,
  // Blob index tags and access tiers
  InvalidTag: 400,
  TagsTooLarge: 400,
  InvalidHeaderValue: 400,
  BlobArchived: 409,
  BlobBeingRehydrated: 409,
  InvalidBlobTier: 400,
  AccessTierNotSupportedForBlobType: 400,
  BlobIsSealed: 409,
  SequenceNumberConditionNotMet: 412,
  InvalidPageRange: 416,
  // Authorization (shared keys and shared access signatures; docs/patterns/scoped-access.md)
  AuthenticationFailed: 403,
  AuthorizationFailure: 403,
  AuthorizationPermissionMismatch: 403,
  AuthorizationResourceTypeMismatch: 403,
  AuthorizationServiceMismatch: 403,
  AuthorizationProtocolMismatch: 403,
  AuthorizationSourceIPMismatch: 403,
  // Client side
  InvalidContinuationToken: 400,
  InvalidStoreUrl: 400,
  FileNotAccessible: 400,
  NotSupported: 501,
  Aborted: 499,
  OperationTimedOut: 500,
  ServerBusy: 503,
  ConcurrencyRetriesExhausted: 409,
  BackendError: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface TableKitErrorOptions {
  /** The failing operation's 0-based index, for an entity group transaction. */
  index?: number;
  /** Position (0-based offset) in a `$filter` expression, for filter syntax errors. */
  position?: number;
  /** The backend's original error. */
  cause?: unknown;
  /** Extra structured details (the limit crossed, the offending property, ...). */
  details?: Record<string, unknown>;
}

/** The error body of the Table service, as `@azure/data-tables` parses it into `RestError.details`. */
export interface ODataError {
  readonly code: ErrorCode;
  readonly message: { readonly lang: "en-US"; readonly value: string };
}

/**
 * `err.details`: tablekit's own details (the limit crossed, the offending property, …), and — not
 * enumerable, so they stay out of spreads, JSON and equality — the two keys `@azure/data-tables`'
 * `RestError.details` has, so ported checks such as `err.details?.odataError?.code` keep working.
 */
export type TableKitErrorDetails = Record<string, unknown> & {
  readonly errorCode: ErrorCode;
  readonly odataError: ODataError;
};

export class TableKitError extends Error {
  override readonly name = "TableKitError";
  readonly code: ErrorCode;
  /** The HTTP status the Table service answers this code with. */
  readonly status: number;
  readonly index: number | undefined;
  readonly position: number | undefined;
  readonly details: TableKitErrorDetails;

  constructor(code: ErrorCode, message: string, options: TableKitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.index = options.index;
    this.position = options.position;
    const odataError: ODataError = { code, message: { lang: "en-US", value: message } };
    this.details = Object.defineProperties(
      { ...options.details },
      { errorCode: { value: code }, odataError: { value: odataError } },
    ) as TableKitErrorDetails;
  }

  /** `status` under the name `@azure/data-tables`' `RestError` gives it, for code ported from the SDK. */
  get statusCode(): number {
    return this.status;
  }

  /** A copy of this error tagged with the index of the transaction action that caused it. */
  withIndex(index: number): TableKitError {
    return new TableKitError(this.code, `${index}:${this.message}`, {
      index,
      position: this.position,
      details: this.details,
      cause: this.cause ?? this,
    });
  }
}

/** TableNotFound naming the table, which the service's own message ("The table specified does not exist.") does not. */
export function tableNotFound(tableName: string, options: TableKitErrorOptions = {}): TableKitError {
  return new TableKitError("TableNotFound", `The table '${tableName}' does not exist.`, {
    ...options,
    details: { ...options.details, tableName },
  });
}

/** True when `err` is a TableKitError, optionally with one of the given codes. */
export function isTableKitError(err: unknown, ...codes: ErrorCode[]): err is TableKitError {
  return err instanceof TableKitError && (codes.length === 0 || codes.includes(err.code));
}
