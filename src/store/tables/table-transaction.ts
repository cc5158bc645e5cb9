import { validateTableEtag } from "../../model/etag.js";
import {
  type Limits,
  type TableEntity,
  TableKitError,
  transactionPayloadBound,
  transactionPayloadBytes,
  validateKey,
} from "../../model/index.js";
import type { OperationOptions } from "../call-options.js";
import type { BackendAction, UpdateMode } from "./table-backend.js";
import { type CheckedEntity, entityForWrite } from "./table-rules.js";

/** What an action writes: an entity object, or one a table has checked (`Table.checkEntity`). */
type ActionEntity = TableEntity<Record<string, unknown>> | CheckedEntity;

/** The SDK's action tuples: `["create", e]`, `["upsert", e, mode?]`, `["update", e, mode?, { etag }?]`, `["delete", e, { etag }?]`. */
export type TransactionAction =
  | readonly ["create", ActionEntity]
  | readonly ["delete", ActionEntity]
  | readonly ["delete", ActionEntity, { etag?: string }]
  | readonly ["upsert", ActionEntity]
  | readonly ["upsert", ActionEntity, UpdateMode]
  | readonly ["update", ActionEntity]
  | readonly ["update", ActionEntity, UpdateMode]
  | readonly ["update", ActionEntity, UpdateMode, { etag?: string }];

export interface TransactionSubResponse {
  /** HTTP status of this action inside the changeset (204). */
  status: number;
  rowKey: string;
  /** The new ETag, absent for deletes. */
  etag?: string;
}

export interface TransactionResponse {
  /** 202, as the service answers a batch. */
  status: number;
  subResponses: TransactionSubResponse[];
  getResponseForEntity(rowKey: string): TransactionSubResponse | undefined;
}

/** `"Merge"` (also when absent) or `"Replace"`; anything else is InvalidInput. */
export function updateMode(value: unknown): UpdateMode {
  const mode = value ?? "Merge";
  if (mode !== "Merge" && mode !== "Replace") {
    throw new TableKitError(
      "InvalidInput",
      `Update mode must be "Merge" or "Replace", got ${JSON.stringify(value)}`,
    );
  }
  return mode;
}

function toBackendAction(action: unknown, limits: Limits): BackendAction {
  if (!Array.isArray(action) || typeof action[0] !== "string") {
    throw new TableKitError("InvalidInput", 'A transaction action is a tuple like ["create", entity]');
  }
  // By index: destructuring an array goes through its iterator.
  const tuple = action as readonly unknown[];
  const kind = tuple[0] as string;
  const entity = tuple[1];
  const third = tuple[2];
  const fourth = tuple[3];
  switch (kind) {
    case "create":
      return { kind, entity: entityForWrite(entity, limits) };
    case "upsert":
      return { kind, entity: entityForWrite(entity, limits), mode: updateMode(third) };
    case "update": {
      const etag = validateTableEtag((fourth as { etag?: string } | undefined)?.etag ?? "*");
      return { kind, entity: entityForWrite(entity, limits), mode: updateMode(third), etag };
    }
    case "delete": {
      const e = (entity ?? {}) as Record<string, unknown>;
      return {
        kind,
        partitionKey: validateKey("PartitionKey", e.partitionKey, limits),
        rowKey: validateKey("RowKey", e.rowKey, limits),
        etag: validateTableEtag((third as { etag?: string } | undefined)?.etag ?? "*"),
      };
    }
    default:
      throw new TableKitError("InvalidInput", `Unknown transaction action ${JSON.stringify(kind)}`);
  }
}

function keysOf(a: BackendAction): { partitionKey: string; rowKey: string } {
  return a.kind === "delete" ? a : a.entity;
}

/**
 * The key of a transaction option for a caller that received the transaction as a request body
 * (`tablekit serve`): the body's size as received, which is then what `maxTransactionBytes` limits,
 * instead of the core's count of the body the Azure backend would write (which annotates every
 * property, so it is larger than a client's body that omits annotations). Not public: a library
 * call is always counted.
 */
