import type { TypedValue } from "./edm.js";
import { isInt32Number, type PropertyInput, toTypedValue } from "./edm.js";
import { METADATA_NAMES, type NormalizedEntity, SYSTEM_PROPERTY_NAMES } from "./entity.js";
import { type CheckedValue, EntityProperties } from "./entity-properties.js";
import { TableKitError } from "./errors.js";
import type { Limits } from "./limits.js";
import { propertyPayloadBound } from "./transaction-payload.js";

/** C# identifier rules, which the Table service asks property names to follow. */
const PROPERTY_NAME_PATTERN = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*$/u;

export type KeyName = "PartitionKey" | "RowKey";

/** Size of a string in bytes of the given encoding. */
export function encodedLength(s: string, encoding: "utf16" | "utf8"): number {
  return encoding === "utf16" ? s.length * 2 : Buffer.byteLength(s, "utf8");
}

/**
 * The last PartitionKey found valid and its rules (frozen: they cannot change): a transaction's
 * actions all carry one, usually one string, checked once instead of per action. (Row keys differ
 * from action to action: remembering them too would only displace it.)
 */
let lastValidKey: string | undefined;
let lastKeyLimits: Limits | undefined;

/** Checks a PartitionKey or RowKey against the backend's rules and returns it. */
export function validateKey(kind: KeyName, value: unknown, limits: Limits): string {
  if (value === lastValidKey && limits === lastKeyLimits) return value as string;
  if (typeof value !== "string") {
    throw new TableKitError(
      "InvalidInput",
      `${kind} must be a string, got ${value === null ? "null" : typeof value}`,
      {
        details: { key: kind },
      },
    );
  }
  if (!value.isWellFormed()) {
    throw new TableKitError("InvalidInput", `${kind} contains an unpaired surrogate`, {
      details: { key: kind },
    });
  }
  const bad = limits.forbiddenKeyCharacters.exec(value);
  if (bad) {
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    throw new TableKitError(
      "OutOfRangeInput",
      `${kind} contains a forbidden character U+${code} at position ${bad.index}`,
      { details: { key: kind, position: bad.index } },
    );
  }
  const size = encodedLength(value, limits.keyEncoding);
  if (size > limits.maxKeyBytes) {
    throw new TableKitError(
      "KeyValueTooLarge",
      `${kind} is ${size} bytes (${limits.keyEncoding}); the limit is ${limits.maxKeyBytes}`,
      { details: { key: kind, size, limit: limits.maxKeyBytes } },
    );
  }
  if (kind === "PartitionKey" && Object.isFrozen(limits)) {
    lastValidKey = value;
    lastKeyLimits = limits;
  }
  return value;
}

/** True when `name` can be a custom property's name (an entity can hold a property of that name). */
export function isPropertyName(name: string): boolean {
  return PROPERTY_NAME_PATTERN.test(name) && !SYSTEM_PROPERTY_NAMES.has(name);
}

/** Checks a property name; returns it. */
export function validatePropertyName(name: string, limits: Limits): string {
  if (name.length > limits.maxPropertyNameLength) {
    throw new TableKitError(
      "PropertyNameTooLong",
      `Property name '${name.slice(0, 40)}…' is ${name.length} characters; the limit is ${limits.maxPropertyNameLength}`,
      { details: { property: name } },
    );
  }
  if (!isPropertyName(name)) {
    throw new TableKitError("PropertyNameInvalid", `Property name ${JSON.stringify(name)} is invalid`, {
      details: { property: name },
    });
  }
  if (limits.unstorablePropertyNames?.includes(name)) {
    throw new TableKitError("NotSupported", `This backend cannot store a property named '${name}'`, {
      details: { property: name },
    });
  }
  return name;
}

/** Checks one typed value against the limits (sizes, DateTime range, well-formed strings). */
export function validateValue(name: string, tv: TypedValue, limits: Limits): void {
  if (tv.type === "String") validateString(name, tv.value, limits);
  else if (tv.type === "Binary" && tv.value.byteLength > limits.maxBinaryBytes) {
    throw tooLarge(name, tv.value.byteLength, limits.maxBinaryBytes);
  } else if (
    tv.type === "DateTime" &&
    (tv.value.ticks < limits.minDateTimeTicks || tv.value.ticks > limits.maxDateTimeTicks)
  ) {
    throw new TableKitError(
      "OutOfRangeInput",
      `Property '${name}': ${tv.value.toISOString()} is outside the DateTime range`,
      {
        details: { property: name },
      },
    );
  }
}

