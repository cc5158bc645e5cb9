import {
  DateTime,
  type EdmAnnotated,
  type EdmType,
  type PropertyOutput,
  TableKitError,
} from "../../../model/index.js";

/**
 * A field of an entity model: its EDM type, whether it may be absent, how a caller's value is
 * checked and written, and how a stored value is read back. `T` is the TypeScript type reads return.
 */
export interface Field<T = unknown, Optional extends boolean = boolean, In = T> {
  readonly edm: EdmType;
  readonly isOptional: Optional;
  /** Phantom: the value type reads return, for inference only. */
  readonly __value?: T;
  /** Phantom: the value types writes accept, for inference only. */
  readonly __input?: In;
  /** The same field, allowed to be absent (`undefined`/`null` writes nothing). */
  optional(): Field<T, true, In>;
  /** Checks a caller's value (InvalidValueType / OutOfRangeInput) and returns it annotated with the field's EDM type. */
  write(name: string, value: unknown): EdmAnnotated;
  /** The field's value from a stored property (InvalidValueType when it holds another type). */
  read(name: string, stored: PropertyOutput): T;
}

/** The map of field names to fields that a model declares. */
// biome-ignore lint/suspicious/noExplicitAny: any field, whatever its value and input types.
export type Fields = Readonly<Record<string, Field<any, boolean, any>>>;

/** The TypeScript type of one field. */
export type FieldValue<F> = F extends Field<infer T, boolean, unknown> ? T : never;

/** The TypeScript type a write accepts for one field. */
export type FieldInput<F> = F extends Field<unknown, boolean, infer In> ? In : never;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function wrongType(name: string, expected: string, value: unknown): TableKitError {
  const got = value === null ? "null" : value instanceof Object ? value.constructor.name : typeof value;
  return new TableKitError("InvalidValueType", `Field '${name}' must be ${expected}, got ${got}`, {
    details: { field: name, expected },
  });
}

/** Unwraps the annotated read form (`{ value, type }`) of a stored value when its type is `edm`. */
function unwrap(stored: PropertyOutput, edm: EdmType): unknown {
  if (typeof stored === "object" && stored !== null && "type" in stored && "value" in stored) {
    return stored.type === edm ? stored.value : undefined;
  }
  return stored;
}

function makeField<T>(
  edm: EdmType,
  expected: string,
  check: (name: string, value: unknown) => unknown,
  accept: (raw: unknown) => raw is T,
  isOptional = false,
): Field<T, boolean, unknown> {
  return {
    edm,
    isOptional,
    optional: () => makeField(edm, expected, check, accept, true) as Field<T, true, unknown>,
    write: (name, value) => ({ type: edm, value: check(name, value) }),
    read(name, stored) {
      const raw = unwrap(stored, edm);
      if (!accept(raw)) throw wrongType(name, `stored as Edm.${edm}`, stored);
      return raw;
    },
  };
}

const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number";

/**
 * The field types, one per EDM type. Writes always send the declared EDM type, so a `double()`
 * holding 5 is stored as Edm.Double (not Int32) and an `int64()` as Edm.Int64.
 *
 * @example fields: { name: field.string(), age: field.int32().optional(), hired: field.dateTime() }
 */
export const field = {
  /** Edm.String: a JS string. */
  string: (): Field<string, false> =>
    makeField(
      "String",
      "a string",
      (name, v) => {
        if (typeof v !== "string") throw wrongType(name, "a string", v);
        return v;
      },
      isString,
    ) as Field<string, false>,

  /** Edm.Int32: an integer number from -2^31 to 2^31 - 1. */
  int32: (): Field<number, false> =>
    makeField(
      "Int32",
      "an Int32",
      (name, v) => {
        if (typeof v !== "number" || !Number.isInteger(v)) throw wrongType(name, "an integer number", v);
        if (v < INT32_MIN || v > INT32_MAX) {
          throw new TableKitError("OutOfRangeInput", `Field '${name}': ${v} is outside the Int32 range`, {
            details: { field: name },
          });
        }
        return v === 0 ? 0 : v;
      },
      isNumber,
    ) as Field<number, false>,

  /** Edm.Int64: a bigint from -2^63 to 2^63 - 1. */
  int64: (): Field<bigint, false> =>
    makeField(
      "Int64",
      "an Int64",
      (name, v) => {
        if (typeof v !== "bigint") throw wrongType(name, "a bigint", v);
        if (v < INT64_MIN || v > INT64_MAX) {
          throw new TableKitError("OutOfRangeInput", `Field '${name}': ${v} is outside the Int64 range`, {
            details: { field: name },
          });
        }
        return v;
      },
      (v): v is bigint => typeof v === "bigint",
    ) as Field<bigint, false>,

  /** Edm.Double: any JS number (NaN, ±Infinity and -0 included). */
  double: (): Field<number, false> =>
    makeField(
      "Double",
      "a Double",
      (name, v) => {
        if (typeof v !== "number") throw wrongType(name, "a number", v);
        return v;
      },
      isNumber,
    ) as Field<number, false>,

  /** Edm.Boolean. */
  boolean: (): Field<boolean, false> =>
    makeField(
      "Boolean",
      "a Boolean",
      (name, v) => {
        if (typeof v !== "boolean") throw wrongType(name, "a boolean", v);
        return v;
      },
      (v): v is boolean => typeof v === "boolean",
    ) as Field<boolean, false>,

  /** Edm.DateTime, 100 ns precision: reads return a `DateTime`; writes also take a JS `Date`. */
  dateTime: (): Field<DateTime, false, DateTime | Date> =>
    makeField(
      "DateTime",
      "a DateTime",
      (name, v) => {
        if (v instanceof DateTime) return v;
        if (v instanceof Date && !Number.isNaN(v.getTime())) return v;
        throw wrongType(name, "a DateTime or a valid Date", v);
      },
      (v): v is DateTime => v instanceof DateTime,
    ) as Field<DateTime, false, DateTime | Date>,

  /** Edm.Guid: a GUID string, read back in lowercase. */
  guid: (): Field<string, false> =>
    makeField(
      "Guid",
      "a Guid",
      (name, v) => {
        if (typeof v !== "string" || !GUID.test(v)) throw wrongType(name, "a GUID string", v);
        return v.toLowerCase();
      },
      isString,
    ) as Field<string, false>,

  /** Edm.Binary: bytes. */
  binary: (): Field<Uint8Array, false> =>
    makeField(
      "Binary",
      "a Binary",
      (name, v) => {
        if (!(v instanceof Uint8Array)) throw wrongType(name, "a Uint8Array", v);
        return v;
      },
      (v): v is Uint8Array => v instanceof Uint8Array,
    ) as Field<Uint8Array, false>,
} as const;
