import { type CompareOp, type FilterNode, INFIX_OPERATORS, type StringRange } from "../../../filter/ast.js";
import {
  contains,
  covers,
  intersect,
  isEmpty,
  pointOf,
  type StringOrder,
} from "../../../filter/intervals.js";
import { compareUtf16, ownValue, type TypedValue } from "../../../model/index.js";
import { storedPropertyKey } from "./table-entity-codec.js";
import { ordersAgreeAgainst, toStoredKey, utf16Hex } from "./table-key-order.js";

/** The embedded engine orders keys by UTF-16 code units, as the service does (capabilities.keyOrder). */
const KEY_ORDER: StringOrder = compareUtf16;

/** A parameterised SQL expression; it is 0 or 1, never NULL, so NOT and OR stay two-valued. */
export interface SqlFragment {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Where filter properties live in a table's rows. */
export interface SqlLayout {
  /** System properties: name -> column, its EDM type, and whether it holds stored (remapped) keys. */
  readonly columns: Readonly<
    Record<string, { column: string; type: "String" | "DateTime"; storedKey: boolean }>
  >;
  /** The JSON column holding custom properties; absent when rows have none (the table catalogue). */
  readonly propertiesColumn?: string;
}

/** Entity tables: keys in `pk`/`rk`, Timestamp ticks in `ts`, properties as JSON in `p`. */
export const ENTITY_LAYOUT: SqlLayout = {
  columns: {
    PartitionKey: { column: "pk", type: "String", storedKey: true },
    RowKey: { column: "rk", type: "String", storedKey: true },
    Timestamp: { column: "ts", type: "DateTime", storedKey: false },
  },
  propertiesColumn: "p",
};

/**
 * Translates a filter to a WHERE fragment with exactly `evaluateFilter`'s semantics: a missing
 * property or a type mismatch is false for every operator, Doubles follow IEEE 754 (NaN matches
 * only `ne`), strings compare by UTF-16 code units (via `tk_cmp16` when a literal holds units at
 * or above U+D800, where SQLite's code-point order differs), Binary bytewise, DateTime by ticks.
 */
export function filterToSql(node: FilterNode, layout: SqlLayout = ENTITY_LAYOUT): SqlFragment {
  const params: unknown[] = [];
  const sql = build(node, layout, params);
  return { sql, params };
}

function build(node: FilterNode, layout: SqlLayout, params: unknown[]): string {
  switch (node.kind) {
    case "and":
    case "or":
      return `(${build(node.left, layout, params)} ${node.kind === "and" ? "AND" : "OR"} ${build(node.right, layout, params)})`;
    case "not":
      return `(NOT ${build(node.operand, layout, params)})`;
    case "compare": {
      // Own properties only: a property named `constructor` must not find Object.prototype's.
      const system = ownValue(layout.columns, node.property);
      if (system) return systemComparison(system, node.op, node.value, params);
      if (layout.propertiesColumn === undefined) return "0";
      return propertyComparison(layout.propertiesColumn, node.property, node.op, node.value, params);
    }
  }
}

function systemComparison(
  column: SqlLayout["columns"][string],
  op: CompareOp,
  value: TypedValue,
  params: unknown[],
): string {
  if (value.type !== column.type) return "0";
  if (value.type === "DateTime") {
    params.push(value.value.ticks);
    return `(${column.column} ${INFIX_OPERATORS[op]} ?)`;
  }
  const s = value.value as string;
  if (!s.isWellFormed() || (!column.storedKey && !ordersAgreeAgainst(s) && op !== "eq" && op !== "ne")) {
    params.push(utf16Hex(s));
    return `(tk_cmp16(${column.column}, ?, ${column.storedKey ? 1 : 0}) ${INFIX_OPERATORS[op]} 0)`;
  }
  // Stored keys are remapped so that their code-point order is code-unit order: remap the literal too.
  params.push(column.storedKey ? toStoredKey(s) : s);
  return `(${column.column} ${INFIX_OPERATORS[op]} ?)`;
}

function propertyComparison(
  json: string,
  name: string,
  op: CompareOp,
  value: TypedValue,
  params: unknown[],
): string {
  // No stored property name holds a quote or backslash (names are identifiers): such a name is missing.
  if (/["\\]/.test(name)) return "0";
  const path = `$."${storedPropertyKey(value.type, name)}"`;
  const extracted = `json_extract(${json}, ?)`;
  const sqlOp = INFIX_OPERATORS[op];
  switch (value.type) {
    case "String": {
      const s = value.value;
      if (!s.isWellFormed() || (!ordersAgreeAgainst(s) && op !== "eq" && op !== "ne")) {
        params.push(path, utf16Hex(s));
        return `coalesce(tk_cmp16(${extracted}, ?, 0) ${sqlOp} 0, 0)`;
      }
      params.push(path, s);
      return `coalesce(${extracted} ${sqlOp} ?, 0)`;
    }
    case "Int64":
      params.push(path, value.value);
      return `coalesce(CAST(${extracted} AS INTEGER) ${sqlOp} ?, 0)`;
    case "DateTime":
      params.push(path, value.value.ticks);
      return `coalesce(CAST(${extracted} AS INTEGER) ${sqlOp} ?, 0)`;
    case "Double": {
      // NaN is stored as JSON null: json_extract gives NULL for it and for a missing property;
      // json_type tells them apart ('null' vs NULL).
      const x = value.value;
      if (Number.isNaN(x)) {
        if (op !== "ne") return "0";
        params.push(path);
        return `(json_type(${json}, ?) IS NOT NULL)`;
      }
      if (op === "ne") {
        params.push(path, x, path);
        return `coalesce(${extracted} <> ?, json_type(${json}, ?) IS NOT NULL)`;
      }
      params.push(path, x);
      return `coalesce(${extracted} ${sqlOp} ?, 0)`;
    }
    case "Boolean":
      params.push(path, value.value ? 1 : 0);
      return `coalesce(${extracted} ${sqlOp} ?, 0)`;
    case "Binary":
      params.push(
        path,
        Buffer.from(value.value.buffer, value.value.byteOffset, value.value.byteLength).toString("hex"),
      );
      return `coalesce(${extracted} ${sqlOp} ?, 0)`;
    default:
      // Int32 (JSON integer) and Guid (lowercase text, like the literal).
      params.push(path, value.value);
      return `coalesce(${extracted} ${sqlOp} ?, 0)`;
  }
}

/** The PartitionKeys and RowKeys a scan can meet, for `simplifyFilter`. */
export interface KeyContext {
  readonly pk: StringRange;
  readonly rk: StringRange;
}

/**
 * Replaces key comparisons that every key in `keys` satisfies by `true`, and those none
 * satisfies by `false`, then folds the logic. A scan of `PartitionKey eq 'p'` over partition
 * `p` thus needs no filter at all, and becomes a plain index range read.
 */
export function simplifyFilter(node: FilterNode, keys: KeyContext): FilterNode | boolean {
  switch (node.kind) {
    case "and":
    case "or": {
      const isAnd = node.kind === "and";
      const left = simplifyFilter(node.left, keys);
      if (left === !isAnd) return left; // false and …, true or …
      const right = simplifyFilter(node.right, keys);
      if (right === !isAnd) return right;
      if (left === isAnd) return right;
      if (right === isAnd) return left;
      return { kind: node.kind, left: left as FilterNode, right: right as FilterNode };
    }
    case "not": {
      const operand = simplifyFilter(node.operand, keys);
      return typeof operand === "boolean" ? !operand : { kind: "not", operand };
    }
    case "compare": {
      const range =
        node.property === "PartitionKey" ? keys.pk : node.property === "RowKey" ? keys.rk : undefined;
      if (!range) return node;
      if (node.value.type !== "String") return false;
      return decide(range, node.op, node.value.value) ?? node;
    }
  }
}

/** True if every string of `range` satisfies `s op c`, false if none does, undefined otherwise. */
function decide(range: StringRange, op: CompareOp, c: string): boolean | undefined {
  switch (op) {
    case "eq":
      return pointOf(range, KEY_ORDER) === c ? true : contains(range, c, KEY_ORDER) ? undefined : false;
    case "ne": {
      const eq = decide(range, "eq", c);
      return eq === undefined ? undefined : !eq;
    }
    default: {
      const inclusive = op === "ge" || op === "le";
      // The set satisfying the comparison is one ray: [c, ∞), (c, ∞), (-∞, c] or (-∞, c).
      const ray: StringRange =
        op === "gt" || op === "ge" ? { lower: { value: c, inclusive } } : { upper: { value: c, inclusive } };
      if (covers(ray, range, KEY_ORDER)) return true;
      if (isEmpty(intersect(range, ray, KEY_ORDER), KEY_ORDER)) return false;
      return undefined;
    }
  }
}
