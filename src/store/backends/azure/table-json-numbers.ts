import { TableKitError } from "../../../model/index.js";

/**
 * A JSON number with the text it was written as. The Table service writes an integral Double as
 * `5.0` and an Int32 as `5`, without a type annotation for either; `JSON.parse` makes both `5`,
 * so the text is the only place the type survives.
 */
export class AzureJsonNumber {
  constructor(
    readonly value: number,
    readonly text: string,
  ) {}

  /** True when written with a fraction or an exponent: the service's mark of an Edm.Double. */
  get isDoubleLiteral(): boolean {
    return /[.eE]/.test(this.text);
  }
}

// Strings first, so digits inside them are skipped; everything else that matches is a number.
const TOKENS = /"(?:[^"\\]+|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/**
 * A number in value position written with a zero fraction (`5.0`) or an exponent (`1E+21`): the
 * only forms whose type the value alone does not tell. It may also match inside a string; that only
 * costs the slower exact path.
 */
const INTEGRAL_DOUBLE = /[:,[]\s*-?\d+(?:\.0+(?!\d)|(?:\.\d+)?[eE])/;

/**
 * `JSON.parse`, except that numbers become `AzureJsonNumber`s carrying their source text when the text
 * holds a number whose type only its text tells (`5.0`); otherwise numbers stay numbers. Numbers
 * are matched to their text in document order, which is also the order `JSON.parse` keeps object
 * keys in as long as no key looks like an array index (property names never do).
 */
export function parseJsonWithNumberText(text: string): unknown {
  const parsed: unknown = JSON.parse(text);
  // Without such a number, an integral value is an Int32 and a fractional one a Double: no texts needed.
  if (!INTEGRAL_DOUBLE.test(text)) return parsed;
  const numbers: string[] = [];
  for (const match of text.matchAll(TOKENS)) {
    if (match[0].charCodeAt(0) !== 0x22) numbers.push(match[0]);
  }
  let next = 0;
  const walk = (value: unknown): unknown => {
    if (typeof value === "number") {
      const source = numbers[next++];
      if (source === undefined || Number(source) !== value) {
        throw new TableKitError("BackendError", "Could not match the numbers of a response to their text");
      }
      return new AzureJsonNumber(value, source);
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = walk(value[i]);
    } else if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (typeof item !== "number") {
          walk(item);
        } else if (key === "__proto__") {
          // Plain assignment to "__proto__" would set the prototype, not the property.
          Object.defineProperty(record, key, { value: walk(item), enumerable: true, writable: true });
        } else {
          record[key] = walk(item);
        }
      }
    }
    return value;
  };
  const result = walk(parsed);
  if (next !== numbers.length) {
    throw new TableKitError("BackendError", "Could not match the numbers of a response to their text");
  }
  return result;
}
