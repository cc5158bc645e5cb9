import {
  DateTime,
  EDM_TYPES,
  type EdmType,
  isInt32Number,
  type NormalizedEntity,
  type StoredEntity,
  TableKitError,
  type TypedValue,
  timestampOfEtag,
  toTyped,
  valueJson,
} from "../../../model/index.js";
import type { WriteResult } from "../../tables/table-backend.js";
import { AzureJsonNumber } from "./table-json-numbers.js";

/**
 * Entities on the wire, both ways, in the Table service's JSON (OData minimal metadata).
 * Writes annotate every property with its EDM type, so no value depends on the service's
 * inference; reads map annotations (and, for unannotated numbers, the number's text) back to
 * TypedValues without losing precision (Int64 as bigint, DateTime to 100 ns).
 */

const SYSTEM_NAMES: ReadonlySet<string> = new Set(["PartitionKey", "RowKey", "Timestamp"]);

/** The JSON body of an insert, update, merge or upsert. */
export function entityJson(entity: NormalizedEntity): string {
  const parts = [
    `"PartitionKey":${JSON.stringify(entity.partitionKey)}`,
    `"RowKey":${JSON.stringify(entity.rowKey)}`,
  ];
  for (const [name, tv] of entity.properties) {
    parts.push(
      `${JSON.stringify(`${name}@odata.type`)}:"Edm.${tv.type}"`,
      `${JSON.stringify(name)}:${valueJson(tv)}`,
    );
  }
  return `{${parts.join(",")}}`;
}

/** What a write reports: its ETag and the Timestamp it encodes (the service's ETags are Timestamps). */
export function writeResult(etag: string | undefined, date?: string): WriteResult {
  if (!etag) throw new TableKitError("BackendError", "The service did not return an ETag");
  const timestamp = timestampOfEtag(etag) ?? (date ? DateTime.fromDate(new Date(date)) : DateTime.now());
  return { etag, timestamp };
}

/**
 * A stored entity from one row of a response parsed by `parseJsonWithNumberText`. Unannotated
 * numbers are Double when written with a fraction or exponent (`5.0`), Int32 otherwise.
 */
export function decodeEntity(row: Record<string, unknown>): StoredEntity {
  const { PartitionKey: partitionKey, RowKey: rowKey, Timestamp: timestamp } = row;
  const etag = row["odata.etag"];
  if (typeof partitionKey !== "string" || typeof rowKey !== "string" || typeof etag !== "string") {
    throw new TableKitError("BackendError", "The service returned an entity without keys or ETag");
  }
  const properties = new Map<string, TypedValue>();
  for (const name of Object.keys(row)) {
    // Property names are identifiers: a "." or "@" marks metadata (odata.etag, x@odata.type).
    if (name.includes(".") || name.includes("@") || SYSTEM_NAMES.has(name)) continue;
    const tv = decodeValue(name, row[name], row[`${name}@odata.type`]);
    if (tv) properties.set(name, tv);
  }
  const stamp = typeof timestamp === "string" ? DateTime.parse(timestamp) : timestampOfEtag(etag);
  if (!stamp) throw new TableKitError("BackendError", "The service returned an entity without a Timestamp");
  return { partitionKey, rowKey, properties, etag, timestamp: stamp };
}

function decodeValue(name: string, raw: unknown, annotation: unknown): TypedValue | undefined {
  if (raw === null || raw === undefined) return undefined;
  const value = raw instanceof AzureJsonNumber ? raw.value : raw;
  if (annotation === undefined) {
    if (typeof value === "string") return { type: "String", value };
    if (typeof value === "boolean") return { type: "Boolean", value };
    if (typeof value === "number") {
      const double = raw instanceof AzureJsonNumber ? raw.isDoubleLiteral : false;
      return !double && isInt32Number(value) ? { type: "Int32", value } : { type: "Double", value };
    }
    throw new TableKitError("BackendError", `Property '${name}' has a value of no EDM type`);
  }
  // The common forms first, without the general conversion's checks; anything else goes through it.
  switch (annotation) {
    case "Edm.String":
      if (typeof value === "string") return { type: "String", value };
      break;
    case "Edm.Double":
      if (typeof value === "number") return { type: "Double", value };
      break;
    case "Edm.Int32":
      if (typeof value === "number" && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) {
        return { type: "Int32", value: value === 0 ? 0 : value };
      }
      break;
    case "Edm.Boolean":
      if (typeof value === "boolean") return { type: "Boolean", value };
      break;
    case "Edm.DateTime":
      if (typeof value === "string") return { type: "DateTime", value: DateTime.parse(value) };
      break;
  }
  const type =
    typeof annotation === "string" && annotation.startsWith("Edm.")
      ? (annotation.slice(4) as EdmType)
      : undefined;
  if (!type || !EDM_TYPES.includes(type)) {
    throw new TableKitError("BackendError", `Property '${name}' has the unknown type ${String(annotation)}`);
  }
  return toTyped(name, type, value);
}
