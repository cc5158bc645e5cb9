import { ERROR_STATUS, type ErrorCode, TableKitError } from "../../../model/index.js";
import { BY_STATUS, serviceMessage, toTableKitError } from "./errors.js";

/** Queue Storage's codes with another name here; its own (QueueNotFound, PopReceiptMismatch, …) map one to one. */
const QUEUE_RENAMED: Readonly<Record<string, ErrorCode>> = {
  InvalidHeaderValue: "InvalidInput",
  InvalidUri: "InvalidInput",
  InvalidXmlDocument: "InvalidInput",
  MessageTooLarge: "RequestBodyTooLarge",
  InternalError: "BackendError",
};

/** What `@azure/storage-queue` throws for an error response (a RestError). */
interface QueueRestError {
  name?: string;
  message?: string;
  statusCode?: number;
  code?: string;
  details?: { errorCode?: string };
}

/** Our code for a Queue service error code and HTTP status. */
export function queueCodeFor(serviceCode: string | undefined, status: number | undefined): ErrorCode {
  if (serviceCode && Object.hasOwn(ERROR_STATUS, serviceCode)) return serviceCode as ErrorCode;
  if (serviceCode && Object.hasOwn(QUEUE_RENAMED, serviceCode)) return QUEUE_RENAMED[serviceCode]!;
  return (status !== undefined && status !== 404 && BY_STATUS[status]) || "BackendError";
}

/**
 * One `@azure/storage-queue` call with the caller's signal; its failure as a TableKitError with the
 * Queue service's code (from `details.errorCode`, else `code`) and its message.
 */
export async function queueSdkCall<T>(
  call: { readonly abortSignal?: AbortSignal },
  work: (options: { abortSignal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  try {
    return await work(call.abortSignal ? { abortSignal: call.abortSignal } : {});
  } catch (err) {
    const e = (err ?? {}) as QueueRestError;
    if (e.name !== "RestError" || e.statusCode === undefined) throw toTableKitError(err, call.abortSignal);
    const serviceCode = e.details?.errorCode ?? e.code;
    const message = serviceMessage(e.message ?? "") || `The service answered ${e.statusCode}`;
    throw new TableKitError(queueCodeFor(serviceCode, e.statusCode), message, {
      cause: err,
      details: { status: e.statusCode, ...(serviceCode ? { serviceCode } : {}) },
    });
  }
}
