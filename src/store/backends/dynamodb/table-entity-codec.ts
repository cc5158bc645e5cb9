import {
  DateTime,
  etagOfIso,
  type NormalizedEntity,
  type StoredEntity,
  setOwn,
  TableKitError,
  type TypedValue,
} from "../../../model/index.js";
import {
  attributeName,
  decodeAttribute,
  decodeKey,
  encodeKey,
  encodeValue,
  PARTITION_KEY_ATTRIBUTE,
  ROW_KEY_ATTRIBUTE,
  TIMESTAMP_ATTRIBUTE,
} from "./table-item-layout.js";
import type { AttributeMap } from "./table-sdk.js";

/**
 * Entities as DynamoDB items, in the layout of item-layout.ts (docs/dynamodb.md):
 * escaped keys, the Timestamp as ISO text, each property under its name (plus its type's, where
 * DynamoDB's own types cannot tell it apart).
 */

/** The primary key of an entity's item. */
export function itemKey(partitionKey: string, rowKey: string): AttributeMap {
  return {
    [PARTITION_KEY_ATTRIBUTE]: { S: encodeKey(partitionKey) },
    [ROW_KEY_ATTRIBUTE]: { S: encodeKey(rowKey) },
  };
}

/** The whole item of an entity written at `timestamp`. */
export function toItem(entity: NormalizedEntity, timestamp: DateTime): AttributeMap {
  const item: AttributeMap = itemKey(entity.partitionKey, entity.rowKey);
  item[TIMESTAMP_ATTRIBUTE] = { S: timestamp.toISOString() };
  for (const [name, tv] of entity.properties) setOwn(item, attributeName(name, tv.type), encodeValue(tv));
  return item;
}

/** The Timestamp stored in an item (undefined when absent, e.g. in an item of another tool). */
export function itemTimestamp(item: AttributeMap): DateTime | undefined {
  const text = (item[TIMESTAMP_ATTRIBUTE] as { S?: unknown } | undefined)?.S;
  return typeof text === "string" ? DateTime.parse(text) : undefined;
}

/** The entity an item holds. */
export function fromItem(item: AttributeMap): StoredEntity {
  const pk = (item[PARTITION_KEY_ATTRIBUTE] as { S?: unknown } | undefined)?.S;
  const rk = (item[ROW_KEY_ATTRIBUTE] as { S?: unknown } | undefined)?.S;
  const iso = (item[TIMESTAMP_ATTRIBUTE] as { S?: unknown } | undefined)?.S;
  if (typeof pk !== "string" || typeof rk !== "string" || typeof iso !== "string") {
    throw new TableKitError("BackendError", "A DynamoDB item lacks tablekit's keys or Timestamp");
  }
  const properties = new Map<string, TypedValue>();
  for (const attribute of Object.keys(item)) {
    if (
      attribute !== PARTITION_KEY_ATTRIBUTE &&
      attribute !== ROW_KEY_ATTRIBUTE &&
      attribute !== TIMESTAMP_ATTRIBUTE
    ) {
      decodeAttribute(properties, attribute, item[attribute]);
    }
  }
  return {
    partitionKey: decodeKey(pk),
    rowKey: decodeKey(rk),
    properties,
    timestamp: DateTime.parse(iso),
    // The stored text is the Timestamp's canonical form: no need to format it again.
    etag: etagOfIso(iso),
  };
}
