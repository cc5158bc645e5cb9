import {
  type DateTime,
  type Limits,
  mergeEntity,
  type NormalizedEntity,
  nextTimestamp,
  TableKitError,
  timestampOfEtag,
} from "../../../model/index.js";
import type { BackendAction } from "../../tables/table-backend.js";
import { fromItem, itemKey, toItem } from "./table-entity-codec.js";
import { DynamoDbExpressionBuilder } from "./table-expression-builder.js";
import { PARTITION_KEY_ATTRIBUTE, TIMESTAMP_ATTRIBUTE } from "./table-item-layout.js";
import type { AttributeMap, DeleteInput, PutInput } from "./table-sdk.js";

/**
 * One write as a conditional DynamoDB request, usable alone or inside TransactWriteItems:
 * - create: the item must not exist (else EntityAlreadyExists);
 * - an ETag: the stored Timestamp must be the one the ETag names (else 404 when the item is
 *   absent, 412 when it is another version);
 * - no ETag (upsert, `*`): the stored Timestamp must be older than the new one, so Timestamps and
 *   ETags strictly increase per entity even when writers' clocks disagree;
 * - Merge: planned from a fresh read of the item (`current`), whose merged result is checked
 *   against the limits (property count, sizes) as the service checks it, then written whole on
 *   the condition that the item is still that version.
 * A "retry" failure means the item moved under us: plan again (above `floor`, or from a new read).
 */
export interface WriteStep {
  readonly request: { Put: PutInput } | { Delete: DeleteInput };
  /** The new version's Timestamp; undefined for a delete. */
  readonly timestamp: DateTime | undefined;
  /** What a failed condition means, given the item as it was (undefined when absent). */
  failure(old: AttributeMap | undefined): TableKitError | "retry";
}

export interface WritePlan {
  readonly tableName: string;
  readonly action: BackendAction;
  readonly now: DateTime;
  readonly limits: Limits;
  /** A stored Timestamp an earlier attempt saw, which the new one must exceed. */
  readonly floor?: DateTime;
  /** For a Merge: the item as just read (undefined when absent). */
  readonly current?: AttributeMap;
}

/** True when the action needs `current`: a merge is computed from the stored entity. */
export function needsRead(action: BackendAction): boolean {
  return action.kind !== "delete" && action.kind !== "create" && action.mode === "Merge";
}

/**
 * What the stored item (`current`, just read) says about an action that is not a merge: the
 * error its condition will fail with, or undefined. A transaction that read its items anyway
 * (for a merge) reports the first failing action from these, in order.
 */
export function precheck(
  action: BackendAction,
  current: AttributeMap | undefined,
): TableKitError | undefined {
  if (action.kind === "create") return current ? alreadyExists() : undefined;
  if (action.kind === "upsert") return undefined;
  if (action.kind === "update" && action.mode === "Merge") return undefined;
  if (!current) return notFound();
  if (action.etag !== "*" && fromItem(current).etag !== action.etag) return preconditionFailed();
  return undefined;
}

/**
 * Whether the item exists. `PartitionKey` is no DynamoDB reserved word (`Timestamp` is), so these
 * need no placeholder: a create, the commonest write, then sends no ExpressionAttributeNames.
 */
const EXISTS = `attribute_exists(${PARTITION_KEY_ATTRIBUTE})`;
const ABSENT = `attribute_not_exists(${PARTITION_KEY_ATTRIBUTE})`;

