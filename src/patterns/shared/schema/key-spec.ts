import { compoundKey, type KeyCodec, prefixRange, prefixSuccessor } from "../../../keys/index.js";
import { DateTime, ownValue, TableKitError } from "../../../model/index.js";
import type { FieldInput, Fields, FieldValue } from "./field.js";
import { defaultKeyCodec } from "./key-codecs.js";
import type { RequiredFieldName, Simplify } from "./schema.js";

/** One field of a key, with the codec that turns its value into key text. */
export interface KeyPart {
  readonly name: string;
  readonly codec: KeyCodec<never, unknown>;
  /** The field's text goes in as is (String or Guid, no codec given): starts-with queries work on it. */
  readonly textual: boolean;
}

/**
 * A set of keys as a query sees it: `eq` one key, or the half-open `lower <= key < upper`
 * (`upper` absent: to the end; `upperInclusive`: `key <= upper`).
 */
export type KeyMatch =
  | { readonly eq: string }
  | { readonly lower: string; readonly upper?: string; readonly upperInclusive?: boolean };

/** Options of a prefix query: the next key field only starts with `startsWith` (text fields). */
export interface PrefixOptions {
  readonly startsWith?: string;
}

type NoneOf<N extends readonly string[]> = { [K in N[number]]?: never };

/**
 * The values a prefix query names: the first fields of a key, in order, without gaps — `{}`,
 * `{ country }`, `{ country, region }`, … — and none of the later ones.
 */
export type LeadingValues<F extends Fields, N extends readonly string[], Acc = unknown> = N extends readonly [
  infer H extends string,
  ...infer R extends readonly string[],
]
  ? Simplify<Acc & NoneOf<N>> | LeadingValues<F, R, Acc & { [K in H]: FieldInput<F[K]> }>
  : Simplify<Acc & {}>;

/** The values that make a whole key: every field of `N`. */
export type KeyValues<F extends Fields, N extends readonly string[]> = Simplify<{
  [K in N[number]]: FieldInput<F[K]>;
}>;

const COMPOUND = compoundKey();

function invalid(message: string, details?: Record<string, unknown>): TableKitError {
  return new TableKitError("InvalidInput", message, details ? { details } : {});
}

/**
 * How one key (a PartitionKey or a RowKey) is built from an entity's fields:
 * an optional literal prefix (`"empid_"`), then the fields in order, each through its codec.
 * One field is written as its codec's text (`empid_000223`); two or more as a compound key whose
 * components end with `!` (`us!wa!seattle!`), so a query can stop at any level.
 */
export class KeySpec<F extends Fields, N extends readonly string[] = []> {
  /** Phantom: the field names, in order, for inference only. */
  declare readonly __names?: N;

  constructor(
    readonly fieldMap: F,
    /** Constant text every key starts with (seed 001's `empid_`, `email_`). */
    readonly prefix: string,
    readonly parts: readonly KeyPart[],
  ) {}

  /** Appends a field to the key, through `codec` (default: see `defaultKeyCodec`). */
  field<K extends RequiredFieldName<F>>(
    name: K,
    codec?: KeyCodec<FieldValue<F[K]>, unknown>,
  ): KeySpec<F, [...N, K]> {
    const f = ownValue(this.fieldMap as Fields, name);
    if (!f) throw invalid(`A key names '${name}', which is not a field`, { field: name });
    if (f.isOptional)
      throw invalid(`A key cannot be built from the optional field '${name}'`, { field: name });
    if (this.parts.some((p) => p.name === name))
      throw invalid(`A key names '${name}' twice`, { field: name });
    const part: KeyPart = {
      name,
      codec: (codec as KeyCodec<never, unknown> | undefined) ?? defaultKeyCodec(f.edm),
      textual: codec === undefined && (f.edm === "String" || f.edm === "Guid"),
    };
    return new KeySpec(this.fieldMap, this.prefix, [...this.parts, part]);
  }

  /** Appends several fields, each with its default codec. */
  fields<K extends readonly RequiredFieldName<F>[]>(...names: K): KeySpec<F, [...N, ...K]> {
    let spec: KeySpec<F, readonly string[]> = this;
    for (const name of names) spec = spec.field(name);
    return spec as unknown as KeySpec<F, [...N, ...K]>;
  }

