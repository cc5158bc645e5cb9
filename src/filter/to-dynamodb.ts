import { compareUtf16, DateTime, type EdmType, TableKitError, type TypedValue } from "../model/index.js";
import type { CompareOp, FilterNode } from "./ast.js";

/**
 * How tablekit stores entities in DynamoDB, and `$filter` translated to a DynamoDB
 * FilterExpression over that layout (docs/dynamodb.md). Building the expression is separate from
 * sending it, so the translation is testable without a server.
 *
 * Layout: keys are the string attributes `PartitionKey` and `RowKey` (see `encodeKey`); the
 * Timestamp is `Timestamp: { M: { DateTime: { S: iso } } }`; a property is a plain `S`, `BOOL` or `B`
 * for String, Boolean and Binary, and a one-field map named after its type otherwise:
 * `{ M: { Int32: { N } } }`, `Int64: { N }`, `Double: { S: 16 hex digits } }`, `DateTime: { S: iso }`,
 * `Guid: { S }`. A comparison reads the path for the literal's type, so a property of another type
 * is simply absent there: typed semantics come from the layout.
 */

/** A DynamoDB attribute value, in the AWS SDK v3 low-level shape (the kinds tablekit writes). */
export type DynamoAttributeValue =
  | { readonly S: string }
  | { readonly N: string }
  | { readonly B: Uint8Array }
  | { readonly BOOL: boolean }
  | { readonly M: Readonly<Record<string, DynamoAttributeValue>> };

export const PARTITION_KEY_ATTRIBUTE = "PartitionKey";
export const ROW_KEY_ATTRIBUTE = "RowKey";
export const TIMESTAMP_ATTRIBUTE = "Timestamp";

/** The types stored as a one-field map, by the field's name. */
const WRAPPED: ReadonlySet<EdmType> = new Set(["Int32", "Int64", "Double", "DateTime", "Guid"]);

/**
 * DynamoDB rejects empty key strings, so a key that is empty or starts with U+0000/U+0001 gets a
 * U+0001 in front. Keys cannot hold control characters anyway; the escape keeps every key at its
 * own size otherwise, and keeps key order (U+0001 sorts below any other key's first character).
 */
export function encodeKey(key: string): string {
  return key === "" || key.charCodeAt(0) <= 1 ? `\u0001${key}` : key;
}

export function decodeKey(stored: string): string {
  return stored.charCodeAt(0) === 1 ? stored.slice(1) : stored;
}

const scratch = new DataView(new ArrayBuffer(8));

/**
 * A Double as 16 hex digits whose string order is numeric order: IEEE 754 bits with the sign bit
 * flipped for positives and every bit flipped for negatives (-0 sorts just below +0; the one NaN
 * sorts above +Infinity). DynamoDB numbers cannot hold NaN, ±Infinity, -0 or 1e308.
 */
export function encodeDouble(value: number): string {
  if (Number.isNaN(value)) return "fff8000000000000";
  scratch.setFloat64(0, value);
  let hi = scratch.getUint32(0);
  let lo = scratch.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}

export function decodeDouble(text: string): number {
  if (!/^[0-9a-f]{16}$/.test(text)) throw corrupt(`Double ${JSON.stringify(text)}`);
  let hi = Number.parseInt(text.slice(0, 8), 16);
  let lo = Number.parseInt(text.slice(8), 16);
  if (hi & 0x80000000) {
    hi = (hi & 0x7fffffff) >>> 0;
  } else {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  }
  scratch.setUint32(0, hi);
  scratch.setUint32(4, lo);
  return scratch.getFloat64(0);
}

/** The attribute value a typed value is stored as (also the literal a filter compares with). */
export function encodeTypedValue(tv: TypedValue): DynamoAttributeValue {
  switch (tv.type) {
    case "String":
      return { S: tv.value };
    case "Boolean":
      return { BOOL: tv.value };
    case "Binary":
      return { B: tv.value };
    default:
      return { M: { [tv.type]: innerValue(tv) } };
  }
}

/** The comparable inner value of a wrapped type (what sits under its type's name). */
function innerValue(tv: TypedValue): DynamoAttributeValue {
  switch (tv.type) {
    case "Int32":
    case "Int64":
      return { N: tv.value.toString() };
    case "Double":
      return { S: encodeDouble(tv.value) };
    case "DateTime":
      return { S: tv.value.toISOString() };
    case "Guid":
      return { S: tv.value };
    default:
      return encodeTypedValue(tv);
  }
}

