import { type PropertyInput, TableKitError, type TypedValue, toTypedValue } from "../model/index.js";
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
 * @example odata`PartitionKey eq ${pk} and Age gt ${n}` // "PartitionKey eq 'O''Brien' and Age gt 30"
 */
export function odata(strings: TemplateStringsArray, ...values: unknown[]): string {
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