/** A String value: well formed, within `maxStringBytes` (UTF-16). */
function validateString(name: string, value: string, limits: Limits): void {
  if (!value.isWellFormed()) {
    throw new TableKitError("InvalidInput", `Property '${name}' contains an unpaired surrogate`, {
      details: { property: name },
    });
  }
  if (value.length * 2 > limits.maxStringBytes) throw tooLarge(name, value.length * 2, limits.maxStringBytes);
}

function tooLarge(name: string, size: number, limit: number): TableKitError {
  return new TableKitError(
    "PropertyValueTooLarge",
    `Property '${name}' is ${size} bytes; the limit is ${limit}`,
    {
      details: { property: name, size, limit },
    },
  );
}

/**
 * Size of an entity by the Table service's formula:
 * 4 + 2·len(PartitionKey + RowKey) + Σ (8 + 2·len(name) + sizeof(value)), where sizeof is
 * String 4 + 2·chars, Binary 4 + bytes, DateTime/Double/Int64 8, Guid 16, Int32 4, Boolean 1.
 */
export function entitySize(entity: NormalizedEntity): number {
  let size = 4 + 2 * (entity.partitionKey.length + entity.rowKey.length);
  for (const [name, tv] of entity.properties) size += 8 + 2 * name.length + valueSize(tv);
  return size;
}

function valueSize(tv: TypedValue): number {
  switch (tv.type) {
    case "String":
      return 4 + 2 * tv.value.length;
    case "Binary":
      return 4 + tv.value.byteLength;
    case "Guid":
      return 16;
    case "Int32":
      return 4;
    case "Boolean":
      return 1;
    default:
      return 8;
  }
}

/** Sizes `utf8ItemSize` gives fixed-size values: DynamoDB's largest number, and the text forms. */
const UTF8_FIXED_VALUE_BYTES = {
  Int32: 21,
  Int64: 21,
  Double: 21,
  DateTime: 28,
  Guid: 36,
  Boolean: 1,
} as const;

/**
 * Size of an entity measured DynamoDB's way (its 400 KB item rule): for PartitionKey, RowKey and
 * every property, the UTF-8 bytes of the name plus the value's size — String UTF-8 bytes, Binary
 * bytes, Boolean 1, Int32/Int64/Double 21 (DynamoDB's largest number), DateTime 28 and Guid 36
 * (their text). Checked against `limits.maxItemBytes` when a backend declares it.
 */
export function utf8ItemSize(entity: NormalizedEntity): number {
  let size = 12 + 6 + encodedLength(entity.partitionKey, "utf8") + encodedLength(entity.rowKey, "utf8");
  for (const [name, tv] of entity.properties) {
    size += encodedLength(name, "utf8");
    if (tv.type === "String") size += encodedLength(tv.value, "utf8");
    else if (tv.type === "Binary") size += tv.value.byteLength;
    else size += UTF8_FIXED_VALUE_BYTES[tv.type];
  }
  return size;
}

/**
 * Property names `validatePropertyName` accepted under each rules object (a store's limits, frozen
 * so they cannot change): names repeat across entities, and checking one (a Unicode pattern) costs
 * more than the rest of a small entity's checks.
 */
const acceptedByLimits = new WeakMap<Limits, Set<string>>();
const MAX_ACCEPTED_NAMES = 10_000;

/**
 * `Object.hasOwn`, in the form V8 answers without a call inside a `for…in` over the same object
 * (Object.hasOwn there cost 50 ns per entity of seven names).
 */
const isOwn = Object.prototype.hasOwnProperty;

/**
 * The own names of the last entity normalized, by position, each a metadata name or one accepted
 * under `shapeLimits` (frozen rules only): a transaction's entities, and a table's, mostly share one
 * shape, so a name is known by comparing it with the one at its position (property names are
 * internalized strings: identity) instead of looking it up twice.
 */
let shapeLimits: Limits | undefined;
const shapeNames: string[] = [];
const shapeIsMetadata: boolean[] = [];

/** The last rules object asked about and its names: a store checks entity after entity under one. */
let lastLimits: Limits | undefined;
let lastAccepted: Set<string> | undefined;

function acceptedNames(limits: Limits): Set<string> | undefined {
  if (limits === lastLimits) return lastAccepted;
  if (!Object.isFrozen(limits)) return undefined;
  let names = acceptedByLimits.get(limits);
  if (!names) {
    names = new Set();
    acceptedByLimits.set(limits, names);
  }
  lastLimits = limits;
  lastAccepted = names;
  return names;
}

/**
 * Validates and normalizes a caller's entity: keys, property names, typed values, property count
 * and entity size. Throws the matching TableKitError; nothing is written when it throws. The
 * properties come as `EntityProperties`: a string, boolean or number is kept as itself (its type is
 * the one it infers), so a write makes no Map and no typed value per property; the transaction
 * payload bound's share of the properties is added up in the same walk.
 */
