/**
 * The typed JSON encoding of an entity: the Azure Table service's own JSON (`odata=minimalmetadata`)
 * with an `@odata.type` annotation wherever JSON alone would lose the type, so every EDM value
 * survives exactly:
 *
 *   {"PartitionKey":"p","RowKey":"r","Name":"Ada","Age":36,"Score":1.5,"Active":true,
 *    "Id@odata.type":"Edm.Int64","Id":"9007199254740993",
 *    "Ratio@odata.type":"Edm.Double","Ratio":2,
 *    "Nan@odata.type":"Edm.Double","Nan":"NaN",
 *    "Born@odata.type":"Edm.DateTime","Born":"1815-12-10T00:00:00.0000000Z",
 *    "Key@odata.type":"Edm.Guid","Key":"0f8fad5b-d9cb-469f-a165-70867728950e",
 *    "Blob@odata.type":"Edm.Binary","Blob":"AQID"}
 *
 * Unannotated: a string is String, `true`/`false` Boolean, an integer in Int32 range Int32, any
 * other number Double; `null` means "no such property". Reading ignores `Timestamp` and `odata.*`.
 */
import { TableKitError, type TypedValue, toTyped } from "../../model/index.js";
import type { EntityRow } from "./entity-row.js";
import { doubleText, requireEdmType, valueText } from "./value-text.js";

const ANNOTATION = "@odata.type";

export interface EncodeOptions {
  /** Write `Timestamp` (as Edm.DateTime) when the row has one. Default true. */
  readonly timestamp?: boolean;
  /** Write `odata.etag` when the row has one. Default false. */
  readonly etag?: boolean;
}

/** One entity as a line of typed JSON (no newline). */
export function encodeTypedJson(row: EntityRow, options: EncodeOptions = {}): string {
  const parts: string[] = [];
  const field = (name: string, json: string) => parts.push(`${JSON.stringify(name)}:${json}`);
  if (options.etag && row.etag !== undefined) field("odata.etag", JSON.stringify(row.etag));
  field("PartitionKey", JSON.stringify(row.partitionKey));
  field("RowKey", JSON.stringify(row.rowKey));
  if (options.timestamp !== false && row.timestamp !== undefined) {
    field(`Timestamp${ANNOTATION}`, '"Edm.DateTime"');
    field("Timestamp", JSON.stringify(row.timestamp));
  }
  for (const [name, tv] of row.properties) {
    const { annotate, json } = valueJson(tv);
    if (annotate) field(`${name}${ANNOTATION}`, JSON.stringify(`Edm.${tv.type}`));
    field(name, json);
  }
  return `{${parts.join(",")}}`;
}

/** The JSON of one value, and whether it needs an annotation to keep its type. */
function valueJson(tv: TypedValue): { annotate: boolean; json: string } {
  switch (tv.type) {
    case "String":
      return { annotate: false, json: JSON.stringify(tv.value) };
    case "Int32":
    case "Boolean":
      return { annotate: false, json: String(tv.value) };
    case "Double": {
      const n = tv.value;
      if (!Number.isFinite(n)) return { annotate: true, json: JSON.stringify(doubleText(n)) };
      // Integral values (and -0) would read back as Int32 without the annotation.
      return { annotate: Number.isInteger(n), json: doubleText(n) };
    }
    default:
      return { annotate: true, json: JSON.stringify(valueText(tv)) };
  }
}

/** Reads one typed JSON object (already parsed) as a row; throws InvalidInput / InvalidValueType. */
export function decodeTypedJson(value: unknown): EntityRow {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TableKitError("InvalidInput", "expected a JSON object with PartitionKey and RowKey");
  }
  const object = value as Record<string, unknown>;
  const partitionKey = keyOf(object, "PartitionKey", "partitionKey");
  const rowKey = keyOf(object, "RowKey", "rowKey");
  const properties = new Map<string, TypedValue>();
  for (const name of Object.keys(object)) {
    if (name.endsWith(ANNOTATION)) {
      const base = name.slice(0, -ANNOTATION.length);
      if (!Object.hasOwn(object, base)) {
        throw new TableKitError("InvalidInput", `'${name}' annotates a property that is not there`);
      }
      continue;
    }
    if (isSkipped(name)) continue;
    const raw = object[name];
    const annotation = object[`${name}${ANNOTATION}`];
    const tv =
      annotation === undefined ? inferred(name, raw) : annotated(name, raw, requireEdmType(annotation, name));
    if (tv) properties.set(name, tv);
  }
  return { partitionKey, rowKey, properties };
}

function isSkipped(name: string): boolean {
  return (
    name === "PartitionKey" ||
    name === "RowKey" ||
    name === "partitionKey" ||
    name === "rowKey" ||
    name === "Timestamp" ||
    name.startsWith("odata.")
  );
}

function keyOf(object: Record<string, unknown>, name: string, alias: string): string {
  const v = Object.hasOwn(object, name) ? object[name] : object[alias];
  if (typeof v !== "string") {
    throw new TableKitError(
      "InvalidInput",
      v === undefined ? `${name} is missing` : `${name} must be a string, got ${JSON.stringify(v)}`,
    );
  }
  return v;
}

/** JSON has no Infinity: a parsed number that is one was written past a Double's range (`1e400`). */
function finiteNumber(name: string, n: number): void {
  if (!Number.isFinite(n)) {
    throw new TableKitError(
      "InvalidValueType",
      `Property '${name}': the number is outside the range of Edm.Double`,
    );
  }
}

function annotated(
  name: string,
  raw: unknown,
  type: ReturnType<typeof requireEdmType>,
): TypedValue | undefined {
  if (raw === null) return undefined;
  if (typeof raw === "number") finiteNumber(name, raw);
  if (type === "Double" && typeof raw === "number") return { type, value: raw };
  if (typeof raw !== "string" && typeof raw !== "number" && typeof raw !== "boolean") {
    throw new TableKitError("InvalidValueType", `Property '${name}': an Edm.${type} must be a JSON scalar`);
  }
  return toTyped(name, type, raw);
}

function inferred(name: string, raw: unknown): TypedValue | undefined {
  switch (typeof raw) {
    case "string":
      return { type: "String", value: raw };
    case "boolean":
      return { type: "Boolean", value: raw };
    case "number":
      finiteNumber(name, raw);
      if (Number.isInteger(raw) && !Object.is(raw, -0)) {
        if (raw >= -2147483648 && raw <= 2147483647) return { type: "Int32", value: raw };
        throw new TableKitError(
          "InvalidValueType",
          `Property '${name}': ${raw} is outside the Int32 range; annotate it "${name}@odata.type":"Edm.Int64" (value as a string) or "Edm.Double"`,
        );
      }
      return { type: "Double", value: raw };
    case "object":
      if (raw === null) return undefined;
      throw new TableKitError(
        "InvalidValueType",
        `Property '${name}': ${Array.isArray(raw) ? "an array" : "an object"} is not an EDM value`,
      );
    default:
      return undefined;
  }
}
