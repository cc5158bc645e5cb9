import { float64 } from "../../keys/float64.js";
import { DateTime, type EdmType, TableKitError, type TypedValue } from "../../model/index.js";

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

/** The property an attribute holds: its name and typed value. Anything tablekit never writes is a BackendError. */
export function decodeAttribute(attribute: string, av: unknown): [string, TypedValue] {
  const at = attribute.lastIndexOf(SEPARATOR);
  const suffix = at < 0 ? undefined : attribute.slice(at + 1);
  const name = at < 0 ? attribute : attribute.slice(0, at);
  const { S, N, B, BOOL } = (av ?? {}) as { S?: unknown; N?: unknown; B?: unknown; BOOL?: unknown };
  switch (suffix) {
    case undefined:
    case "String":
    case "Boolean":
    case "Binary":
    case "Int32": {
      // A plain type's suffix appears only on ALWAYS_SUFFIXED names, and must agree with the value.
      if (suffix !== undefined && name !== ALWAYS_SUFFIXED) break;
      let tv: TypedValue | undefined;
      if (typeof S === "string") tv = { type: "String", value: S };
      else if (typeof BOOL === "boolean") tv = { type: "Boolean", value: BOOL };
      else if (B instanceof Uint8Array) tv = { type: "Binary", value: B };
      else if (typeof N === "string" && /^-?\d{1,10}$/.test(N)) tv = { type: "Int32", value: Number(N) };
      if (tv && (suffix === undefined || tv.type === suffix)) return [name, tv];
      break;
    }
    case "Int64":
      if (typeof N === "string" && /^-?\d{1,19}$/.test(N)) return [name, { type: "Int64", value: BigInt(N) }];
      break;
    case "Double":
      if (typeof N === "string") return [name, { type: "Double", value: Number(N) }];
      if (typeof S === "string") return [name, { type: "Double", value: decodeDouble(S) }];
      break;
    case "DateTime":
      if (typeof S === "string") return [name, { type: "DateTime", value: DateTime.parse(S) }];
      break;
    case "Guid":
      if (typeof S === "string") return [name, { type: "Guid", value: S }];
      break;
  }
  throw corrupt(`attribute '${attribute}'`);
}

export function corrupt(what: string, cause?: unknown): TableKitError {
  return new TableKitError(
    "BackendError",
    `The DynamoDB item holds an unreadable ${what}: not written by tablekit`,
    { cause },
  );
}
