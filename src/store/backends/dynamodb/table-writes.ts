import { DateTime, etagOf, type Limits, sleep, TableKitError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendAction, WriteResult } from "../../tables/table-backend.js";
import { type SdkError, sdkErrorName, toTableKitError } from "./errors.js";
import { itemKey, itemTimestamp } from "./table-entity-codec.js";
import { type DynamoDbKnownPartitions, ensurePartitionMarker } from "./table-partition-catalogue.js";
import type { AttributeMap, DynamoDbApi } from "./table-sdk.js";
import { needsRead, planWrite, precheck, type WriteStep } from "./table-write-steps.js";

/** Attempts before giving up on clock conflicts and transaction conflicts (ServerBusy). */
const MAX_ATTEMPTS = 8;

/** Errors that belong to one action of a transaction (they carry its index). */
const ACTION_CODES = new Set([
  "EntityAlreadyExists",
  "ResourceNotFound",
  "UpdateConditionNotSatisfied",
  "EntityTooLarge",
  "InvalidInput",
]);

/** Where writes go, and the limits a merged entity must keep. */
export interface WriteTarget {
  readonly api: DynamoDbApi;
  readonly tableName: string;
  readonly limits: Limits;
  /** Partitions whose catalogue marker this process knows exists. */
  readonly known: DynamoDbKnownPartitions;
}

/**
 * Writes the partition's catalogue marker before any action that may create an entity (update
 * cannot: its entity exists, so its partition has a marker). Written before, not inside, a
 * transaction: concurrent transactions into a new partition would otherwise all contend for the
 * marker (TransactionConflict), and a transaction at DynamoDB's 4 MiB has no room for it.
 */
async function ensureMarker(
  target: WriteTarget,
  actions: readonly BackendAction[],
  options: CallOptions,
): Promise<void> {
  const creating = actions.find(
    (a): a is Extract<BackendAction, { kind: "create" | "upsert" }> =>
      a.kind === "create" || a.kind === "upsert",
  );
  if (!creating) return;
  await ensurePartitionMarker(
    target.api,
    target.tableName,
    target.known,
    creating.entity.partitionKey,
    options,
  );
}

/** Runs one write; plans it again when another writer moved the item in between. */
export async function writeOne(
  target: WriteTarget,
  action: BackendAction,
  options: CallOptions,
): Promise<WriteResult | undefined> {
  await ensureMarker(target, [action], options);
  let floor: DateTime | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = needsRead(action) ? await readItem(target, action, options) : undefined;
    const step = planWrite({
      tableName: target.tableName,
      limits: target.limits,
      action,
      now: DateTime.now(),
      floor,
      current,
    });
    try {
      await send(target.api, step, options);
      return resultOf(step);
    } catch (err) {
      if (sdkErrorName(err) !== "ConditionalCheckFailedException") throw toTableKitError(err, options);
      const old = (err as SdkError).Item;
      const failure = step.failure(old);
      if (failure !== "retry") throw failure;
      floor = (old && itemTimestamp(old)) ?? floor;
    }
  }
  throw busy("other writers kept changing the entity");
}

async function readItem(target: WriteTarget, action: BackendAction, options: CallOptions) {
  const { partitionKey, rowKey } = keysOf(action);
  try {
    const { Item } = await target.api.getItem(
      { TableName: target.tableName, Key: itemKey(partitionKey, rowKey), ConsistentRead: true },
      options.abortSignal,
    );
    return Item;
  } catch (err) {
    throw toTableKitError(err, options);
  }
}

/** The items of all `actions`, by index, read in one consistent batch. */
async function readItems(
  target: WriteTarget,
  actions: readonly BackendAction[],
  options: CallOptions,
): Promise<(AttributeMap | undefined)[]> {
  const found = new Map<string, AttributeMap>();
  let keys = actions.map((a) => itemKey(keysOf(a).partitionKey, keysOf(a).rowKey));
  while (keys.length > 0) {
    const result = await target.api
      .batchGet(
        { RequestItems: { [target.tableName]: { Keys: keys, ConsistentRead: true } } },
        options.abortSignal,
      )
      .catch((err) => {
        throw toTableKitError(err, options);
      });
    for (const item of result.Responses?.[target.tableName] ?? []) found.set(itemId(item), item);
    keys = result.UnprocessedKeys?.[target.tableName]?.Keys ?? [];
  }
  return actions.map((a) => found.get(itemId(itemKey(keysOf(a).partitionKey, keysOf(a).rowKey))));
}

