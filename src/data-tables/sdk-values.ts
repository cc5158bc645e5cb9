import { DateTime } from "../model/datetime.js";
import { type StoredEntity, writeProperties } from "../model/entity.js";

/**
 * Values as `@azure/data-tables` hands them to a program. The SDK reads the service's JSON
 * (`odata=minimalmetadata`): numbers and strings unannotated, DateTime, Int64, Guid, Binary and
 * non-finite Doubles annotated. These functions give what the SDK builds from that JSON, starting
 * from tablekit's typed read result, without making the JSON.
 */

/** A read value as the SDK converts it: Date, number, bigint, Buffer, `{ value, type: "Guid" }`. */
export function sdkValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) {
    // The service writes NaN and ±Infinity as annotated strings, which the SDK leaves as strings.
    if (typeof value === "number" && value - value !== 0) return String(value);
    return value;
  }
  if (value instanceof DateTime) return new Date(value.epochMilliseconds);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  // An integral Double: the JSON number the service writes reads back as a plain number.
  if ((value as { type?: unknown }).type === "Double") return (value as { value: number }).value;
  return value; // Guid: { value, type: "Guid" }, as the SDK gives it
}

/**
 * A read value with `disableTypeConversion`: every value as `{ value: string, type }`. Unannotated
 * JSON numbers are typed as the SDK guesses them (a safe integer is "Int32", even an integral Double).
 */
export function sdkRawValue(value: unknown): unknown {
  switch (typeof value) {
    case "string":
      return { value, type: "String" };
    case "boolean":
      return { value: String(value), type: "Boolean" };
    case "bigint":
      return { value: String(value), type: "Int64" };
    case "number":
      if (!Number.isFinite(value)) return { value: String(value), type: "Double" };
      return { value: String(value), type: Number.isSafeInteger(value) ? "Int32" : "Double" };
  }
  if (value === null || typeof value !== "object") return value;
  if (value instanceof DateTime) return { value: dateTimeText(value), type: "DateTime" };
  if (value instanceof Uint8Array) {
    return {
      value: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64"),
      type: "Binary",
    };
  }
  const typed = value as { value: unknown; type: string };
  if (typed.type === "Double") return sdkRawValue(typed.value);
  return { value: typed.value, type: typed.type };
}

/**
 * A DateTime as text: a whole millisecond as JavaScript writes it (what an SDK program sent, and
 * what Azurite returns), finer values with the service's seven fractional digits.
 */
export function dateTimeText(value: DateTime): string {
  return value.subMillisecondTicks === 0
    ? new Date(value.epochMilliseconds).toISOString()
    : value.toISOString();
}

/**
 * A tablekit read result as the SDK's entity: `odata.metadata` first (point reads only), then the
 * ETag, the keys, the properties and the Timestamp. `keepTimestamp` false drops the Timestamp, as
 * the service does for a `$select` that does not name it. Every read goes through here: the
 * result's keys and properties are already in the SDK's order, and only some values need converting.
 */
export function sdkEntity(
  result: Record<string, unknown>,
  metadata: string | undefined,
  raw: boolean,
  keepTimestamp: boolean,
): Record<string, unknown> {
  if (raw) return sdkRawEntity(result, metadata, keepTimestamp);
  const out = metadata === undefined ? new ListedEntity(result.etag) : new ReadEntity(metadata, result.etag);
  for (const name in result) {
    if (name === "etag" || name === "timestamp") continue;
    let value = result[name];
    // Strings, booleans, bigints and finite numbers read as they are.
    if (typeof value === "object" ? value !== null : typeof value === "number" && value - value !== 0) {
      value = sdkValue(value);
    }
    if (name === "__proto__") {
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    } else out[name] = value;
  }
  if (keepTimestamp && result.timestamp !== undefined) out.timestamp = result.timestamp;
  return out;
}

/**
 * `sdkEntity(toEntityResult(stored))` in one pass, for a read without `select` or
 * `disableTypeConversion`: the SDK's object built from the stored entity, each value converted
 * once (the embedded engine's Dates straight from the stored ticks).
 */
export function sdkEntityOf(stored: StoredEntity, metadata: string | undefined): Record<string, unknown> {
  const out = metadata === undefined ? new ListedEntity(stored.etag) : new ReadEntity(metadata, stored.etag);
  out.partitionKey = stored.partitionKey;
  out.rowKey = stored.rowKey;
  writeProperties(stored.properties, out, "sdk");
  out.timestamp = stored.timestamp.toISOString();
  return out;
}

/**
 * The SDK's entity objects: plain objects (Object.prototype, constructor Object) made by `new`, so
 * that V8 sizes them from the properties they are seen to get instead of growing a literal's
 * property store as properties are added (as the model's read results are made).
 */
function listedEntity(this: Record<string, unknown>, etag: unknown): void {
  this.etag = etag;
}
listedEntity.prototype = Object.prototype;
const ListedEntity = listedEntity as unknown as new (etag: unknown) => Record<string, unknown>;

function readEntity(this: Record<string, unknown>, metadata: unknown, etag: unknown): void {
  this["odata.metadata"] = metadata;
  this.etag = etag;
}
readEntity.prototype = Object.prototype;
const ReadEntity = readEntity as unknown as new (metadata: unknown, etag: unknown) => Record<string, unknown>;

/** The same with `disableTypeConversion`: every property as `{ value, type }`, keys and metadata as they are. */
function sdkRawEntity(
  result: Record<string, unknown>,
  metadata: string | undefined,
  keepTimestamp: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (metadata !== undefined) out["odata.metadata"] = { value: metadata, type: "String" };
  out.etag = result.etag;
  if (result.partitionKey !== undefined) out.partitionKey = result.partitionKey;
  if (result.rowKey !== undefined) out.rowKey = result.rowKey;
  for (const name in result) {
    if (name === "partitionKey" || name === "rowKey" || name === "etag" || name === "timestamp") continue;
    const value = sdkRawValue(result[name]);
    if (name === "__proto__") {
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    } else out[name] = value;
  }
  if (keepTimestamp && result.timestamp !== undefined) out.timestamp = result.timestamp;
  return out;
}

/** Keys the SDK may put in an entity a program read, which a write must not send as properties. */
const READ_ONLY_KEYS = ["odata.metadata", "odata.etag"] as const;

/**
 * An entity as the SDK would send it: without the read-only metadata a read added (so an entity
 * read and written back works as with the SDK), values otherwise as given.
 */
export function entityToWrite<T extends object>(entity: T): T {
  if (typeof entity !== "object" || entity === null) return entity;
  if (!(READ_ONLY_KEYS[0] in entity) && !(READ_ONLY_KEYS[1] in entity)) return entity;
  const copy: Record<string, unknown> = { ...entity };
  for (const key of READ_ONLY_KEYS) delete copy[key];
  return copy as T;
}
