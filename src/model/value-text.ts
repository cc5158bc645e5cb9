import type { TypedValue } from "./edm.js";

/**
 * The canonical text of a typed value (without the type): Int64 as decimal digits, DateTime with
 * seven fractional digits, Binary as base64, Double as the shortest round-trip decimal or one of
 * `NaN`, `Infinity`, `-Infinity`, `-0`. `toTyped(name, type, text)` reads it back exactly.
 */
export function valueText(tv: TypedValue): string {
  switch (tv.type) {
    case "Double":
      return doubleText(tv.value);
    case "DateTime":
      return tv.value.toISOString();
    case "Binary":
      return Buffer.from(tv.value).toString("base64");
    default:
      return String(tv.value);
  }
}

/** A Double's text: `String(n)` round-trips every finite value except -0, which needs its sign. */
export function doubleText(n: number): string {
  if (Object.is(n, -0)) return "-0";
  if (Number.isNaN(n)) return "NaN";
  return String(n);
}
