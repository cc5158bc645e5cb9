import { type ErrorCode, TableKitError } from "../../../model/index.js";

/**
 * S3's failures as TableKitError codes. S3 names some outcomes differently from the Blob service
 * (a failed `If-None-Match: *` is 412 PreconditionFailed, not 409 BlobAlreadyExists): the caller
 * passes what the request was, and the answer is the Blob service's.
 */
const BY_NAME: Readonly<Record<string, ErrorCode>> = {
  NoSuchBucket: "ContainerNotFound",
  NoSuchKey: "BlobNotFound",
  BucketAlreadyOwnedByYou: "ContainerAlreadyExists",
  BucketAlreadyExists: "ContainerAlreadyExists",
  InvalidRange: "InvalidRange",
  EntityTooLarge: "RequestBodyTooLarge",
  MetadataTooLarge: "MetadataTooLarge",
  InvalidBucketName: "InvalidResourceName",
  KeyTooLongError: "InvalidResourceName",
  SlowDown: "ServerBusy",
  ServiceUnavailable: "ServerBusy",
  // Another conditional write on the key is in flight: retry.
  ConditionalRequestConflict: "ServerBusy",
  RequestTimeout: "OperationTimedOut",
};

interface S3ErrorLike {
  name?: string;
  Code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

export interface ErrorContext {
  /** 404 without a body (HEAD): which resource was asked for. */
  readonly notFound?: "ContainerNotFound" | "BlobNotFound";
  /** The write carried `If-None-Match: *`: its 412 means the blob exists. */
  readonly ifNoneMatch?: boolean;
  readonly abortSignal?: AbortSignal;
}

export function toTableKitError(err: unknown, context: ErrorContext = {}): TableKitError {
  if (err instanceof TableKitError) return err;
  const e = (err ?? {}) as S3ErrorLike;
  if (e.name === "AbortError" || context.abortSignal?.aborted) {
    return new TableKitError("Aborted", "The operation was aborted", { cause: err });
  }
  const status = e.$metadata?.httpStatusCode;
  const name = e.Code ?? e.name ?? "";
  let code: ErrorCode | undefined = BY_NAME[name];
  if (!code && status === 412) code = context.ifNoneMatch ? "BlobAlreadyExists" : "ConditionNotMet";
  if (!code && status === 404) code = context.notFound ?? "BlobNotFound";
  if (!code && (status === 503 || status === 429)) code = "ServerBusy";
  if (!code && status === 416) code = "InvalidRange";
  const message =
    code === "BlobAlreadyExists"
      ? "The specified blob already exists."
      : e.message || `S3 answered ${status}`;
  return new TableKitError(code ?? "BackendError", message, {
    cause: err,
    details: { ...(status === undefined ? {} : { status }), ...(name ? { serviceCode: name } : {}) },
  });
}
