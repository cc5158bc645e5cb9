import { float64 } from "../../../keys/float64.js";
import { DateTime, type EdmType, TableKitError, type TypedValue } from "../../../model/index.js";

/**
 * How tablekit lays entities out in DynamoDB items (docs/dynamodb.md), shared by the entity codec,
 * the filter translator and the writes:
 * - the keys are the string attributes `PartitionKey` and `RowKey`, escaped by `encodeKey`;
 * - the Timestamp is `Timestamp`, an ISO string with seven fractional digits;
 * - a property keeps its name for String (`S`), Boolean (`BOOL`), Binary (`B`) and Int32 (`N`);
 *   the other types add their name: `big@Int64` (`N`), `since@DateTime` (`S`, ISO),
 *   `id@Guid` (`S`, lowercase) and `ratio@Double` — an `N` where DynamoDB's numbers can hold the
 *   value, else (NaN, ±Infinity, -0, magnitudes past 1e125 or under 1e-129) an `S` of 16 hex digits
 *   ordered like the numbers (`encodeDouble`).
 * Property names are C# identifiers, so `@` never clashes. A filter reads the attribute for its
 * literal's type, and DynamoDB never compares values of different types: typed semantics come
 * from the layout.
 */

/** A DynamoDB attribute value, in the AWS SDK v3 low-level shape (the kinds tablekit writes). */
export type DynamoAttributeValue =
  | { readonly S: string }
  | { readonly N: string }
  | { readonly B: Uint8Array }
  | { readonly BOOL: boolean };

export const PARTITION_KEY_ATTRIBUTE = "PartitionKey";
export const ROW_KEY_ATTRIBUTE = "RowKey";
export const TIMESTAMP_ATTRIBUTE = "Timestamp";

/** Types whose attribute name carries the type, after this separator. */
export const SUFFIXED_TYPES = ["Int64", "Double", "DateTime", "Guid"] as const;
const SEPARATOR = "@";

/** The types DynamoDB's own types tell apart, stored under the bare property name. */
const PLAIN_TYPES = ["String", "Boolean", "Binary", "Int32"] as const;

/**
 * A property named `__proto__` always carries its type in its attribute name: the AWS SDK v3
 * reads the value of an attribute named `__proto__` as undefined.
 */
const ALWAYS_SUFFIXED = "__proto__";

/** The attribute a property of this type is stored under. */
export function attributeName(property: string, type: EdmType): string {
  return property === ALWAYS_SUFFIXED || (SUFFIXED_TYPES as readonly string[]).includes(type)
    ? `${property}${SEPARATOR}${type}`
    : property;
}

/** Every attribute a property may be stored under (for a ProjectionExpression). */
export function attributeNames(property: string): string[] {
  const suffixed = SUFFIXED_TYPES.map((t) => `${property}${SEPARATOR}${t}`);
  return property === ALWAYS_SUFFIXED
    ? [...PLAIN_TYPES.map((t) => `${property}${SEPARATOR}${t}`), ...suffixed]
    : [property, ...suffixed];
}

/**
 * DynamoDB rejects empty key strings, so a key that is empty or starts with U+0000/U+0001 gets a
 * U+0001 in front. Keys cannot hold control characters anyway; the escape keeps every other key
 * as it is (and at its size), and keeps key order: U+0001 sorts below any other first character.
 */
export function encodeKey(key: string): string {
  return key === "" || key.charCodeAt(0) <= 1 ? `\u0001${key}` : key;
}

export function decodeKey(stored: string): string {
  return stored.charCodeAt(0) === 1 ? stored.slice(1) : stored;
}

/** The Doubles a DynamoDB number holds exactly (its range is 1e-130 to 9.99…e125): +0 and these magnitudes. */
export const PLAIN_DOUBLE_MIN = 1e-129;
export const PLAIN_DOUBLE_MAX = 1e125;

export function isPlainDouble(value: number): boolean {
  const m = Math.abs(value);
  return Object.is(value, 0) || (m >= PLAIN_DOUBLE_MIN && m <= PLAIN_DOUBLE_MAX);
}

/** Doubles as 16 hex digits in numeric order (the key codec's encoding; NaN sorts last). */
const ORDERED_DOUBLE = float64();

/** A Double as ordered hex text, for the values a DynamoDB number cannot hold. */
export function encodeDouble(value: number): string {
  return ORDERED_DOUBLE.encode(value);
}

export function decodeDouble(text: string): number {
  try {
    return ORDERED_DOUBLE.decode(text);
  } catch (cause) {
    throw corrupt(`Double ${JSON.stringify(text)}`, cause);
  }
}

