import type { Limits } from "../../src/index.js";
import { bytes } from "./helpers.js";

type Keys = { partitionKey: string; rowKey: string };

/**
 * Size of an entity by the Table service's documented formula, computed here independently of
 * the library: 4 + 2·len(PartitionKey + RowKey) + Σ (8 + 2·len(name) + sizeof(value)), where
 * sizeof is String 4 + 2·chars, Binary 4 + bytes, DateTime/Double/Int64 8, Guid 16, Int32 4,
 * Boolean 1. Handles only the value kinds these tests build.
 */
export function documentedEntitySize(entity: Record<string, unknown>): number {
  let size = 4 + 2 * ((entity.partitionKey as string).length + (entity.rowKey as string).length);
  for (const [name, value] of Object.entries(entity)) {
    if (name === "partitionKey" || name === "rowKey") continue;
    size += 8 + 2 * name.length;
    if (typeof value === "string") size += 4 + 2 * value.length;
    else if (value instanceof Uint8Array) size += 4 + value.byteLength;
    else if (typeof value === "boolean") size += 1;
    else if (typeof value === "number" && Number.isInteger(value)) size += 4;
    else throw new Error(`documentedEntitySize: unsupported value for ${name}`);
  }
  return size;
}

/**
 * An entity of exactly `size` bytes (documented formula) made of several large String and Binary
 * properties, each within the backend's value limits.
 */
export function entityOfSize(keys: Keys, size: number, limits: Limits): Keys & Record<string, unknown> {
  const perProperty = 8 + 2 * 4 + 4; // name "p000" plus the value's length prefix
  const capacity = perProperty + Math.min(limits.maxStringBytes, limits.maxBinaryBytes);
  let left = size - (4 + 2 * (keys.partitionKey.length + keys.rowKey.length));
  const count = Math.max(1, Math.ceil(left / capacity));
  if (count > limits.maxProperties || left < perProperty) {
    throw new Error(`cannot build an entity of ${size} bytes within the limits`);
  }
  const share = Math.floor(left / count);
  const entity: Keys & Record<string, unknown> = { ...keys };
  for (let i = 0; i < count; i++) {
    const name = `p${String(i).padStart(3, "0")}`;
    const last = i === count - 1;
    const payload = (last ? left : share) - perProperty;
    if (!last && i % 2 === 0) {
      const chars = Math.floor(payload / 2);
      entity[name] = String.fromCharCode(97 + (i % 26)).repeat(chars);
      left -= perProperty + 2 * chars;
    } else {
      // The last property is Binary: it absorbs the exact (possibly odd) remainder.
      if (payload > limits.maxBinaryBytes) throw new Error(`cannot build an entity of ${size} bytes`);
      entity[name] = bytes(payload, i + 1);
      left -= perProperty + payload;
    }
  }
  const built = documentedEntitySize(entity);
  if (built !== size) throw new Error(`entityOfSize built ${built} bytes instead of ${size}`);
  return entity;
}

/**
 * Size of an entity measured DynamoDB's way, for backends that declare `limits.maxItemBytes`
 * (docs/limits.md), computed independently of the library: UTF-8 bytes of the names
 * "PartitionKey" and "RowKey" and of every property name, plus each value — String UTF-8 bytes,
 * Binary bytes. Handles only the value kinds these tests build.
 */
export function documentedItemSize(entity: Record<string, unknown>): number {
  const utf8 = (s: string) => Buffer.byteLength(s, "utf8");
  let size = utf8("PartitionKey") + utf8("RowKey");
  size += utf8(entity.partitionKey as string) + utf8(entity.rowKey as string);
  for (const [name, value] of Object.entries(entity)) {
    if (name === "partitionKey" || name === "rowKey") continue;
    size += utf8(name);
    if (typeof value === "string") size += utf8(value);
    else if (value instanceof Uint8Array) size += value.byteLength;
    else throw new Error(`documentedItemSize: unsupported value for ${name}`);
  }
  return size;
}

/** An entity of exactly `size` bytes by `documentedItemSize`, made of Binary properties. */
export function itemOfSize(keys: Keys, size: number, limits: Limits): Keys & Record<string, unknown> {
  const perProperty = 4; // name "p000"
  let left = size - documentedItemSize(keys);
  const count = Math.max(1, Math.ceil(left / (perProperty + limits.maxBinaryBytes)));
  const share = Math.floor(left / count);
  const entity: Keys & Record<string, unknown> = { ...keys };
  for (let i = 0; i < count; i++) {
    const payload = (i === count - 1 ? left : share) - perProperty;
    entity[`p${String(i).padStart(3, "0")}`] = bytes(payload, i + 1);
    left -= perProperty + payload;
  }
  const built = documentedItemSize(entity);
  if (built !== size) throw new Error(`itemOfSize built ${built} bytes instead of ${size}`);
  return entity;
}
