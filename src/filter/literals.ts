import { DateTime, type TypedValue } from "../model/index.js";
import { excerpt } from "./errors.js";

/**
 * Literal forms of the `$filter` language, both ways: text → TypedValue for the parser, and
 * TypedValue → text for `filterToString` and the `odata` template. The forms are those of the
 * OData v3 URI conventions the Table service follows.
 */

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

/** A literal that could not be read: what is wrong with it (the parser adds the position). */
export class LiteralProblem {
  constructor(readonly description: string) {}
}

/**
 * Reads a numeric literal as the lexer delimited it: `-?digits(.digits)?(e[+-]?digits)?suffix?`,
 * or `NaN`, `INF`, `-INF`. No suffix and no fraction or exponent is Int32 (the service answers
 * "Unrecognized 'Edm.Int32' literal" for one out of range, so we reject it too); `L`/`l` is Int64;
 * a fraction, an exponent or a `D`/`d` suffix is Double. Decimal (`M`) and Single (`F`) literals
 * are OData types the Table service has no properties of.
 */
export function readNumber(text: string): TypedValue | LiteralProblem {
  if (text === "NaN") return { type: "Double", value: Number.NaN };
  if (text === "INF") return { type: "Double", value: Number.POSITIVE_INFINITY };
  if (text === "-INF") return { type: "Double", value: Number.NEGATIVE_INFINITY };
  const suffix = text.at(-1)!;
  const body = /[0-9]/.test(suffix) ? text : text.slice(0, -1);
  const integral = /^-?[0-9]+$/.test(body);
  switch (suffix) {
    case "L":
    case "l": {
      if (!integral) return new LiteralProblem(`Unrecognized Edm.Int64 literal ${excerpt(text)}`);
      const n = BigInt(body);
      if (n < INT64_MIN || n > INT64_MAX) {
        return new LiteralProblem(`Edm.Int64 literal ${excerpt(text)} is out of range`);
      }
      return { type: "Int64", value: n };
    }
    case "M":
    case "m":
      return new LiteralProblem(`Edm.Decimal literal ${excerpt(text)} is not supported by the Table service`);
    case "F":
    case "f":
      return new LiteralProblem(`Edm.Single literal ${excerpt(text)} is not supported by the Table service`);
  }
  if (integral && body === text) {
    const n = BigInt(body);
    if (n < INT32_MIN || n > INT32_MAX) {
      return new LiteralProblem(
        `Unrecognized Edm.Int32 literal ${excerpt(text)}: it is out of Int32 range (write ${excerpt(`${text}L`)} for an Int64)`,
      );
    }
    return { type: "Int32", value: Number(n) };
  }
  const value = Number(body);
  if (!Number.isFinite(value))
    return new LiteralProblem(`Edm.Double literal ${excerpt(text)} is out of range`);
  return { type: "Double", value };
}

/** The type a literal prefix names: `datetime`, `guid`, `binary` (any case) or `X`/`x`. */
export type LiteralPrefix = "DateTime" | "Guid" | "Binary";

/** Which typed literal a word introduces when a quote follows it, if any. */
export function literalPrefix(word: string): LiteralPrefix | undefined {
  // As in WCF Data Services' lexer: the word prefixes compare case-insensitively.
  switch (word.toLowerCase()) {
    case "datetime":
      return "DateTime";
    case "guid":
      return "Guid";
    case "binary":
    case "x":
      return "Binary";
    default:
      return undefined;
  }
}

/** Reads the quoted part of `datetime'…'`, `guid'…'` or `X'…'`/`binary'…'`. */
export function readPrefixed(type: LiteralPrefix, content: string): TypedValue | LiteralProblem {
  switch (type) {
    case "DateTime":
      try {
        return { type, value: DateTime.parse(content) };
      } catch {
        return new LiteralProblem(
          `Unrecognized Edm.DateTime literal ${excerpt(content)} (expected e.g. 2008-07-10T00:00:00.0000000Z)`,
        );
      }
    case "Guid":
      if (!GUID_PATTERN.test(content)) {
        return new LiteralProblem(
          `Unrecognized Edm.Guid literal ${excerpt(content)} (expected 8-4-4-4-12 hexadecimal digits)`,
        );
      }
      return { type, value: content.toLowerCase() };
    case "Binary":
      if (!HEX_PATTERN.test(content)) {
        return new LiteralProblem(
          `Unrecognized Edm.Binary literal ${excerpt(content)} (expected an even number of hexadecimal digits)`,
        );
      }
      return { type, value: new Uint8Array(Buffer.from(content, "hex")) };
  }
}

/** A string literal: quoted, with each quote inside doubled. */
export function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A Double literal that reads back as a Double, to the bit (`5` → `5.0`, NaN → `NaN`). */
export function formatDouble(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Number.POSITIVE_INFINITY) return "INF";
  if (n === Number.NEGATIVE_INFINITY) return "-INF";
  if (Object.is(n, -0)) return "-0.0";
  const s = String(n);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** The text inside the quotes of a typed literal, or of a string literal (unescaped). */
export function literalContent(tv: TypedValue): string {
  switch (tv.type) {
    case "DateTime":
      return tv.value.toISOString();
    case "Binary":
      return Buffer.from(tv.value).toString("hex");
    case "Int64":
      return tv.value.toString();
    case "Double":
      return formatDouble(tv.value);
    default:
      return String(tv.value);
  }
}

/** The canonical literal for a typed value; `readNumber`/`readPrefixed` read it back exactly. */
export function formatLiteral(tv: TypedValue): string {
  switch (tv.type) {
    case "String":
      return quoteString(tv.value);
    case "Int32":
      return String(tv.value);
    case "Int64":
      return `${tv.value}L`;
    case "Double":
      return formatDouble(tv.value);
    case "Boolean":
      return tv.value ? "true" : "false";
    case "DateTime":
      return `datetime'${tv.value.toISOString()}'`;
    case "Guid":
      return `guid'${tv.value}'`;
    case "Binary":
      return `X'${Buffer.from(tv.value).toString("hex")}'`;
  }
}
