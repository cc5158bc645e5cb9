/**
 * The canonical text of a typed value, as CSV cells and the typed JSON encoding write it, and
 * back. Every EDM value survives the round trip exactly: Int64 as decimal digits, DateTime with
 * seven fractional digits, Binary as base64, Double as the shortest round-trip decimal or one of
 * `NaN`, `Infinity`, `-Infinity`, `-0`.
 */
import { EDM_TYPES, type EdmType, TableKitError, type TypedValue, toTyped } from "../../model/index.js";

/** The canonical text of a value lives in the model (patterns encode values with it too). */
export { doubleText, valueText } from "../../model/index.js";

/** Reads a value's text as the given type; throws InvalidValueType naming the property. */
export function parseValueText(name: string, type: EdmType, text: string): TypedValue {
  return toTyped(name, type, text);
}

/** `Edm.Int64` → `Int64`; undefined for anything that is not an EDM type name. */
export function edmTypeFromAnnotation(annotation: unknown): EdmType | undefined {
  if (typeof annotation !== "string" || !annotation.startsWith("Edm.")) return undefined;
  const name = annotation.slice(4);
  return (EDM_TYPES as readonly string[]).includes(name) ? (name as EdmType) : undefined;
}

/** `Edm.<type>` for an EDM type, or throws InvalidInput naming the bad annotation. */
export function requireEdmType(annotation: unknown, where: string): EdmType {
  const type = edmTypeFromAnnotation(annotation);
  if (!type) {
    throw new TableKitError(
      "InvalidInput",
      `${where}: unknown type annotation ${JSON.stringify(annotation)} (use Edm.String, Edm.Int32, Edm.Int64, Edm.Double, Edm.Boolean, Edm.DateTime, Edm.Guid or Edm.Binary)`,
    );
  }
  return type;
}
