import { type ErrorCode, TableKitError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import { codeFor, toTableKitError } from "./errors.js";

interface RestErrorLike {
  name?: string;
  message?: string;
  statusCode?: number;
  code?: string;
  details?: { errorCode?: string };
  response?: { headers?: { get(name: string): string | undefined } };
}

/** What a bare status means for a blob call (a HEAD answer carries no body, so no code). */
const BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  404: "BlobNotFound",
  409: "BlobAlreadyExists",
  412: "ConditionNotMet",
  413: "RequestBodyTooLarge",
  416: "InvalidRange",
};

/**
 * What `@azure/storage-blob` threw, as a TableKitError: the Blob service's own code where it gave
 * one (`x-ms-error-code`: BlobNotFound, ContainerNotFound, ConditionNotMet, …), else the status as
 * the Blob service means it; `notFound` names the resource a bare 404 is about.
 */
export function toBlobError(
  err: unknown,
  abortSignal: AbortSignal | undefined,
  notFound: "BlobNotFound" | "ContainerNotFound" = "BlobNotFound",
): TableKitError {
  const e = (err ?? {}) as RestErrorLike;
  if (e.name !== "RestError" || abortSignal?.aborted) return toTableKitError(err, abortSignal);
  const status = e.statusCode;
  const serviceCode =
    e.details?.errorCode ??
    e.response?.headers?.get("x-ms-error-code") ??
    (typeof e.code === "string" && status !== undefined ? e.code : undefined);
  let code = codeFor(serviceCode, status);
  if (!serviceCode && status !== undefined) code = status === 404 ? notFound : (BY_STATUS[status] ?? code);
  const message = (e.message ?? "").split("\nRequestId:")[0]!.trim() || `Azure answered ${status ?? "?"}`;
  return new TableKitError(code, message, {
    cause: err,
    details: { ...(status === undefined ? {} : { status }), ...(serviceCode ? { serviceCode } : {}) },
  });
}

/** Runs an SDK call with the caller's signal; its failures become TableKitErrors. */
export async function sdkCall<T>(
  call: CallOptions,
  work: (options: { abortSignal?: AbortSignal }) => Promise<T>,
  notFound: "BlobNotFound" | "ContainerNotFound" = "ContainerNotFound",
): Promise<T> {
  try {
    return await work(call.abortSignal ? { abortSignal: call.abortSignal } : {});
  } catch (err) {
    throw toBlobError(err, call.abortSignal, notFound);
  }
}

/** An SDK call on a blob: a bare 404 (a HEAD) means the blob. */
export function blobCall<T>(
  call: CallOptions,
  work: (o: { abortSignal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  return sdkCall(call, work, "BlobNotFound");
}
