import type { DateTime } from "./datetime.js";
import {
  fromTypedValue,
  type PropertyInput,
  type PropertyOutput,
  sdkValueOf,
  type TypedValue,
  toTypedValue,
} from "./edm.js";
import { setOwn } from "./own.js";

/** The two keys every entity has. */
export interface EntityKeys {
  partitionKey: string;
  rowKey: string;
}

/** An entity as callers write it: keys plus any properties (`@azure/data-tables`' `TableEntity`). */
export type TableEntity<T extends object = Record<string, PropertyInput>> = T & EntityKeys;

/** An entity as reads return it: with the store-maintained `etag` and `timestamp` (7 fractional digits). */
export type TableEntityResult<T extends object = Record<string, PropertyOutput>> = T &
  Partial<EntityKeys> & {
    etag: string;
    timestamp?: string;
  };

/** An entity after validation: keys and typed properties, in the caller's property order. */
export interface NormalizedEntity {
  readonly partitionKey: string;
  readonly rowKey: string;
  readonly properties: ReadonlyMap<string, TypedValue>;
}

/** An entity as a backend stores and returns it. */
export interface StoredEntity extends NormalizedEntity {
  readonly etag: string;
  readonly timestamp: DateTime;
}

/**
 * A backend's property map that can also write its properties as reads return them (each as
 * `fromTypedValue` gives it) straight into a result object, without making a typed value per
 * property first. The embedded engine's rows are such maps, decoded lazily; `toEntityResult` uses it.
 */
export interface PropertyWriter {
  /** `form` "sdk": each value as `sdkValueOf` gives it instead (tablekit/data-tables' reads). */
  writeProperties(out: Record<string, unknown>, form?: ValueForm): void;
}

/** How a read gives values: tablekit's (`fromTypedValue`) or `@azure/data-tables`' (`sdkValueOf`). */
export type ValueForm = "typed" | "sdk";

/** Writes an entity's properties into `out`, each in `form`, through the map's writer when it has one. */
export function writeProperties(
  properties: ReadonlyMap<string, TypedValue>,
  out: Record<string, unknown>,
  form: ValueForm,
): void {
  if (isPropertyWriter(properties)) {
    properties.writeProperties(out, form);
    return;
  }
  const convert = form === "sdk" ? sdkValueOf : fromTypedValue;
  for (const [name, tv] of properties) {
    if (name === "__proto__") setOwn(out, name, convert(tv));
    else out[name] = convert(tv);
  }
}

function isPropertyWriter(properties: object): properties is PropertyWriter {
  return typeof (properties as Partial<PropertyWriter>).writeProperties === "function";
}

/** Names in a caller's entity object that are metadata, not properties (`@azure/data-tables` shape). */
export const METADATA_NAMES: ReadonlySet<string> = new Set(["partitionKey", "rowKey", "etag", "timestamp"]);
/** System property names; a custom property may not use them. */
export const SYSTEM_PROPERTY_NAMES: ReadonlySet<string> = new Set(["PartitionKey", "RowKey", "Timestamp"]);

/** Converts typed properties (without limit checks) — used by backends decoding what they stored. */
export function typedProperties(entity: Record<string, unknown>): Map<string, TypedValue> {
  const out = new Map<string, TypedValue>();
  for (const name of Object.keys(entity)) {
    if (METADATA_NAMES.has(name)) continue;
    const tv = toTypedValue(name, entity[name] as PropertyInput);
    if (tv) out.set(name, tv);
  }
  return out;
}

/**
 * A read's result object: a plain object (its prototype is Object.prototype, its constructor
 * Object), made by `new` so that V8 sizes it from the properties results are seen to get (in-object
 * slack tracking). A literal of the two keys held only those in the object and grew a separate
 * property store twice per entity as its properties, ETag and Timestamp were added.
 */
function entityResultObject(this: Record<string, unknown>, partitionKey: string, rowKey: string): void {
  this.partitionKey = partitionKey;
  this.rowKey = rowKey;
}
entityResultObject.prototype = Object.prototype;
const EntityResultObject = entityResultObject as unknown as new (
  partitionKey: string,
  rowKey: string,
) => Record<string, unknown>;

/**
 * The caller-facing object for a stored entity. `select`, when given, limits the properties
 * returned; a selected property the entity lacks comes back as `null` (as the service does).
 */
export function toEntityResult(entity: StoredEntity, select?: readonly string[]): TableEntityResult {
  let out: Record<string, unknown>;
  if (!select) {
    // Reads build one of these per entity: the keys, then plain stores into room made up front.
    out = new EntityResultObject(entity.partitionKey, entity.rowKey);
    writeProperties(entity.properties, out, "typed");
  } else {
    out = {};
    for (const name of select) {
      if (name === "PartitionKey" || name === "partitionKey") out.partitionKey = entity.partitionKey;
      else if (name === "RowKey" || name === "rowKey") out.rowKey = entity.rowKey;
      else if (name === "Timestamp" || name === "timestamp") continue;
      else {
        const tv = entity.properties.get(name);
        setOwn(out, name, tv ? fromTypedValue(tv) : null);
      }
    }
  }
  out.etag = entity.etag;
  out.timestamp = entity.timestamp.toISOString();
  return out as TableEntityResult;
}

/** A normalized entity as the plain object the table port takes (every value keeps its type). */
export function plainEntity(entity: NormalizedEntity): TableEntity<Record<string, PropertyInput>> {
  const out: Record<string, unknown> = { partitionKey: entity.partitionKey, rowKey: entity.rowKey };
  for (const [name, tv] of entity.properties) setOwn(out, name, fromTypedValue(tv));
  return out as TableEntity<Record<string, PropertyInput>>;
}
