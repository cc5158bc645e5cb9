import type { TypedValue } from "./edm.js";

/**
 * One typed value as the Table service's JSON writes it: Int64 as a decimal string, DateTime as
 * its 7-digit ISO text, Binary as base64, Double's NaN/±Infinity as strings and integral Doubles
 * with a `.0`. The one form shared by the Azure backend's requests, the server's responses and
 * the transaction payload size (`transactionPayloadBytes`).
 */
export function valueJson(tv: TypedValue): string {
  switch (tv.type) {
    case "String":
    case "Guid":
      return JSON.stringify(tv.value);
    case "Int32":
      return String(tv.value);
    case "Int64":
      return `"${tv.value}"`;
    case "Double":
      return doubleJson(tv.value);
    case "Boolean":
      return tv.value ? "true" : "false";
    case "DateTime":
      return `"${tv.value.toISOString()}"`;
    case "Binary":
      return `"${Buffer.from(tv.value.buffer, tv.value.byteOffset, tv.value.byteLength).toString("base64")}"`;
  }
}

function doubleJson(n: number): string {
  if (Number.isNaN(n)) return '"NaN"';
  if (n === Number.POSITIVE_INFINITY) return '"Infinity"';
  if (n === Number.NEGATIVE_INFINITY) return '"-Infinity"';
  if (Object.is(n, -0)) return "-0.0";
  const text = String(n);
  // Written as the service writes doubles, so even an unannotated reader sees a Double.
  return /[.e]/.test(text) ? text : `${text}.0`;
}
