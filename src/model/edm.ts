import { DateTime } from "./datetime.js";
import { TableKitError } from "./errors.js";

/** The eight EDM types of the Table service. */
export const EDM_TYPES = [
  "String",
  "Int32",
  "Int64",
  "Double",
  "Boolean",
  "DateTime",
  "Guid",
  "Binary",
] as const;
export type EdmType = (typeof EDM_TYPES)[number];

/**
 * A property value in its canonical, typed form: what the core hands to backends and what
 * backends hand back. One JS representation per EDM type.
 */
export type TypedValue =
  | { readonly type: "String"; readonly value: string }
  | { readonly type: "Int32"; readonly value: number }
  | { readonly type: "Int64"; readonly value: bigint }
  | { readonly type: "Double"; readonly value: number }
  | { readonly type: "Boolean"; readonly value: boolean }
  | { readonly type: "DateTime"; readonly value: DateTime }
  | { readonly type: "Guid"; readonly value: string }
  | { readonly type: "Binary"; readonly value: Uint8Array };

/**
 * An explicitly annotated value, as `@azure/data-tables` users write them:
 * `{ value: "123", type: "Int64" }`, `{ value: 5, type: "Double" }`, `{ value: "…", type: "Guid" }`.
 */
export interface EdmAnnotated<T extends EdmType = EdmType> {
  value: unknown;
  type: T;
}

/**
 * What a caller may put in an entity property:
 * - `string` → String, `boolean` → Boolean, `bigint` → Int64, `Uint8Array` → Binary,
 * - `number` → Int32 when it is an integer in Int32 range (and not -0), otherwise Double,
 * - `Date` or `DateTime` → DateTime,
 * - `{ value, type }` for any type explicitly (the @azure/data-tables convention),
 * - `null`/`undefined` → the property is not stored.
 */
export type PropertyInput =
  | string
  | number
  | bigint
  | boolean
  | Date
  | DateTime
  | Uint8Array
  | EdmAnnotated
  | null
  | undefined;

/**
 * What reads return: the plain JS value whenever writing it back yields the same type, otherwise
 * the annotated form. So Int32 and non-integral Doubles are plain numbers, an integral Double is
 * `{ value: 5, type: "Double" }`, Int64 is a `bigint`, DateTime a `DateTime` (100 ns), Guid is
 * `{ value: "…", type: "Guid" }`, Binary a `Uint8Array`. Reading then writing never changes a type.
 */
export type PropertyOutput =
  | string
  | number
  | bigint
  | boolean
  | DateTime
  | Uint8Array
  | { value: number; type: "Double" }
  | { value: string; type: "Guid" }
  | null;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True when a plain JS number is inferred as Int32 (as the Table service infers unannotated JSON). */
export function isInt32Number(n: number): boolean {
  return Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX && !Object.is(n, -0);
}

function invalid(name: string, message: string): TableKitError {
  return new TableKitError("InvalidValueType", `Property '${name}': ${message}`, {
    details: { property: name },
  });
}

function isAnnotated(v: unknown): v is EdmAnnotated {
  return typeof v === "object" && v !== null && "type" in v && "value" in v && !(v instanceof Uint8Array);
}

/** Turns a caller's property value into its typed form; `undefined` for null/undefined (not stored). */
export function toTypedValue(name: string, input: PropertyInput): TypedValue | undefined {
  if (input === null || input === undefined) return undefined;
  switch (typeof input) {
    case "string":
      return { type: "String", value: input };
    case "boolean":
      return { type: "Boolean", value: input };
    case "bigint":
      return toTyped(name, "Int64", input);
    case "number":
      return isInt32Number(input) ? { type: "Int32", value: input } : { type: "Double", value: input };
  }
  if (input instanceof DateTime) return { type: "DateTime", value: input };
  if (input instanceof Date) return { type: "DateTime", value: dateTimeFrom(name, input) };
  if (input instanceof Uint8Array) return { type: "Binary", value: new Uint8Array(input) };
  if (isAnnotated(input)) {
    if (input.value === null || input.value === undefined) return undefined;
    return toTyped(name, input.type, input.value);
  }
  throw invalid(name, `unsupported value ${describe(input)}`);
}

