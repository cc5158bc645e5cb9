import {
  DateTime,
  etagOf,
  type Limits,
  mergeEntity,
  type NormalizedEntity,
  nextTimestamp,
  TableKitError,
} from "../../../model/index.js";
import type { BackendAction, UpdateMode, WriteResult } from "../../tables/table-backend.js";
import { sqliteCode } from "./errors.js";
import { decodeProperties, encodeProperties } from "./table-entity-codec.js";
import { toStoredKey } from "./table-key-order.js";
import type { EmbeddedTableStatements as TableHandle } from "./table-statements.js";

/**
 * The write operations on one entity. Each runs synchronously; read-modify-write ones must run
 * inside an IMMEDIATE transaction (the caller's), so the ETag check and the write are one atomic
 * step for every process sharing the file.
 */

type StoredRow = [p: string, ts: bigint, etag: string];

function readRow(h: TableHandle, pk: string, rk: string): StoredRow | undefined {
  return h.selectOne.get(pk, rk) as StoredRow | undefined;
}

function notFound(e: { partitionKey: string; rowKey: string }): TableKitError {
  return new TableKitError("ResourceNotFound", "The specified resource does not exist.", {
    details: { partitionKey: e.partitionKey, rowKey: e.rowKey },
  });
}

function conditionFailed(): TableKitError {
  return new TableKitError(
    "UpdateConditionNotSatisfied",
    "The update condition specified in the request was not satisfied.",
  );
}

/** The Timestamp and ETag of a write, made once per write or transaction. */
export function stampAt(timestamp: DateTime): WriteResult {
  return { timestamp, etag: etagOf(timestamp) };
}

/** The stamp of a new version of an entity whose previous Timestamp was `previous` ticks. */
function stampAfter(now: WriteResult, previous: bigint): WriteResult {
  const timestamp = nextTimestamp(now.timestamp, DateTime.fromTicks(previous));
  return timestamp === now.timestamp ? now : stampAt(timestamp);
}

/**
 * Applies one action at `now`. Create, and delete with `*`, are one statement (atomic on their
 * own); the others read first and must run inside the caller's IMMEDIATE transaction.
 */
export function applyAction(
  h: TableHandle,
  action: BackendAction,
  now: WriteResult,
  limits: Limits,
): WriteResult | undefined {
  switch (action.kind) {
    case "create":
      return insertEntity(h, action.entity, now);
    case "upsert":
      return upsertEntity(h, action.entity, action.mode, now, limits);
    case "update":
      return updateEntity(h, action.entity, action.mode, action.etag, now, limits);
    case "delete":
      deleteEntity(h, action.partitionKey, action.rowKey, action.etag);
      return undefined;
  }
}

/** True when `applyAction` needs no transaction around it. */
export function isSingleStatement(action: BackendAction): boolean {
  return action.kind === "create" || (action.kind === "delete" && action.etag === "*");
}

/** Inserts; EntityAlreadyExists when the keys are taken. One statement: atomic without a transaction. */
function insertEntity(h: TableHandle, e: NormalizedEntity, now: WriteResult): WriteResult {
  const { timestamp, etag } = now;
  try {
    h.insertOne.run(
      toStoredKey(e.partitionKey),
      toStoredKey(e.rowKey),
      encodeProperties(e.properties),
      timestamp.ticks,
      etag,
    );
  } catch (err) {
    if (sqliteCode(err) === "SQLITE_CONSTRAINT_PRIMARYKEY") {
      throw new TableKitError("EntityAlreadyExists", "The specified entity already exists.", {
        cause: err,
        details: { partitionKey: e.partitionKey, rowKey: e.rowKey },
      });
    }
    throw err;
  }
  return now;
}

/** Inserts, or merges into / replaces the existing entity, unconditionally. Needs a transaction. */
function upsertEntity(
  h: TableHandle,
  e: NormalizedEntity,
  mode: UpdateMode,
  now: WriteResult,
  limits: Limits,
): WriteResult {
  const pk = toStoredKey(e.partitionKey);
  const rk = toStoredKey(e.rowKey);
  const row = readRow(h, pk, rk);
  if (!row) return insertEntity(h, e, now);
  return rewrite(h, e, mode, row, pk, rk, now, limits);
}

/** Updates an existing entity if `etag` is `*` or its current ETag. Needs a transaction. */
function updateEntity(
  h: TableHandle,
  e: NormalizedEntity,
  mode: UpdateMode,
  etag: string,
  now: WriteResult,
  limits: Limits,
): WriteResult {
  const pk = toStoredKey(e.partitionKey);
  const rk = toStoredKey(e.rowKey);
  const row = readRow(h, pk, rk);
  if (!row) throw notFound(e);
  if (etag !== "*" && etag !== row[2]) throw conditionFailed();
  return rewrite(h, e, mode, row, pk, rk, now, limits);
}

/** Deletes an entity if `etag` is `*` or its current ETag. Needs a transaction unless `etag` is `*`. */
function deleteEntity(h: TableHandle, partitionKey: string, rowKey: string, etag: string): void {
  const pk = toStoredKey(partitionKey);
  const rk = toStoredKey(rowKey);
  if (etag !== "*") {
    const row = readRow(h, pk, rk);
    if (!row) throw notFound({ partitionKey, rowKey });
    if (etag !== row[2]) throw conditionFailed();
  }
  if (h.deleteOne.run(pk, rk).changes === 0) throw notFound({ partitionKey, rowKey });
}

function rewrite(
  h: TableHandle,
  e: NormalizedEntity,
  mode: UpdateMode,
  row: StoredRow,
  pk: string,
  rk: string,
  now: WriteResult,
  limits: Limits,
): WriteResult {
  const stored = { partitionKey: e.partitionKey, rowKey: e.rowKey, properties: decodeProperties(row[0]) };
  const properties = mode === "Replace" ? e.properties : mergeEntity(stored, e, limits).properties;
  const stamp = stampAfter(now, row[1]);
  h.updateOne.run(encodeProperties(properties), stamp.timestamp.ticks, stamp.etag, pk, rk);
  return stamp;
}
