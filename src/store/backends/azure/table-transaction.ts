import { randomUUID } from "node:crypto";
import { type NormalizedEntity, TableKitError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendAction, WriteResult } from "../../tables/table-backend.js";
import type { AzureConnection } from "./connection.js";
import { responseError, toTransactionError } from "./errors.js";
import { type BatchTarget, batchBody, parseBatchResponse } from "./table-batch-body.js";
import { writeResult } from "./table-entity-codec.js";
import { batchRequest } from "./table-requests.js";

/** A merge the service would refuse for a limit Azurite does not enforce (found before sending). */
export interface LimitViolation {
  readonly index: number;
  readonly error: TableKitError;
}

/** An ETag no entity ever has (Azurite's ETags are write times): a write that must fail with 412. */
const IMPOSSIBLE_ETAG = `W/"datetime'1601-01-01T00%3A00%3A00.0000000Z'"`;

/**
 * Submits an entity group transaction: all or nothing, one result per action (undefined for
 * deletes), or the failing action's error with its `index`.
 *
 * With a `violation` (Azurite only), the actions up to it are sent followed by a probe that
 * cannot succeed, so the server still reports any earlier failure first, exactly as the service
 * would, and nothing is written either way; when the probe is what fails, the violation is the
 * transaction's error.
 */
export async function submitTransaction(
  connection: AzureConnection,
  target: BatchTarget,
  actions: readonly BackendAction[],
  call: CallOptions,
  violation?: LimitViolation,
): Promise<(WriteResult | undefined)[]> {
  const sent = violation ? [...actions.slice(0, violation.index), probe(actions[violation.index]!)] : actions;
  const boundary = `batch_${randomUUID()}`;
  let body: string;
  try {
    body = (await connection.send(batchRequest(boundary, batchBody(boundary, sent, target)), call)).body;
  } catch (err) {
    throw err instanceof TableKitError ? toTransactionError(err, sent.length) : err;
  }
  const responses = parseBatchResponse(body);
  const failed = responses.find((r) => r.status >= 300);
  if (failed) {
    const error = toTransactionError(
      responseError(failed.status, failed.headers.get("x-ms-error-code"), failed.body),
      sent.length,
    );
    if (violation && error.index === violation.index) throw violation.error.withIndex(violation.index);
    throw error;
  }
  if (violation || responses.length !== actions.length) {
    throw new TableKitError(
      "BackendError",
      `The service answered ${responses.length} of ${sent.length} transaction actions unexpectedly`,
    );
  }
  return actions.map((action, i) =>
    action.kind === "delete" ? undefined : writeResult(responses[i]!.headers.get("etag")),
  );
}

function probe(action: BackendAction): BackendAction {
  const { partitionKey, rowKey } = action.kind === "delete" ? action : action.entity;
  const entity: NormalizedEntity = { partitionKey, rowKey, properties: new Map() };
  return { kind: "update", entity, mode: "Merge", etag: IMPOSSIBLE_ETAG };
}
