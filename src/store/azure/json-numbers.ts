import { TableKitError } from "../../model/index.js";

/**
 * A JSON number with the text it was written as. The Table service writes an integral Double as
 * `5.0` and an Int32 as `5`, without a type annotation for either; `JSON.parse` makes both `5`,
 * so the text is the only place the type survives.
 */
export class JsonNumber {
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
 * `JSON.parse`, except that every number becomes a `JsonNumber` carrying its source text. Numbers
 * are matched to their text in document order, which is also the order `JSON.parse` keeps object
 * keys in as long as no key looks like an array index (property names never do).
 */
export function parseJsonWithNumberText(text: string): unknown {
  const parsed: unknown = JSON.parse(text);
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
      return new JsonNumber(value, source);
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
