import { compareUtf8, compareUtf16, DateTime } from "../../../src/index.js";

/** A store's key order, as `Capabilities.keyOrder` declares it. */
export type KeyOrder = "utf16" | "utf8";

/**
 * Listed entities sorted by (PartitionKey, RowKey) in `order`; unchanged when `order` is undefined.
 * The reference store is put in the other backend's declared order, so keys whose UTF-8 and UTF-16
 * orders differ still compare.
 */
export function inKeyOrder<T extends Record<string, unknown>>(rows: T[], order: KeyOrder | undefined): T[] {
  if (order === undefined) return rows;
  const compare = order === "utf8" ? compareUtf8 : compareUtf16;
  const key = (e: T) => [String(e.partitionKey), String(e.rowKey)] as const;
  return [...rows].sort((a, b) => {
    const [pa, ra] = key(a);
    const [pb, rb] = key(b);
    return compare(pa, pb) || compare(ra, rb);
  });
}

/** An entity as read, minus what legitimately differs (ETag, Timestamp), its values made comparable. */
export function comparable(entity: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(entity)) {
    if (name === "etag" || name === "timestamp") continue;
    // defineProperty, so a property named `__proto__` is compared like any other.
    Object.defineProperty(out, name, { value: describeValue(value), enumerable: true });
  }
  return out;
}

/** A value's type and text, telling -0 from 0 (toEqual on the text would not see the sign). */
function describeValue(value: unknown): string {
  if (value instanceof DateTime) return `DateTime ${value.toISOString()}`;
  if (value instanceof Uint8Array) return `Binary ${Buffer.from(value).toString("hex")}`;
  if (typeof value === "bigint") return `Int64 ${value}`;
  if (typeof value === "number") return `number ${Object.is(value, -0) ? "-0" : String(value)}`;
  if (typeof value === "object" && value !== null) {
    const { type, value: v } = value as { type: string; value: unknown };
    return `${type} ${Object.is(v, -0) ? "-0" : String(v)}`;
  }
  return `${typeof value} ${String(value)}`;
}