/** Converts a value of any accepted JS form to the given EDM type, or throws InvalidValueType. */
export function toTyped(name: string, type: EdmType, v: unknown): TypedValue {
  switch (type) {
    case "String":
      if (typeof v === "string") return { type, value: v };
      break;
    case "Boolean":
      if (typeof v === "boolean") return { type, value: v };
      if (v === "true" || v === "false") return { type, value: v === "true" };
      break;
    case "Int32": {
      const n = typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v;
      if (typeof n === "number" && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX) {
        return { type, value: n === 0 ? 0 : n };
      }
      break;
    }
    case "Int64": {
      let b: bigint | undefined;
      if (typeof v === "bigint") b = v;
      else if (typeof v === "string" && /^-?\d{1,19}$/.test(v)) b = BigInt(v);
      else if (typeof v === "number" && Number.isSafeInteger(v)) b = BigInt(v);
      if (b !== undefined && b >= INT64_MIN && b <= INT64_MAX) return { type, value: b };
      break;
    }
    case "Double": {
      if (typeof v === "number") return { type, value: v };
      if (typeof v === "string") {
        if (v === "NaN") return { type, value: Number.NaN };
        if (v === "Infinity" || v === "INF") return { type, value: Number.POSITIVE_INFINITY };
        if (v === "-Infinity" || v === "-INF") return { type, value: Number.NEGATIVE_INFINITY };
        // A number's text past a Double's range (`1e400`) is refused, not read as ±Infinity.
        if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) && Number.isFinite(Number(v))) {
          return { type, value: Number(v) };
        }
      }
      break;
    }
    case "DateTime":
      if (v instanceof DateTime) return { type, value: v };
      if (v instanceof Date) return { type, value: dateTimeFrom(name, v) };
      if (typeof v === "string") return { type, value: wrapInput(name, () => DateTime.parse(v)) };
      break;
    case "Guid":
      if (typeof v === "string" && GUID_PATTERN.test(v)) return { type, value: v.toLowerCase() };
      break;
    case "Binary":
      if (v instanceof Uint8Array) return { type, value: new Uint8Array(v) };
      if (typeof v === "string" && BASE64_PATTERN.test(v)) {
        return { type, value: new Uint8Array(Buffer.from(v, "base64")) };
      }
      break;
    default:
      throw invalid(name, `unknown EDM type ${JSON.stringify(type)}`);
  }
  throw invalid(name, `${describe(v)} is not a valid Edm.${type}`);
}

/** The value a read returns for a typed value: plain when that round-trips, annotated otherwise. */
export function fromTypedValue(tv: TypedValue): PropertyOutput {
  switch (tv.type) {
    case "Double":
      // A plain number that looks like an Int32 would be written back as Int32: annotate it.
      return isInt32Number(tv.value) ? { value: tv.value, type: "Double" } : tv.value;
    case "Guid":
      return { value: tv.value, type: "Guid" };
    case "Binary":
      return new Uint8Array(tv.value);
    default:
      return tv.value;
  }
}

/**
 * A value as `@azure/data-tables` reads it from the service's JSON: DateTime as a Date (to the
 * millisecond), Binary as a Buffer, every finite Double a plain number and NaN, ±Infinity their
 * text (the service writes them as strings the SDK leaves alone); Guid as `{ value, type }`.
 */
export function sdkValueOf(tv: TypedValue): unknown {
  switch (tv.type) {
    case "DateTime":
      return new Date(tv.value.epochMilliseconds);
    case "Binary":
      return Buffer.from(tv.value); // a copy: a backend's value is not the caller's to change
    case "Double":
      return sdkDouble(tv.value);
    case "Guid":
      return { value: tv.value, type: "Guid" };
    default:
      return tv.value;
  }
}

/** A Double as the SDK reads it: the number, or the text of NaN and ±Infinity. */
export function sdkDouble(x: number): number | string {
  return x - x === 0 ? x : String(x);
}

/** Structural equality of two typed values (NaN equals NaN; -0 differs from 0). */
export function typedValuesEqual(a: TypedValue, b: TypedValue): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case "DateTime":
      return a.value.ticks === (b.value as DateTime).ticks;
    case "Binary":
      return Buffer.from(a.value).equals(Buffer.from(b.value as Uint8Array));
    default:
      return Object.is(a.value, b.value);
  }
}

function dateTimeFrom(name: string, d: Date): DateTime {
  return wrapInput(name, () => DateTime.fromDate(d));
}

function wrapInput<T>(name: string, fn: () => T): T {
  try {
    return fn();
  } catch (cause) {
    if (cause instanceof TableKitError && cause.code === "OutOfRangeInput") {
      throw new TableKitError("OutOfRangeInput", `Property '${name}': ${cause.message}`, { cause });
    }
    throw new TableKitError("InvalidValueType", `Property '${name}': ${(cause as Error).message}`, { cause });
  }
}

function describe(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "object" && v !== null) return v.constructor?.name ?? "object";
  return String(v);
}
