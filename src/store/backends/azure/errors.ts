import { abortedError, ERROR_STATUS, type ErrorCode, TableKitError } from "../../../model/index.js";

/**
 * Maps the service's error responses (the `odata.error` body, the `x-ms-error-code` header, the
 * status) to TableKitError: codes the service shares with tablekit map one to one; others by name,
 * then by HTTP status.
 */

/** Service codes with another name here. */
const RENAMED: Readonly<Record<string, ErrorCode>> = {
  // A malformed If-Match: the documentation says 400 InvalidInput; Azurite says InvalidOperation.
  InvalidOperation: "InvalidInput",
  InvalidHeaderValue: "InvalidInput",
  InvalidQueryParameterValue: "InvalidInput",
  InvalidUri: "InvalidInput",
  OutOfRangeQueryParameterValue: "InvalidInput",
  InternalError: "BackendError",
  OperationTimedOut: "OperationTimedOut",
  ServerBusy: "ServerBusy",
};

export const BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: "InvalidInput",
  404: "ResourceNotFound",
  412: "UpdateConditionNotSatisfied",
  413: "RequestBodyTooLarge",
  500: "BackendError",
  503: "ServerBusy",
};

/** Our code for a Table service error code and HTTP status. */
export function codeFor(serviceCode: string | undefined, status: number | undefined): ErrorCode {
  // Renamed first: the query-parameter codes are the queue port's own (a blob code of the same
  // name exists too). RequestBodyTooLarge (a batch over 4 MiB) maps one to one, as the core says it.
  if (serviceCode && Object.hasOwn(RENAMED, serviceCode)) return RENAMED[serviceCode]!;
  if (serviceCode && Object.hasOwn(ERROR_STATUS, serviceCode)) return serviceCode as ErrorCode;
  return (status !== undefined && BY_STATUS[status]) || "BackendError";
}

/** The service's message without the RequestId/Time lines it appends. */
export function serviceMessage(text: string): string {
  return text.split("\nRequestId:")[0]!.trim();
}

/**
 * The error of a response with an error status: the service's code from its odata.error body (or
 * the `x-ms-error-code` header) mapped to ours, its message, the status in `details`.
 */
export function responseError(
  status: number,
  errorCodeHeader: string | undefined,
  body: string,
): TableKitError {
  let serviceCode = errorCodeHeader;
  let message = `The service answered ${status}`;
  try {
    const error = JSON.parse(body)?.["odata.error"];
    if (typeof error?.code === "string") serviceCode = error.code;
    if (typeof error?.message?.value === "string") message = serviceMessage(error.message.value);
  } catch {
    // No JSON body: keep the status line.
  }
  return new TableKitError(codeFor(serviceCode, status), message, {
    details: { status, ...(serviceCode ? { serviceCode } : {}) },
  });
}

/** A TableKitError for what sending a request threw (the network, an abort); TableKitErrors pass through. */
export function toTableKitError(err: unknown, abortSignal?: AbortSignal): TableKitError {
  if (err instanceof TableKitError) return err;
  if ((err as { name?: unknown } | null)?.name === "AbortError" || abortSignal?.aborted)
    return abortedError(err);
  const message = (err as { message?: unknown } | null)?.message ?? String(err);
  return new TableKitError("BackendError", `Azure request failed: ${String(message)}`, { cause: err });
}

/**
 * The error of a failed entity group transaction. The service prefixes the failing operation's
 * message with its 0-based index (`"1:The specified entity already exists."`): the index is read
 * back from it.
 */
export function toTransactionError(error: TableKitError, actionCount: number): TableKitError {
  const match = /^(\d+):/.exec(error.message);
  if (!match) return error;
  const index = Number(match[1]);
  const stripped = new TableKitError(error.code, error.message.slice(match[0].length), {
    cause: error.cause,
    details: error.details,
  });
  return index < actionCount ? stripped.withIndex(index) : stripped;
}
