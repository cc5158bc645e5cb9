import { ERROR_STATUS, type ErrorCode, TableKitError } from "../../model/index.js";
import type { AzurePipelineResponse } from "./sdk.js";

/**
 * Maps what the SDK throws (a RestError with `statusCode`, the service's error code in `code`,
 * `details.errorCode` or the `x-ms-error-code` header, and the odata.error body) to TableKitError.
 * Codes the service shares with tablekit map one to one; others by HTTP status.
 */

/** Service codes with another name here. */
const RENAMED: Readonly<Record<string, ErrorCode>> = {
  // A malformed If-Match: the documentation says 400 InvalidInput; Azurite says InvalidOperation.
  InvalidOperation: "InvalidInput",
  InvalidHeaderValue: "InvalidInput",
  InvalidQueryParameterValue: "InvalidInput",
  InvalidUri: "InvalidInput",
  OutOfRangeQueryParameterValue: "InvalidInput",
  RequestBodyTooLarge: "EntityTooLarge",
  InternalError: "BackendError",
  OperationTimedOut: "OperationTimedOut",
  ServerBusy: "ServerBusy",
};

const BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: "InvalidInput",
  404: "ResourceNotFound",
  412: "UpdateConditionNotSatisfied",
  413: "EntityTooLarge",
  500: "BackendError",
  503: "ServerBusy",
};

interface RestErrorLike {
  name?: string;
  message?: string;
  statusCode?: number;
  code?: string;
  details?: { errorCode?: string; odataError?: { code?: string; message?: { value?: string } } };
  response?: AzurePipelineResponse;
}

/** The service's error code of a failed call, from wherever the SDK left it. */
export function serviceErrorCode(err: unknown): string | undefined {
  const e = err as RestErrorLike;
  return (
    e.details?.odataError?.code ??
    e.details?.errorCode ??
    e.response?.headers.get("x-ms-error-code") ??
    // Without a status, `code` is a network error's (ECONNREFUSED), not the service's.
    (typeof e.code === "string" && e.statusCode !== undefined ? e.code : undefined)
  );
}

/** Our code for a service error code and HTTP status. */
export function codeFor(serviceCode: string | undefined, status: number | undefined): ErrorCode {
  // Renames first: the Table service's RequestBodyTooLarge is EntityTooLarge (a blob code of the same name exists).
  if (serviceCode && Object.hasOwn(RENAMED, serviceCode)) return RENAMED[serviceCode]!;
  if (serviceCode && Object.hasOwn(ERROR_STATUS, serviceCode)) return serviceCode as ErrorCode;
  return (status !== undefined && BY_STATUS[status]) || "BackendError";
}

/** The service's message without the RequestId/Time lines it appends. */
function serviceMessage(err: RestErrorLike): string {
  let text = err.details?.odataError?.message?.value ?? err.message ?? "";
  if (text.startsWith("{")) {
    try {
      text = JSON.parse(text)["odata.error"]?.message?.value ?? text;
    } catch {
      // Not JSON after all: keep the text as it is.
    }
  }
  return text.split("\nRequestId:")[0]!.trim();
}

/** A TableKitError for anything an SDK call threw; TableKitErrors pass through unchanged. */
export function toTableKitError(err: unknown, abortSignal?: AbortSignal): TableKitError {
  if (err instanceof TableKitError) return err;
  const e = (err ?? {}) as RestErrorLike;
  if (e.name === "AbortError" || abortSignal?.aborted) {
    return new TableKitError("Aborted", "The operation was aborted", { cause: err });
  }
  if (e.name !== "RestError") {
    return new TableKitError("BackendError", `Azure request failed: ${e.message ?? String(err)}`, {
      cause: err,
    });
  }
  const status = e.statusCode ?? e.response?.status;
  const serviceCode = serviceErrorCode(err);
  const code = codeFor(serviceCode, status);
  const message = serviceMessage(e) || `Azure request failed with status ${status ?? "unknown"}`;
  return new TableKitError(code, message, {
    cause: err,
    details: { status, ...(serviceCode ? { serviceCode } : {}) },
  });
}

/**
 * The error of a failed entity group transaction. The service prefixes the failing operation's
 * message with its 0-based index (`"1:The specified entity already exists."`); the SDK keeps
 * that message, so the index is read back from it.
 */
export function toTransactionError(
  err: unknown,
  actionCount: number,
  abortSignal?: AbortSignal,
): TableKitError {
  const error = toTableKitError(err, abortSignal);
  const match = /^(\d+):/.exec(error.message);
  if (!match) return error;
  const index = Number(match[1]);
  const stripped = new TableKitError(error.code, error.message.slice(match[0].length), {
    cause: error.cause,
    details: error.details,
  });
  return index < actionCount ? stripped.withIndex(index) : stripped;
}

/** The error for a response the SDK swallowed (createTable's 409, deleteTable's 404). */
export function errorOfResponse(response: AzurePipelineResponse): TableKitError {
  const serviceCode = response.headers.get("x-ms-error-code");
  let message = `The service answered ${response.status}`;
  try {
    const value = JSON.parse(response.bodyAsText ?? "")?.["odata.error"]?.message?.value;
    if (typeof value === "string") message = value.split("\nRequestId:")[0]!.trim();
  } catch {
    // No JSON body: keep the status line.
  }
  return new TableKitError(codeFor(serviceCode, response.status), message, {
    details: { status: response.status, ...(serviceCode ? { serviceCode } : {}) },
  });
}