/** Reads back what `encodeTypedValue` wrote; anything else is a BackendError (not tablekit's data). */
export function decodeTypedValue(name: string, av: unknown): TypedValue {
  const v = av as Record<string, unknown>;
  if (typeof v?.S === "string") return { type: "String", value: v.S };
  if (typeof v?.BOOL === "boolean") return { type: "Boolean", value: v.BOOL };
  if (v?.B instanceof Uint8Array) return { type: "Binary", value: v.B };
  const m = v?.M as Record<string, Record<string, unknown>> | undefined;
  const [type, inner] = m && typeof m === "object" ? (Object.entries(m)[0] ?? []) : [];
  if (type && inner && WRAPPED.has(type as EdmType) && Object.keys(m!).length === 1) {
    const { S, N } = inner;
    if (type === "Int32" && typeof N === "string") return { type, value: Number(N) };
    if (type === "Int64" && typeof N === "string") return { type, value: BigInt(N) };
    if (type === "Double" && typeof S === "string") return { type, value: decodeDouble(S) };
    if (type === "DateTime" && typeof S === "string") return { type, value: DateTime.parse(S) };
    if (type === "Guid" && typeof S === "string") return { type, value: S };
  }
  throw corrupt(`property '${name}'`);
}

function corrupt(what: string): TableKitError {
  return new TableKitError(
    "BackendError",
    `The DynamoDB item holds an unreadable ${what}: not written by tablekit`,
  );
}

/** A condition: an expression string, or a constant where the translation decided it. */
export type Condition = string | boolean;

export function allOf(...conditions: Condition[]): Condition {
  if (conditions.includes(false)) return false;
  const parts = conditions.filter((c): c is string => c !== true);
  return parts.length === 0
    ? true
    : parts.length === 1
      ? parts[0]!
      : parts.map((p) => `(${p})`).join(" AND ");
}

export function anyOf(...conditions: Condition[]): Condition {
  if (conditions.includes(true)) return true;
  const parts = conditions.filter((c): c is string => c !== false);
  return parts.length === 0
    ? false
    : parts.length === 1
      ? parts[0]!
      : parts.map((p) => `(${p})`).join(" OR ");
}

export function negate(condition: Condition): Condition {
  return typeof condition === "boolean" ? !condition : `NOT (${condition})`;
}

/** Allocates `#n` name and `:v` value placeholders for one request's expressions. */
export class DynamoExpressionBuilder {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, DynamoAttributeValue> = {};
  private valueCount = 0;

