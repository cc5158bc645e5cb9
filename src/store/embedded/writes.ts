import {
  checkEntityLimits,
  type Limits,
  mergeProperties,
  type NormalizedEntity,
  TableKitError,
  type TypedValue,
} from "../../model/index.js";
import type { UpdateMode, WriteResult } from "../backend.js";
import { sqliteCode } from "./errors.js";
import { nextStamp, type Stamp } from "./etag.js";
import { toStoredKey } from "./key-order.js";
import { decodeProperties, encodeProperties } from "./property-codec.js";
import type { TableHandle } from "./table-handle.js";

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

/** Inserts; EntityAlreadyExists when the keys are taken. One statement: atomic without a transaction. */
export function insertEntity(h: TableHandle, e: NormalizedEntity, now: Stamp): WriteResult {
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
  return { etag, timestamp };
}

/** Inserts, or merges into / replaces the existing entity, unconditionally. Needs a transaction. */
export function upsertEntity(
  h: TableHandle,
  e: NormalizedEntity,
  mode: UpdateMode,
  now: Stamp,
  limits: Limits,
): WriteResult {
  const pk = toStoredKey(e.partitionKey);
  const rk = toStoredKey(e.rowKey);
  const row = readRow(h, pk, rk);
  if (!row) return insertEntity(h, e, now);
  return rewrite(h, e, mode, row, pk, rk, now, limits);
}

/** Updates an existing entity if `etag` is `*` or its current ETag. Needs a transaction. */
export function updateEntity(
  h: TableHandle,
  e: NormalizedEntity,
  mode: UpdateMode,
  etag: string,
  now: Stamp,
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
export function deleteEntity(h: TableHandle, partitionKey: string, rowKey: string, etag: string): void {
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
  now: Stamp,
  limits: Limits,
): WriteResult {
  const properties = mode === "Replace" ? e.properties : merged(decodeProperties(row[0]), e, limits);
  const { timestamp, etag } = nextStamp(now, row[1]);
  h.updateOne.run(encodeProperties(properties), timestamp.ticks, etag, pk, rk);
  return { etag, timestamp };
}

/** The stored properties overlaid by the new ones; the merged entity must respect the limits too. */
function merged(
  existing: Map<string, TypedValue>,
  e: NormalizedEntity,
  limits: Limits,
): ReadonlyMap<string, TypedValue> {
  const properties = mergeProperties(existing, e.properties);
  checkEntityLimits({ partitionKey: e.partitionKey, rowKey: e.rowKey, properties }, limits, "merged entity");
  return properties;
}