/** The attribute value a typed value is stored as (also the literal a filter compares with). */
export function encodeValue(tv: TypedValue): DynamoAttributeValue {
  switch (tv.type) {
    case "String":
    case "Guid":
      return { S: tv.value };
    case "Boolean":
      return { BOOL: tv.value };
    case "Binary":
      return { B: tv.value };
    case "Int32":
    case "Int64":
      return { N: tv.value.toString() };
    case "Double":
      return isPlainDouble(tv.value) ? { N: String(tv.value) } : { S: encodeDouble(tv.value) };
    case "DateTime":
      return { S: tv.value.toISOString() };
  }
}

/**
 * Decodes one attribute into `properties` (its property name, typed value). Anything tablekit
 * never writes is a BackendError. Reads decode every attribute of every item, so this reads only
 * the field its type needs, and splits each attribute name once per process (`layoutOf`).
 */
export function decodeAttribute(properties: Map<string, TypedValue>, attribute: string, av: unknown): void {
  const { name, suffix } = layoutOf(attribute);
  const tv = av === null || typeof av !== "object" ? undefined : decodeValue(name, suffix, av);
  if (!tv) throw corrupt(`attribute '${attribute}'`);
  properties.set(name, tv);
}

type AttributeFields = { S?: unknown; N?: unknown; B?: unknown; BOOL?: unknown };

function decodeValue(name: string, suffix: string | undefined, av: AttributeFields): TypedValue | undefined {
  switch (suffix) {
    case undefined:
      return plainValue(av);
    case "String":
    case "Boolean":
    case "Binary":
    case "Int32": {
      // A plain type's suffix appears only on ALWAYS_SUFFIXED names, and must agree with the value.
      if (name !== ALWAYS_SUFFIXED) return undefined;
      const tv = plainValue(av);
      return tv?.type === suffix ? tv : undefined;
    }
    case "Int64": {
      const { N } = av;
      return typeof N === "string" && isIntegerText(N, 19) ? { type: "Int64", value: BigInt(N) } : undefined;
    }
    case "Double": {
      const { N, S } = av;
      if (typeof N === "string") return { type: "Double", value: Number(N) };
      return typeof S === "string" ? { type: "Double", value: decodeDouble(S) } : undefined;
    }
    case "DateTime": {
      const { S } = av;
      return typeof S === "string" ? { type: "DateTime", value: DateTime.parse(S) } : undefined;
    }
    case "Guid": {
      const { S } = av;
      return typeof S === "string" ? { type: "Guid", value: S } : undefined;
    }
  }
  return undefined;
}

/** `-?` and 1 to `maxDigits` decimal digits (what tablekit writes for Int32 and Int64), without a regex. */
function isIntegerText(text: string, maxDigits: number): boolean {
  const start = text.charCodeAt(0) === 45 ? 1 : 0; // -
  const digits = text.length - start;
  if (digits < 1 || digits > maxDigits) return false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** A value under a bare name: DynamoDB's own type tells String, Boolean, Binary and Int32 apart. */
function plainValue(av: AttributeFields): TypedValue | undefined {
  const { S } = av;
  if (typeof S === "string") return { type: "String", value: S };
  const { BOOL } = av;
  if (typeof BOOL === "boolean") return { type: "Boolean", value: BOOL };
  const { B } = av;
  if (B instanceof Uint8Array) return { type: "Binary", value: B };
  const { N } = av;
  if (typeof N === "string" && isIntegerText(N, 10)) return { type: "Int32", value: Number(N) };
  return undefined;
}

interface AttributeLayout {
  readonly name: string;
  readonly suffix: string | undefined;
}

/** Attribute names split into property name and type suffix: items of a table repeat their names. */
const layouts = new Map<string, AttributeLayout>();
/** Past this many distinct attribute names, the cache starts over rather than grow without end. */
const MAX_LAYOUTS = 10_000;

function layoutOf(attribute: string): AttributeLayout {
  let layout = layouts.get(attribute);
  if (!layout) {
    const at = attribute.lastIndexOf(SEPARATOR);
    layout =
      at < 0
        ? { name: attribute, suffix: undefined }
        : { name: attribute.slice(0, at), suffix: attribute.slice(at + 1) };
    if (layouts.size >= MAX_LAYOUTS) layouts.clear();
    layouts.set(attribute, layout);
  }
  return layout;
}

export function corrupt(what: string, cause?: unknown): TableKitError {
  return new TableKitError(
    "BackendError",
    `The DynamoDB item holds an unreadable ${what}: not written by tablekit`,
    { cause },
  );
}
