import {
  decodeKey,
  decodeTypedValue,
  encodeKey,
  encodeTypedValue,
  PARTITION_KEY_ATTRIBUTE,
  ROW_KEY_ATTRIBUTE,
  TIMESTAMP_ATTRIBUTE,
} from "../../filter/to-dynamodb.js";
import {
  type DateTime,
  type NormalizedEntity,
  type StoredEntity,
  TableKitError,
  type TypedValue,
} from "../../model/index.js";
import { etagOf } from "./etag.js";
import type { AttributeMap } from "./sdk.js";

/**
 * Entities as DynamoDB items (layout in src/filter/to-dynamodb.ts and docs/dynamodb.md): the keys
 * escaped by `encodeKey`, the Timestamp as a DateTime, each property under its own name.
 */

/** The primary key of an entity's item. */
export function itemKey(partitionKey: string, rowKey: string): AttributeMap {
  return {
    [PARTITION_KEY_ATTRIBUTE]: { S: encodeKey(partitionKey) },
    [ROW_KEY_ATTRIBUTE]: { S: encodeKey(rowKey) },
  };
}

/** The Timestamp attribute's value. */
export function timestampAttribute(timestamp: DateTime): AttributeMap[string] {
  return encodeTypedValue({ type: "DateTime", value: timestamp });
}

/** The whole item of an entity written at `timestamp`. */
export function toItem(entity: NormalizedEntity, timestamp: DateTime): AttributeMap {
  const item: AttributeMap = itemKey(entity.partitionKey, entity.rowKey);
  item[TIMESTAMP_ATTRIBUTE] = timestampAttribute(timestamp);
  for (const [name, tv] of entity.properties) item[name] = encodeTypedValue(tv);
  return item;
}

/** The Timestamp stored in an item (undefined when absent, e.g. for an item of another tool). */
export function itemTimestamp(item: AttributeMap): DateTime | undefined {
  const av = item[TIMESTAMP_ATTRIBUTE];
  if (!av) return undefined;
  const tv = decodeTypedValue(TIMESTAMP_ATTRIBUTE, av);
  return tv.type === "DateTime" ? tv.value : undefined;
}

/** The entity an item holds. */
export function fromItem(item: AttributeMap): StoredEntity {
  const pk = item[PARTITION_KEY_ATTRIBUTE] as { S?: string } | undefined;
  const rk = item[ROW_KEY_ATTRIBUTE] as { S?: string } | undefined;
  const timestamp = itemTimestamp(item);
  if (typeof pk?.S !== "string" || typeof rk?.S !== "string" || !timestamp) {
    throw new TableKitError("BackendError", "A DynamoDB item lacks tablekit's keys or Timestamp");
  }
  const properties = new Map<string, TypedValue>();
  for (const name of Object.keys(item)) {
    if (name === PARTITION_KEY_ATTRIBUTE || name === ROW_KEY_ATTRIBUTE || name === TIMESTAMP_ATTRIBUTE)
      continue;
    properties.set(name, decodeTypedValue(name, item[name]));
  }
  return {
    partitionKey: decodeKey(pk.S),
    rowKey: decodeKey(rk.S),
    properties,
    timestamp,
    etag: etagOf(timestamp),
  };
}