/** Plans one write; throws the action's error when the read already decides it (Merge). */
export function planWrite(plan: WritePlan): WriteStep {
  const { tableName, action, now, floor } = plan;
  if (action.kind === "create") {
    // Only an existing item fails `ABSENT`: no need to have it sent back.
    const timestamp = nextTimestamp(now, floor);
    const item = toItem(action.entity, timestamp);
    return {
      request: { Put: { TableName: tableName, Item: item, ConditionExpression: ABSENT } },
      timestamp,
      failure: alreadyExists,
    };
  }
  const b = new DynamoDbExpressionBuilder();
  const storedTimestamp = b.name(TIMESTAMP_ATTRIBUTE);

  if (action.kind === "delete") {
    const key = itemKey(action.partitionKey, action.rowKey);
    const { condition, failure } = etagCondition(b, action.etag, storedTimestamp);
    return {
      request: {
        Delete: {
          TableName: tableName,
          Key: key,
          ConditionExpression: condition,
          ...b.used(condition),
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
      timestamp: undefined,
      failure,
    };
  }
  if (action.mode === "Merge") return planMerge(plan, b, storedTimestamp);
  if (action.kind === "update" && action.etag !== "*") {
    const { condition, failure } = etagCondition(b, action.etag, storedTimestamp);
    const timestamp = nextTimestamp(now, timestampOfEtag(action.etag, { exact: true }) ?? floor);
    return put(b, tableName, action.entity, timestamp, condition, failure);
  }
  const timestamp = nextTimestamp(now, floor);
  const older = `${storedTimestamp} < ${b.value({ S: timestamp.toISOString() })}`;
  if (action.kind === "upsert") {
    return put(b, tableName, action.entity, timestamp, `${ABSENT} OR ${older}`, () => "retry");
  }
  return put(b, tableName, action.entity, timestamp, `${EXISTS} AND ${older}`, (old) =>
    old ? "retry" : notFound(),
  );
}

function planMerge(plan: WritePlan, b: DynamoDbExpressionBuilder, storedTimestamp: string): WriteStep {
  const action = plan.action as Extract<BackendAction, { kind: "update" | "upsert" }>;
  if (!plan.current) {
    if (action.kind === "update") throw notFound();
    return put(b, plan.tableName, action.entity, plan.now, ABSENT, () => "retry");
  }
  const stored = fromItem(plan.current);
  if (action.kind === "update" && action.etag !== "*" && action.etag !== stored.etag)
    throw preconditionFailed();
  const merged = mergeEntity(stored, action.entity, plan.limits);
  const unchanged = `${storedTimestamp} = ${b.value({ S: stored.timestamp.toISOString() })}`;
  return put(b, plan.tableName, merged, nextTimestamp(plan.now, stored.timestamp), unchanged, () => "retry");
}

function etagCondition(
  b: DynamoDbExpressionBuilder,
  etag: string,
  storedTimestamp: string,
): { condition: string; failure: WriteStep["failure"] } {
  if (etag === "*") return { condition: EXISTS, failure: () => notFound() };
  // An ETag this backend never made matches no version: compare with a value no item holds.
  const iso = timestampOfEtag(etag, { exact: true })?.toISOString() ?? `not a timestamp: ${etag}`;
  return {
    condition: `${storedTimestamp} = ${b.value({ S: iso })}`,
    failure: (old) => (old ? preconditionFailed() : notFound()),
  };
}

function put(
  b: DynamoDbExpressionBuilder,
  tableName: string,
  entity: NormalizedEntity,
  timestamp: DateTime,
  condition: string,
  failure: WriteStep["failure"],
): WriteStep {
  return {
    request: {
      Put: {
        TableName: tableName,
        Item: toItem(entity, timestamp),
        ConditionExpression: condition,
        ...b.used(condition),
        // The item as it was tells a missing entity from another version, and a retry from a failure.
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    },
    timestamp,
    failure,
  };
}

function alreadyExists(): TableKitError {
  return new TableKitError("EntityAlreadyExists", "The specified entity already exists.");
}

function notFound(): TableKitError {
  return new TableKitError("ResourceNotFound", "The specified resource does not exist.");
}

function preconditionFailed(): TableKitError {
  return new TableKitError(
    "UpdateConditionNotSatisfied",
    "The update condition specified in the request was not satisfied.",
  );
}
