import {
  type DateTime,
  type EdmType,
  type PropertyInput,
  TableKitError,
  type TypedValue,
  toTyped,
  toTypedValue,
} from "../model/index.js";
import { formatLiteral, literalContent } from "./literals.js";

/**
 * A tagged template for `$filter` text, used like `@azure/data-tables`' `odata`: each
 * interpolated value becomes one literal of its type, so no value can change the filter's shape.
 * - string → `'…'` (quotes doubled); number → Int32 when integral and in range, else a Double
 *   literal (`5.5`, `1e+21`, `3000000000.0`, `NaN`); bigint → `123L`; boolean → `true`/`false`;
 *   Date or DateTime → `datetime'…'` with 7 fractional digits; Uint8Array → `X'…'`;
 *   `{ value, type }` → a literal of that EDM type (e.g. `{ value: 5, type: "Double" }` → `5.0`).
 * - A value inside quotes of the template (`'${s}'`, `guid'${g}'`) fills them: only its text goes
 *   in, quotes doubled, as @azure/data-tables does for strings.
 * - null and undefined are rejected (InvalidValueType): the service has no null literal.
 *
 * - A whole number is an Int32 literal, which never matches a Double property: write a Double with
 *   `odata.double(n)` (`Total gt ${odata.double(50)}` → `Total gt 50.0`), likewise `odata.int64`,
 *   `odata.guid`, `odata.dateTime`, `odata.binary`.
 *
 * @example odata`PartitionKey eq ${pk} and Age gt ${n}` // "PartitionKey eq 'O''Brien' and Age gt 30"
 */
export const odata = Object.assign(odataTemplate, {
  /** A Double literal, whole numbers included: `odata.double(50)` → `50.0`. */
  double: (value: number | string): TypedOf<"Double"> => typed("Double", value),
  /** An Int64 literal: `odata.int64(5)` → `5L` (a bigint, a safe integer or its decimal text). */
  int64: (value: bigint | number | string): TypedOf<"Int64"> => typed("Int64", value),
  /** A Guid literal: `guid'…'` (read back in lowercase). */
  guid: (value: string): TypedOf<"Guid"> => typed("Guid", value),
  /** A DateTime literal with 7 fractional digits, from a Date, a DateTime or ISO 8601 text. */
  dateTime: (value: Date | DateTime | string): TypedOf<"DateTime"> => typed("DateTime", value),
  /** A Binary literal `X'…'`, from bytes or base64 text. */
  binary: (value: Uint8Array | string): TypedOf<"Binary"> => typed("Binary", value),
});

/** A typed value of one EDM type: what `odata.double(…)` and its siblings return. */
export type TypedOf<T extends EdmType> = Extract<TypedValue, { type: T }>;

function typed<T extends EdmType>(type: T, value: unknown): TypedOf<T> {
  return toTyped(
    `odata.${type === "DateTime" ? "dateTime" : type.toLowerCase()}() value`,
    type,
    value,
  ) as TypedOf<T>;
}
function odataTemplate(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0]!;
  // Inside a quoted literal exactly when the template's own text so far holds an odd number of
  // quotes: what we insert never changes that count (its quotes come doubled or balanced).
  let quotes = countQuotes(strings[0]!);
  for (let i = 0; i < values.length; i++) {
    const typed = typedArgument(values[i], i);
    out += quotes % 2 === 1 ? literalContent(typed).replaceAll("'", "''") : formatLiteral(typed);
    out += strings[i + 1]!;
    quotes += countQuotes(strings[i + 1]!);
  }
  return out;
}

function typedArgument(value: unknown, index: number): TypedValue {
  const name = `odata value #${index + 1}`;
  const typed = toTypedValue(name, value as PropertyInput);
  if (!typed) {
    throw new TableKitError(
      "InvalidValueType",
      `${name} is ${value}: the Table service has no null literal`,
      {
        details: { index },
      },
    );
  }
  return typed;
}

function countQuotes(s: string): number {
  let n = 0;
  for (let i = s.indexOf("'"); i >= 0; i = s.indexOf("'", i + 1)) n++;
  return n;
}