  /** The placeholder of an attribute name (one per distinct name). */
  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (!placeholder) {
      placeholder = `#n${this.names.size.toString(36)}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  /** A document path: `#n0.#n1`. */
  path(...attributes: string[]): string {
    return attributes.map((a) => this.name(a)).join(".");
  }

  value(value: DynamoAttributeValue): string {
    const placeholder = `:v${(this.valueCount++).toString(36)}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The placeholders the given expressions use: DynamoDB rejects unused ones. */
  used(...expressions: (string | undefined)[]): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, DynamoAttributeValue>;
  } {
    const text = expressions.join(" ");
    const names: Record<string, string> = {};
    for (const [attribute, placeholder] of this.names) {
      if (new RegExp(`${placeholder}(?![0-9a-z])`).test(text)) names[placeholder] = attribute;
    }
    const values: Record<string, DynamoAttributeValue> = {};
    for (const placeholder of text.match(/:v[0-9a-z]+/g) ?? [])
      values[placeholder] = this.values[placeholder]!;
    return {
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    };
  }
}

export interface DynamoFilterContext {
  /**
   * Set when the filter runs inside a Query of this one partition. A Query's FilterExpression may
   * not name key attributes, so PartitionKey comparisons are decided here and RowKey comparisons
   * are left to the client.
   */
  readonly partitionKey?: string;
}

export interface DynamoFilter {
  /** What to send as (part of) the FilterExpression: `true` lets every item through. */
  readonly condition: Condition;
  /** False when `condition` only over-approximates: apply `evaluateFilter` to what comes back. */
  readonly exact: boolean;
}

/** Bounds on a filter: `sub` implies it, it implies `sup`; exact when they coincide. */
interface Bounds {
  readonly sub: Condition;
  readonly sup: Condition;
  readonly exact: boolean;
}

const exactly = (c: Condition): Bounds => ({ sub: c, sup: c, exact: true });
/** Left to the client: nothing is certain, `possible` over-approximates. */
const onClient = (possible: Condition): Bounds => ({ sub: false, sup: possible, exact: false });

/**
 * Translates a filter with the typed semantics of `evaluateFilter` (a missing property or another
 * type never matches, strings by UTF-16 code units, Doubles by IEEE 754). Where DynamoDB cannot
 * say it exactly (string order past U+D7FF, RowKey inside a Query) the condition over-approximates
 * and `exact` is false. Placeholders are allocated on `builder`.
 */
export function toDynamoFilter(
  node: FilterNode,
  builder: DynamoExpressionBuilder,
  context: DynamoFilterContext = {},
): DynamoFilter {
  const { sup, exact } = new Translator(builder, context).bounds(node);
  return { condition: sup, exact };
}

class Translator {
  constructor(
    private readonly b: DynamoExpressionBuilder,
    private readonly context: DynamoFilterContext,
  ) {}

  bounds(node: FilterNode): Bounds {
    switch (node.kind) {
      case "and":
      case "or": {
        const l = this.bounds(node.left);
        const r = this.bounds(node.right);
        const join = node.kind === "and" ? allOf : anyOf;
        return { sub: join(l.sub, r.sub), sup: join(l.sup, r.sup), exact: l.exact && r.exact };
      }
      case "not": {
        const o = this.bounds(node.operand);
        return { sub: negate(o.sup), sup: negate(o.sub), exact: o.exact };
      }
      case "compare":
        return this.comparison(node.property, node.op, node.value);
    }
  }

  private comparison(property: string, op: CompareOp, literal: TypedValue): Bounds {
    if (property === "PartitionKey" || property === "RowKey") {
      if (literal.type !== "String") return exactly(false);
      const known = property === "PartitionKey" ? this.context.partitionKey : undefined;
      if (known !== undefined) return exactly(ORDER_TESTS[op](compareUtf16(known, literal.value)));
      if (this.context.partitionKey !== undefined) return onClient(true);
      const attribute = property === "PartitionKey" ? PARTITION_KEY_ATTRIBUTE : ROW_KEY_ATTRIBUTE;
      return this.ordered(this.b.path(attribute), op, { S: encodeKey(literal.value) }, literal.value);
    }
    if (property === "Timestamp") {
      if (literal.type !== "DateTime") return exactly(false);
      return this.ordered(this.b.path(TIMESTAMP_ATTRIBUTE, "DateTime"), op, innerValue(literal));
    }
    switch (literal.type) {
      case "String":
        return this.ordered(this.b.path(property), op, { S: literal.value }, literal.value);
      case "Binary":
        return this.ordered(this.b.path(property), op, { B: literal.value });
      case "Boolean":
        return this.boolean(this.b.path(property), op, literal.value);
      case "Double":
        return this.double(this.b.path(property, "Double"), op, literal.value);
      default:
        return this.ordered(this.b.path(property, literal.type), op, innerValue(literal));
    }
  }

  /**
   * `path op value` for a value DynamoDB orders as tablekit does: numbers, byte strings, ASCII
   * text. A string literal with code units from U+D800 up orders differently by UTF-8 (DynamoDB)
   * and UTF-16 (the filter's rule), so only its equality is exact.
   */
  private ordered(path: string, op: CompareOp, value: DynamoAttributeValue, text?: string): Bounds {
    const v = this.b.value(value);
    const condition = op === "ne" ? `${path} < ${v} OR ${path} > ${v}` : `${path} ${OPERATORS[op]} ${v}`;
    if (op !== "eq" && op !== "ne" && text !== undefined && /[\ud800-\uffff]/.test(text)) {
      return onClient(`attribute_type(${path}, ${this.b.value({ S: "S" })})`);
    }
    return exactly(condition);
  }

  /** Booleans order false < true, but DynamoDB only tests their equality. */
  private boolean(path: string, op: CompareOp, literal: boolean): Bounds {
    const is = (value: boolean) => `${path} = ${this.b.value({ BOOL: value })}`;
    const any = () => `attribute_type(${path}, ${this.b.value({ S: "BOOL" })})`;
    const x = Number(literal);
    const matches = [false, true].filter((candidate) => ORDER_TESTS[op](Number(candidate) - x));
    if (matches.length === 0) return exactly(false);
    return exactly(matches.length === 2 ? any() : is(matches[0]!));
  }

  /** IEEE 754 over the ordered encoding: NaN matches only `ne`, and -0 equals 0. */
  private double(path: string, op: CompareOp, literal: number): Bounds {
    if (Number.isNaN(literal)) return exactly(op === "ne" ? `attribute_exists(${path})` : false);
    const lo = this.b.value({ S: encodeDouble(literal === 0 ? -0 : literal) });
    const hi = literal === 0 ? this.b.value({ S: encodeDouble(0) }) : lo;
    const nan = () => this.b.value({ S: encodeDouble(Number.NaN) });
    switch (op) {
      case "eq":
        return exactly(lo === hi ? `${path} = ${lo}` : `${path} BETWEEN ${lo} AND ${hi}`);
      case "ne":
        return exactly(`${path} < ${lo} OR ${path} > ${hi}`);
      case "gt":
        return exactly(`${path} > ${hi} AND ${path} < ${nan()}`);
      case "ge":
        return exactly(`${path} >= ${lo} AND ${path} < ${nan()}`);
      case "lt":
        return exactly(`${path} < ${lo}`);
      case "le":
        return exactly(`${path} <= ${hi}`);
    }
  }
}

const OPERATORS: Readonly<Record<CompareOp, string>> = {
  eq: "=",
  ne: "<>",
  gt: ">",
  ge: ">=",
  lt: "<",
  le: "<=",
};

const ORDER_TESTS: Readonly<Record<CompareOp, (c: number) => boolean>> = {
  eq: (c) => c === 0,
  ne: (c) => c !== 0,
  gt: (c) => c > 0,
  ge: (c) => c >= 0,
  lt: (c) => c < 0,
  le: (c) => c <= 0,
};