function keysOf(action: BackendAction): { partitionKey: string; rowKey: string } {
  return action.kind === "delete" ? action : action.entity;
}

function itemId(item: AttributeMap): string {
  return JSON.stringify([item.PartitionKey, item.RowKey]);
}

function send(api: DynamoDbApi, step: WriteStep, options: CallOptions): Promise<unknown> {
  const r = step.request;
  return "Put" in r ? api.putItem(r.Put, options.abortSignal) : api.deleteItem(r.Delete, options.abortSignal);
}

function resultOf(step: WriteStep): WriteResult | undefined {
  return step.timestamp ? { etag: etagOf(step.timestamp), timestamp: step.timestamp } : undefined;
}

/**
 * An entity group transaction through TransactWriteItems (one action alone is a plain conditional
 * write: same outcome, half the cost). A cancelled transaction reports the lowest-indexed action
 * whose condition really failed, as the Table service reports the first failing action.
 */
export async function writeAll(
  target: WriteTarget,
  actions: readonly BackendAction[],
  options: CallOptions,
): Promise<(WriteResult | undefined)[]> {
  if (actions.length === 1) {
    try {
      return [await writeOne(target, actions[0]!, options)];
    } catch (err) {
      const e = toTableKitError(err, options);
      throw ACTION_CODES.has(e.code) ? e.withIndex(0) : e;
    }
  }
  await ensureMarker(target, actions, options);
  const floors: (DateTime | undefined)[] = actions.map(() => undefined);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = DateTime.now();
    // A merge is planned from a read; then every action is checked against that read, in order,
    // so the first failing action is the one reported, as the service reports it.
    const read = actions.some(needsRead);
    const current = read ? await readItems(target, actions, options) : [];
    const steps = actions.map((action, i) => {
      try {
        const failure = read ? precheck(action, current[i]) : undefined;
        if (failure) throw failure;
        return planWrite({
          tableName: target.tableName,
          limits: target.limits,
          action,
          now,
          floor: floors[i],
          current: current[i],
        });
      } catch (err) {
        throw err instanceof TableKitError ? err.withIndex(i) : err;
      }
    });
    try {
      await target.api.transactWrite({ TransactItems: steps.map((s) => s.request) }, options.abortSignal);
      return steps.map(resultOf);
    } catch (err) {
      if (sdkErrorName(err) !== "TransactionCanceledException") throw toTableKitError(err, options);
      const retry = cancellation(err as SdkError, steps, floors);
      if (retry === "conflict") await sleep(5 * 2 ** attempt * (1 + Math.random()), options.abortSignal);
    }
  }
  throw busy("other transactions kept conflicting with this one");
}

/**
 * Reads a cancellation: throws the first action's real failure with its index, or says why the
 * transaction may simply be planned again (an item moved, or a concurrent transaction).
 */
function cancellation(
  err: SdkError,
  steps: WriteStep[],
  floors: (DateTime | undefined)[],
): "retry" | "conflict" {
  let retry: "retry" | "conflict" | undefined;
  const reasons = err.CancellationReasons ?? [];
  for (let i = 0; i < reasons.length; i++) {
    const { Code: code, Message: message = "", Item: old } = reasons[i]!;
    if (!code || code === "None") continue;
    if (code === "ConditionalCheckFailed") {
      const failure = steps[i]!.failure(old);
      if (failure !== "retry") throw failure.withIndex(i);
      floors[i] = (old && itemTimestamp(old)) ?? floors[i];
      retry ??= "retry";
    } else if (
      code === "TransactionConflict" ||
      code === "ThrottlingError" ||
      code === "ProvisionedThroughputExceeded"
    ) {
      retry = "conflict";
    } else {
      const mapped = toTableKitError({
        name: code === "ValidationError" ? "ValidationException" : code,
        message,
      });
      throw ACTION_CODES.has(mapped.code) ? mapped.withIndex(i) : mapped;
    }
  }
  if (!retry) throw toTableKitError(err);
  return retry;
}

function busy(why: string): TableKitError {
  return new TableKitError("ServerBusy", `DynamoDB write did not go through: ${why}; retry later`);
}
