import {
  AZURE_LIMITS,
  DateTime,
  type EdmAnnotated,
  ownValue,
  type PropertyOutput,
  setOwn,
  TableKitError,
  validatePropertyName,
} from "../../../model/index.js";
import type { Field, FieldInput, Fields, FieldValue } from "./field.js";

/** Flattens an intersection for readable hover types. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredNames<F extends Fields> = {
  [K in keyof F]: F[K] extends Field<unknown, false, unknown> ? K : never;
}[keyof F];
type OptionalNames<F extends Fields> = Exclude<keyof F, RequiredNames<F>>;

/** The object a read returns for fields `F`: required fields present, optional ones possibly absent. */
export type InferRecord<F extends Fields> = Simplify<
  { [K in RequiredNames<F>]: FieldValue<F[K]> } & { [K in OptionalNames<F>]?: FieldValue<F[K]> | undefined }
>;

/** The object a write takes for fields `F` (a `dateTime` field also takes a JS `Date`). */
export type InferInput<F extends Fields> = Simplify<
  { [K in RequiredNames<F>]: FieldInput<F[K]> } & {
    [K in OptionalNames<F>]?: FieldInput<F[K]> | null | undefined;
  }
>;

/** Names of the required fields of `F` (the ones a key may be built from). */
export type RequiredFieldName<F extends Fields> = RequiredNames<F> & string;

/**
 * Names a caller's object may carry besides its fields: what reads add (`etag`, `timestamp`,
 * `entityType`), so a record read can be written back. They are never stored as fields.
 */
export const RECORD_METADATA: ReadonlySet<string> = new Set([
  "etag",
  "timestamp",
  "entityType",
  "partitionKey",
  "rowKey",
]);

/** Checks a model's fields when it is defined: valid property names, none reserved, each a Field. */
export function checkFields(fields: unknown, reserved: readonly string[] = []): void {
  if (typeof fields !== "object" || fields === null || Object.keys(fields).length === 0) {
    throw new TableKitError("InvalidInput", "A model needs at least one field");
  }
  for (const [name, f] of Object.entries(fields)) {
    if (RECORD_METADATA.has(name) || reserved.includes(name)) {
      throw new TableKitError("PropertyNameInvalid", `'${name}' is reserved and cannot be a field name`, {
        details: { field: name },
      });
    }
    validatePropertyName(name, AZURE_LIMITS);
    const candidate = f as Partial<Field>;
    if (typeof candidate?.write !== "function" || typeof candidate.read !== "function") {
      throw new TableKitError(
        "InvalidInput",
        `Field '${name}' is not a field (use field.string(), field.int32(), …)`,
        {
          details: { field: name },
        },
      );
    }
  }
}

/**
 * The properties to store for `input`: every field checked for presence and type before anything
 * is sent. Unknown names are refused (InvalidInput) unless they are read metadata. `only` limits
 * the output to some fields (index copies); the check still covers every field.
 */
export function toProperties(
  fields: Fields,
  input: unknown,
  only?: ReadonlySet<string>,
): Record<string, EdmAnnotated> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new TableKitError("InvalidInput", "An entity must be an object of its fields");
  }
  const record = input as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (!Object.hasOwn(fields, name) && !RECORD_METADATA.has(name)) {
      throw new TableKitError("InvalidInput", `'${name}' is not a field of this model`, {
        details: { field: name },
      });
    }
  }
  const out: Record<string, EdmAnnotated> = {};
  for (const [name, f] of Object.entries(fields)) {
    const value = ownValue(record, name);
    if (value === undefined || value === null) {
      if (!f.isOptional) {
        throw new TableKitError("InvalidInput", `Field '${name}' is required`, { details: { field: name } });
      }
      continue;
    }
    const annotated = f.write(name, value);
    if (!only || only.has(name)) setOwn(out, name, annotated);
  }
  return out;
}

/** Checks only the fields present in `changes` (a partial update); absent ones stay as they are. */
export function checkPartial(fields: Fields, changes: unknown): Record<string, unknown> {
  if (typeof changes !== "object" || changes === null || Array.isArray(changes)) {
    throw new TableKitError("InvalidInput", "Changes must be an object of fields");
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(changes)) {
    if (RECORD_METADATA.has(name)) continue;
    const f = ownValue(fields, name);
    if (!f)
      throw new TableKitError("InvalidInput", `'${name}' is not a field of this model`, {
        details: { field: name },
      });
    if ((value === undefined || value === null) && !f.isOptional) {
      throw new TableKitError("InvalidInput", `Field '${name}' is required`, { details: { field: name } });
    }
    if (value !== undefined && value !== null) f.write(name, value);
    setOwn(out, name, value);
  }
  return out;
}

/**
 * The typed record of a stored entity. `names` limits decoding to the fields a copy holds (an
 * index copy with a subset of the fields). A stored property of the wrong type, or a missing
 * required field, is InvalidValueType: the entity was not written by this model.
 */
export function fromEntity(
  fields: Fields,
  entity: Record<string, unknown>,
  names: Iterable<string> = Object.keys(fields),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const f = ownValue(fields, name)!;
    const stored = ownValue(entity, name) as PropertyOutput | undefined;
    if (stored === undefined || stored === null) {
      if (!f.isOptional) {
        throw new TableKitError("InvalidValueType", `The stored entity lacks the required field '${name}'`, {
          details: { field: name, partitionKey: entity.partitionKey, rowKey: entity.rowKey },
        });
      }
      continue;
    }
    setOwn(out, name, f.read(name, stored));
  }
  return out;
}

/** The field values a write stored, as a read would return them (a `Date` becomes a `DateTime`). */
export function valuesOfProperties(
  properties: Readonly<Record<string, EdmAnnotated>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, annotated] of Object.entries(properties)) {
    const v = annotated.value;
    setOwn(
      out,
      name,
      v instanceof Date ? DateTime.fromDate(v) : v instanceof Uint8Array ? new Uint8Array(v) : v,
    );
  }
  return out;
}
