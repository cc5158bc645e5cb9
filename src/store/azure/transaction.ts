import { type NormalizedEntity, TableKitError } from "../../model/index.js";
import type { BackendAction, CallOptions, WriteResult } from "../backend.js";
import { type BatchTarget, batchBody, boundaryOf } from "./batch-body.js";
import { writeResult } from "./entity-json.js";
import { toTransactionError } from "./errors.js";
import { withExchange } from "./exchange.js";
import type { AzureTableClient } from "./sdk.js";

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
  client: AzureTableClient,
  target: BatchTarget,
  actions: readonly BackendAction[],
  options: CallOptions,
  violation?: LimitViolation,
): Promise<(WriteResult | undefined)[]> {
  const sent = violation ? [...actions.slice(0, violation.index), probe(actions[violation.index]!)] : actions;
  const first = sent[0]!;
  const keys = first.kind === "delete" ? first : first.entity;
  let response: Awaited<ReturnType<AzureTableClient["submitTransaction"]>>;
  try {
    // The SDK carries the request (auth, retries, response parsing); the exchange supplies the changeset.
    response = await withExchange(
      { body: (request) => batchBody(boundaryOf(request.headers.get("Content-Type")), sent, target) },
      () =>
        client.submitTransaction(
          [["delete", { partitionKey: keys.partitionKey, rowKey: keys.rowKey }]],
          options.abortSignal ? { abortSignal: options.abortSignal } : {},
        ),
    );
  } catch (err) {
    const error = toTransactionError(err, sent.length, options.abortSignal);
    if (violation && error.index === violation.index) throw violation.error.withIndex(violation.index);
    throw error;
  }
  if (violation || response.subResponses.length !== actions.length) {
    throw new TableKitError(
      "BackendError",
      `The service answered ${response.subResponses.length} of ${sent.length} transaction actions unexpectedly`,
    );
  }
  return actions.map((action, i) =>
    action.kind === "delete" ? undefined : writeResult({ etag: response.subResponses[i]!.etag }),
  );
}

function probe(action: BackendAction): BackendAction {
  const { partitionKey, rowKey } = action.kind === "delete" ? action : action.entity;
  const entity: NormalizedEntity = { partitionKey, rowKey, properties: new Map() };
  return { kind: "update", entity, mode: "Merge", etag: IMPOSSIBLE_ETAG };
}
