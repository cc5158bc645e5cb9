import { compareUtf16, type DateTime, type TypedValue } from "../model/index.js";
import type { CompareOp, ParsedFilter } from "./ast.js";

/** What a filter is evaluated against: keys, the optional Timestamp, and typed properties. */
export interface FilterableEntity {
  readonly partitionKey: string;
  readonly rowKey: string;
  readonly timestamp?: DateTime;
  readonly properties: ReadonlyMap<string, TypedValue>;
}

/** A compiled filter: true when the entity matches. */
export type FilterPredicate = (entity: FilterableEntity) => boolean;

/**
 * Evaluates a filter against an entity with the Table service's typed semantics:
 * - a comparison is true only when the property exists and has exactly the literal's type; a
 *   missing property or a type mismatch makes it false, for every operator, `ne` included;
 * - `and`, `or` and `not` are plain two-valued logic over those results, so
 *   `not (X eq 1)` is true for an entity without X (while `X ne 1` is false for it);
 * - Strings compare by UTF-16 code units, Binary bytewise, Guid as lowercase text, DateTime by
 *   ticks, Int64 as bigint, Boolean with false < true, Double by IEEE 754 (NaN matches only `ne`).
 */
export function evaluateFilter(node: ParsedFilter, entity: FilterableEntity): boolean {
  switch (node.kind) {
    case "constant":
      return node.value;
    case "and":
      return evaluateFilter(node.left, entity) && evaluateFilter(node.right, entity);
    case "or":
      return evaluateFilter(node.left, entity) || evaluateFilter(node.right, entity);
    case "not":
      return !evaluateFilter(node.operand, entity);
    case "compare": {
      const { property, op, value } = node;
      // Keys are always present Strings: compare them without wrapping them in a TypedValue.
      if (property === "PartitionKey" || property === "RowKey") {
        const key = property === "PartitionKey" ? entity.partitionKey : entity.rowKey;
        return value.type === "String" && TESTS[op](compareUtf16(key, value.value));
      }
      const actual = propertyValue(entity, property);
      return actual !== undefined && compareTyped(actual, op, value);
    }
  }
}

/**
 * Compiles a filter to a predicate with the same semantics as `evaluateFilter`, for scanning many
 * entities: property lookups and literal comparisons are resolved once, not per entity.
 */
export function compileFilter(node: ParsedFilter): FilterPredicate {
  switch (node.kind) {
    case "constant": {
      const value = node.value;
      return () => value;
    }
    case "and": {
      const left = compileFilter(node.left);
      const right = compileFilter(node.right);
      return (e) => left(e) && right(e);
    }
    case "or": {
      const left = compileFilter(node.left);
      const right = compileFilter(node.right);
      return (e) => left(e) || right(e);
    }
    case "not": {
      const operand = compileFilter(node.operand);
      return (e) => !operand(e);
    }
    case "compare":
      return compileComparison(node.property, node.op, node.value);
  }
}

function compileComparison(property: string, op: CompareOp, literal: TypedValue): FilterPredicate {
  if (property === "PartitionKey" || property === "RowKey") {
    if (literal.type !== "String") return () => false;
    const test = stringTest(op, literal.value);
    return property === "PartitionKey" ? (e) => test(e.partitionKey) : (e) => test(e.rowKey);
  }
  if (property === "Timestamp") {
    if (literal.type !== "DateTime") return () => false;
    const test = orderTest(op);
    const ticks = literal.value.ticks;
    return (e) => e.timestamp !== undefined && test(compareBigint(e.timestamp.ticks, ticks));
  }
  const type = literal.type;
  const test = valueTest(op, literal);
  return (e) => {
    const actual = e.properties.get(property);
    return actual !== undefined && actual.type === type && test(actual);
  };
}

/** `s op v` by UTF-16 code units (JavaScript's own string order), without a three-way compare. */
function stringTest(op: CompareOp, v: string): (s: string) => boolean {
  switch (op) {
    case "eq":
      return (s) => s === v;
    case "ne":
      return (s) => s !== v;
    case "gt":
      return (s) => s > v;
    case "ge":
      return (s) => s >= v;
    case "lt":
      return (s) => s < v;
    case "le":
      return (s) => s <= v;
  }
}

/** `actual op literal` for an `actual` already known to have the literal's type. */
function valueTest(op: CompareOp, literal: TypedValue): (actual: TypedValue) => boolean {
  switch (literal.type) {
    case "String":
    case "Guid": {
      const test = stringTest(op, literal.value);
      return (a) => test(a.value as string);
    }
    case "Double": {
      const v = literal.value;
      return (a) => compareDoubles(a.value as number, op, v);
    }
    default: {
      const test = orderTest(op);
      return (a) => test(compareSameType(a, literal));
    }
  }
}

/** The value of a property, system properties included; undefined when the entity lacks it. */
export function propertyValue(entity: FilterableEntity, name: string): TypedValue | undefined {
  switch (name) {
    case "PartitionKey":
      return { type: "String", value: entity.partitionKey };
    case "RowKey":
      return { type: "String", value: entity.rowKey };
    case "Timestamp":
      return entity.timestamp ? { type: "DateTime", value: entity.timestamp } : undefined;
    default:
      return entity.properties.get(name);
  }
}

/** `actual op literal` under the filter's typed semantics (false across types). */
export function compareTyped(actual: TypedValue, op: CompareOp, literal: TypedValue): boolean {
  if (actual.type !== literal.type) return false;
  if (actual.type === "Double") return compareDoubles(actual.value, op, literal.value as number);
  return orderTest(op)(compareSameType(actual, literal));
}

function compareDoubles(a: number, op: CompareOp, b: number): boolean {
  switch (op) {
    case "eq":
      return a === b;
    case "ne":
      return a !== b;
    case "gt":
      return a > b;
    case "ge":
      return a >= b;
    case "lt":
      return a < b;
    case "le":
      return a <= b;
  }
}

const TESTS: Readonly<Record<CompareOp, (c: number) => boolean>> = {
  eq: (c) => c === 0,
  ne: (c) => c !== 0,
  gt: (c) => c > 0,
  ge: (c) => c >= 0,
  lt: (c) => c < 0,
  le: (c) => c <= 0,
};

/** Whether a comparison result (negative, 0, positive) satisfies the operator. */
export function orderTest(op: CompareOp): (c: number) => boolean {
  return TESTS[op];
}

/** Three-way comparison of two values of the same non-Double type. */
function compareSameType(a: TypedValue, b: TypedValue): number {
  switch (a.type) {
    case "String":
    case "Guid":
      return compareUtf16(a.value, b.value as string);
    case "Int32":
      return a.value - (b.value as number);
    case "Int64":
      return compareBigint(a.value, b.value as bigint);
    case "Boolean":
      return Number(a.value) - Number(b.value as boolean);
    case "DateTime":
      return compareBigint(a.value.ticks, (b.value as DateTime).ticks);
    case "Binary":
      return Buffer.compare(a.value, b.value as Uint8Array);
    case "Double":
      // Callers route Doubles to compareDoubles: a three-way result cannot express NaN.
      throw new Error("unreachable: Double goes through compareDoubles");
  }
}

function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