export function normalizeEntity(entity: unknown, limits: Limits): NormalizedEntity {
  if (typeof entity !== "object" || entity === null || Array.isArray(entity)) {
    throw new TableKitError("InvalidInput", "An entity must be an object with partitionKey and rowKey");
  }
  const record = entity as Record<string, unknown>;
  const partitionKey = validateKey("PartitionKey", record.partitionKey, limits);
  const rowKey = validateKey("RowKey", record.rowKey, limits);
  const flat: (string | CheckedValue)[] = [];
  const accepted = acceptedNames(limits);
  if (shapeLimits !== limits) {
    shapeNames.length = 0;
    shapeLimits = accepted && limits;
  }
  let size = 4 + 2 * (partitionKey.length + rowKey.length); // entitySize, added up on the way
  let bound = 0; // the properties' share of transactionPayloadBound
  let position = 0;
  // Own enumerable names in Object.keys's order, without the array Object.keys makes.
  for (const name in record) {
    if (!isOwn.call(record, name)) continue;
    const at = position++;
    if (shapeNames[at] === name) {
      if (shapeIsMetadata[at]) continue;
    } else {
      const metadata = METADATA_NAMES.has(name);
      if (!metadata && !accepted?.has(name)) {
        validatePropertyName(name, limits);
        if (accepted && accepted.size >= MAX_ACCEPTED_NAMES) accepted.clear();
        accepted?.add(name);
      }
      if (shapeLimits !== undefined) {
        shapeNames[at] = name;
        shapeIsMetadata[at] = metadata;
      }
      if (metadata) continue;
    }
    const input = record[name];
    let value: CheckedValue;
    let valueBytes: number;
    // The inferred types as toTypedValue infers them, checked as validateValue checks them.
    if (typeof input === "string") {
      validateString(name, input, limits);
      value = input;
      valueBytes = 4 + 2 * input.length;
    } else if (typeof input === "number") {
      value = input;
      valueBytes = isInt32Number(input) ? 4 : 8;
    } else if (typeof input === "boolean") {
      value = input;
      valueBytes = 1;
    } else {
      const tv = toTypedValue(name, input as PropertyInput);
      if (!tv) continue;
      validateValue(name, tv, limits);
      value = tv;
      valueBytes = valueSize(tv);
    }
    flat.push(name, value);
    size += 8 + 2 * name.length + valueBytes;
    bound += propertyPayloadBound(name, value);
  }
  const normalized: NormalizedEntity = {
    partitionKey,
    rowKey,
    properties: new EntityProperties(flat, bound),
  };
  checkEntityLimits(normalized, limits, "entity", size);
  return normalized;
}

/**
 * Checks the whole-entity limits — property count, size by the service's formula (`size`, when the
 * caller has added it up already), and the UTF-8 item size when declared — of an entity already
 * normalized (`normalizeEntity`, `mergeEntity`).
 */
export function checkEntityLimits(
  entity: NormalizedEntity,
  limits: Limits,
  what = "entity",
  size = entitySize(entity),
): void {
  const count = entity.properties.size;
  if (count > limits.maxProperties) {
    throw new TableKitError(
      "TooManyProperties",
      `The ${what} has ${count} properties; the limit is ${limits.maxProperties}`,
      {
        details: { count, limit: limits.maxProperties },
      },
    );
  }
  if (size > limits.maxEntityBytes) {
    throw new TableKitError(
      "EntityTooLarge",
      `The ${what} is ${size} bytes; the limit is ${limits.maxEntityBytes}`,
      {
        details: { size, limit: limits.maxEntityBytes },
      },
    );
  }
  if (limits.maxItemBytes !== undefined) {
    const itemSize = utf8ItemSize(entity);
    if (itemSize > limits.maxItemBytes) {
      throw new TableKitError(
        "EntityTooLarge",
        `The ${what} is ${itemSize} bytes measured as UTF-8; the limit is ${limits.maxItemBytes}`,
        { details: { size: itemSize, limit: limits.maxItemBytes, measure: "utf8" } },
      );
    }
  }
}

/**
 * A Merge's result: the stored entity's properties overlaid by the update's (a property changing
 * type is replaced), checked against the whole-entity limits, which stored and new properties
 * together may break though neither breaks them alone. The one merge of tablekit: a backend that
 * merges itself calls it with the stored entity.
 */
export function mergeEntity(
  stored: NormalizedEntity,
  update: NormalizedEntity,
  limits: Limits,
): NormalizedEntity {
  const properties = new Map(stored.properties);
  for (const [name, value] of update.properties) properties.set(name, value);
  const merged: NormalizedEntity = { partitionKey: update.partitionKey, rowKey: update.rowKey, properties };
  checkEntityLimits(merged, limits, "merged entity");
  return merged;
}
