import { abortedError, TableKitError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { AttributeMap } from "./table-sdk.js";

/** What the SDK's service exceptions carry that this backend reads. */
export interface SdkError {
  name?: string;
  message?: string;
  /** The old item, with `ReturnValuesOnConditionCheckFailure: "ALL_OLD"`. */
  Item?: AttributeMap;
  CancellationReasons?: { Code?: string; Message?: string; Item?: AttributeMap }[];
}

export function sdkErrorName(err: unknown): string | undefined {
  const name = (err as SdkError | null)?.name;
  return typeof name === "string" ? name : undefined;
}

const BUSY = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "RequestLimitExceeded",
  "LimitExceededException",
  "InternalServerError",
  "ServiceUnavailable",
]);

/**
 * A TableKitError for anything the SDK threw; TableKitErrors pass through. A missing table is
 * TableNotFound; DynamoDB's own size checks are EntityTooLarge (an item) or RequestBodyTooLarge
 * (a transaction's items past 4 MiB), as the core's checks of the same kind are.
 */
export function toTableKitError(err: unknown, options: CallOptions = {}): TableKitError {
  if (err instanceof TableKitError) return err;
  const name = sdkErrorName(err);
  const message = (err as SdkError | null)?.message ?? String(err);
  if (name === "AbortError" || options.abortSignal?.aborted) {
    return abortedError(err);
  }
  if (name === "ResourceNotFoundException") {
    return new TableKitError("TableNotFound", "The table specified does not exist.", { cause: err });
  }
  if (name === "ValidationException" && /item size (to update )?has exceeded/i.test(message)) {
    return new TableKitError("EntityTooLarge", `DynamoDB: ${message}`, { cause: err });
  }
  if (name === "ValidationException" && /transaction payload size/i.test(message)) {
    return new TableKitError("RequestBodyTooLarge", `DynamoDB: ${message}`, { cause: err });
  }
  if (name && BUSY.has(name)) {
    return new TableKitError("ServerBusy", `DynamoDB is busy (${name}); retry later`, { cause: err });
  }
  return new TableKitError("BackendError", `DynamoDB error${name ? ` ${name}` : ""}: ${message}`, {
    cause: err,
  });
}