export const RECEIVED_BODY_BYTES: unique symbol = Symbol("tablekit.receivedBodyBytes");

/**
 * The key under which a transaction the server submitted (with RECEIVED_BODY_BYTES) gives each
 * insert's sub-response a getter of the entity as stored: the `$batch` answer to `Prefer:
 * return-content`. Not public, and not enumerable: library callers see the SDK's shape.
 */
export const STORED_ENTITY: unique symbol = Symbol("tablekit.storedEntity");

/** `submitTransaction`'s options as the server passes them. */
export interface ReceivedTransactionOptions extends OperationOptions {
  readonly [RECEIVED_BODY_BYTES]?: number;
}

/**
 * Validates an entity group transaction on `table` as the service does — at least one and at most
 * `maxTransactionOperations` actions, one PartitionKey, each row at most once, a request payload
 * (`transactionPayloadBytes`, or `receivedBytes` when the transaction came as a request body) within
 * `maxTransactionBytes` — and returns the backend's actions. Errors of one action carry its index;
 * a payload too large is RequestBodyTooLarge (413), as the service answers it, for the whole
 * transaction.
 */
export function prepareTransaction(
  table: string,
  actions: unknown,
  limits: Limits,
  receivedBytes?: number,
): BackendAction[] {
  if (!Array.isArray(actions) || actions.length === 0) {
    throw new TableKitError("InvalidInput", "A transaction needs at least one action");
  }
  if (actions.length > limits.maxTransactionOperations) {
    throw new TableKitError(
      "InvalidInput",
      `A transaction holds at most ${limits.maxTransactionOperations} actions; this one has ${actions.length}`,
      { details: { count: actions.length, limit: limits.maxTransactionOperations } },
    );
  }
  const prepared: BackendAction[] = [];
  // Every action has the first one's PartitionKey (or the transaction is refused), so rows differ
  // by RowKey. While row keys come in ascending order (as batches are mostly built) they are all
  // different; a Set of those seen is made only once one does not.
  let seen: Set<string> | undefined;
  let lastRowKey = "";
  for (let i = 0; i < actions.length; i++) {
    let action: BackendAction;
    try {
      action = toBackendAction(actions[i], limits);
    } catch (err) {
      throw err instanceof TableKitError ? err.withIndex(i) : err;
    }
    const { partitionKey, rowKey } = keysOf(action);
    if (i > 0 && partitionKey !== keysOf(prepared[0]!).partitionKey) {
      throw new TableKitError(
        "CommandsInBatchActOnDifferentPartitions",
        `${i}:All actions of a transaction must have the same PartitionKey`,
        { index: i },
      );
    }
    if (seen === undefined && (i === 0 || rowKey > lastRowKey)) lastRowKey = rowKey;
    else {
      seen ??= new Set(prepared.map((a) => keysOf(a).rowKey));
      if (seen.has(rowKey)) {
        throw new TableKitError(
          "InvalidDuplicateRow",
          `${i}:The row '${rowKey}' appears more than once in the transaction`,
          {
            index: i,
          },
        );
      }
      seen.add(rowKey);
    }
    prepared.push(action);
  }
  // The exact count only when a bound from lengths alone is over the limit (nearly never).
  const bytes =
    receivedBytes ??
    (transactionPayloadBound(table, prepared) > limits.maxTransactionBytes
      ? transactionPayloadBytes(table, prepared)
      : 0);
  if (bytes > limits.maxTransactionBytes) {
    throw new TableKitError(
      "RequestBodyTooLarge",
      `The transaction's request body is ${bytes} bytes; the limit is ${limits.maxTransactionBytes}`,
      { details: { size: bytes, limit: limits.maxTransactionBytes } },
    );
  }
  return prepared;
}