  /** The names of the key's fields, in order. */
  get names(): string[] {
    return this.parts.map((p) => p.name);
  }

  /** The key of an entity (or of key values): every field of the key must be present. */
  encode(values: Readonly<Record<string, unknown>>): string {
    const components = this.parts.map((p) => this.component(p, ownValue(values, p.name)));
    if (components.length === 0) return this.prefix;
    if (components.length === 1) return this.prefix + components[0]!;
    return this.prefix + COMPOUND.encode(components);
  }

  /**
   * The keys whose first fields equal the leading fields given in `values` (any number of them,
   * in order, without gaps); every field given is an exact key. `startsWith` narrows the next
   * field to text starting with it.
   */
  match(values: Readonly<Record<string, unknown>>, options: PrefixOptions = {}): KeyMatch {
    const leading = this.leading(values);
    const { startsWith } = options;
    if (startsWith === undefined && leading.length === this.parts.length) return { eq: this.encode(values) };
    if (startsWith !== undefined) {
      const next = this.parts[leading.length];
      if (typeof startsWith !== "string") throw invalid("startsWith must be a string");
      if (!next?.textual) {
        throw invalid("startsWith applies only to a following text field written as is (no codec)", {
          field: next?.name,
        });
      }
    }
    if (this.parts.length <= 1) return prefixRange(this.prefix + (startsWith ?? ""));
    const components = leading.map((p) => this.component(p, ownValue(values, p.name)));
    const range =
      startsWith === undefined
        ? COMPOUND.prefixRange(components)
        : COMPOUND.prefixRange([...components, startsWith], { partialLast: true });
    const upper = range.upper === undefined ? prefixSuccessor(this.prefix) : this.prefix + range.upper;
    return upper === undefined
      ? { lower: this.prefix + range.lower }
      : { lower: this.prefix + range.lower, upper };
  }

  /** From the keys of `from` through those of `to` (each a leading prefix, as for `match`), inclusive. */
  between(from: Readonly<Record<string, unknown>>, to: Readonly<Record<string, unknown>>): KeyMatch {
    const a = this.match(from);
    const b = this.match(to);
    const lower = "eq" in a ? a.eq : a.lower;
    if ("eq" in b) return { lower, upper: b.eq, upperInclusive: true };
    return b.upper === undefined ? { lower } : { lower, upper: b.upper };
  }

  /** The key text of one field value, checked against the field's type first. */
  private component(part: KeyPart, value: unknown): string {
    if (value === undefined || value === null) {
      throw invalid(`The key field '${part.name}' is required`, { field: part.name });
    }
    let checked = ownValue(this.fieldMap as Fields, part.name)!.write(part.name, value).value;
    if (checked instanceof Date) checked = DateTime.fromDate(checked);
    return (part.codec as KeyCodec<unknown, unknown>).encode(checked);
  }

  /** The parts named in `values`, checked to be the first ones without gaps. */
  private leading(values: Readonly<Record<string, unknown>>): KeyPart[] {
    const given = (p: KeyPart) => {
      const v = ownValue(values, p.name);
      return v !== undefined && v !== null;
    };
    let count = 0;
    while (count < this.parts.length && given(this.parts[count]!)) count++;
    const later = this.parts.slice(count).find(given);
    if (later) {
      throw invalid(
        `A key prefix gives the first fields of [${this.names.join(", ")}] in order; '${later.name}' comes after a missing one`,
        { field: later.name },
      );
    }
    return this.parts.slice(0, count);
  }
}

/** What a model's key callbacks receive: start a key with a literal or a field. */
export class KeyBuilder<F extends Fields> extends KeySpec<F, []> {
  constructor(fields: F) {
    super(fields, "", []);
  }

  /** A constant start for every key (`"empid_"`); key-safe text only. */
  literal(prefix: string): KeySpec<F, []> {
    if (typeof prefix !== "string" || /[/\\#?\u0000-\u001f\u007f-\u009f]/.test(prefix)) {
      throw invalid(`A key literal must be text without / \\ # ? or control characters`, { literal: prefix });
    }
    return new KeySpec(this.fieldMap, prefix, []);
  }
}
