import {
  EDM_TYPES,
  type EdmType,
  type NormalizedEntity,
  type TableEntity,
  TableKitError,
  type TypedValue,
  toTyped,
  valueText,
} from "../../model/index.js";

/** An entity as a transaction message carries it: keys, and each property as `[type, text]`. */
export interface EntityJson {
  readonly pk: string;
  readonly rk: string;
  readonly p: Readonly<Record<string, readonly [EdmType, string]>>;
}

/** The message form of a normalized entity: every EDM value survives exactly (valueText). */
export function entityToJson(entity: NormalizedEntity): EntityJson {
  const p: Record<string, readonly [EdmType, string]> = {};
  for (const [name, tv] of entity.properties) p[name] = [tv.type, valueText(tv)];
  return { pk: entity.partitionKey, rk: entity.rowKey, p };
}

function malformed(message: string): TableKitError {
  return new TableKitError("InvalidInput", `Malformed transaction message: ${message}`);
}

/** Reads an entity of a message back as typed properties; InvalidInput when it is not one. */
export function entityFromJson(json: unknown): NormalizedEntity {
  if (typeof json !== "object" || json === null) throw malformed("an entity is not an object");
  const { pk, rk, p } = json as Partial<EntityJson>;
  if (typeof pk !== "string" || typeof rk !== "string" || typeof p !== "object" || p === null) {
    throw malformed("an entity needs pk, rk and p");
  }
  const properties = new Map<string, TypedValue>();
  for (const [name, pair] of Object.entries(p)) {
    if (
      !Array.isArray(pair) ||
      !(EDM_TYPES as readonly string[]).includes(pair[0]) ||
      typeof pair[1] !== "string"
    )
      throw malformed(`property ${JSON.stringify(name)} is not [type, text]`);
    properties.set(name, toTyped(name, pair[0] as EdmType, pair[1]));
  }
  return { partitionKey: pk, rowKey: rk, properties };
}

/** A normalized entity in the shape `Table` writes: each property annotated with its type. */
export function writableEntity(entity: NormalizedEntity): TableEntity<Record<string, unknown>> {
  const out: Record<string, unknown> = { partitionKey: entity.partitionKey, rowKey: entity.rowKey };
  for (const [name, tv] of entity.properties) out[name] = { value: tv.value, type: tv.type };
  return out as TableEntity<Record<string, unknown>>;
}

/**
 * JSON text with every character outside printable ASCII escaped (`\uXXXX`): a message then holds
 * only characters every queue carries unchanged (XML 1.0 forbids U+FFFE/U+FFFF, which
 * `JSON.stringify` leaves as they are; Azurite mangles CR and multi-byte characters at chunk edges).
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
