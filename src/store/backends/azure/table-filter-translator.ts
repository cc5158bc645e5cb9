import type { FilterNode } from "../../../filter/ast.js";
import { filterToString, formatLiteral } from "../../../filter/index.js";
import { DateTime, MAX_TICKS } from "../../../model/index.js";

/**
 * The `$filter` sent to the service: the caller's filter, or a wider one where the server's
 * answer could otherwise miss entities. Every returned entity is then checked against the exact
 * filter on the client, so a wider server filter costs only transfer, never correctness.
 */
export interface ServerFilterOptions {
  /**
   * Talking to Azurite: also widen what Azurite evaluates wrongly (type-blind comparisons under
   * `not`, Int64 comparisons that fail with 500, Binary ordered as base64 text, Guid ranges, NaN
   * under `ne`).
   */
  readonly emulator: boolean;
  /** Properties that always hold a String (PartitionKey/RowKey, or TableName for tables). */
  readonly stringProperties: ReadonlySet<string>;
}

export const ENTITY_KEYS: ReadonlySet<string> = new Set(["PartitionKey", "RowKey"]);
export const TABLE_NAME: ReadonlySet<string> = new Set(["TableName"]);

type Compare = Extract<FilterNode, { kind: "compare" }>;
/** A filter after widening: still a filter, or a constant. */
type Widened = FilterNode | boolean;

/**
 * The `$filter` text for the server; `undefined` when it must read everything, `false` when
 * nothing can match (no request needed).
 */
export function serverFilter(node: FilterNode, options: ServerFilterOptions): string | undefined | false {
  const widened = widen(node, true, options);
  if (widened === true) return undefined;
  if (widened === false) return false;
  return filterToString(widened);
}

/**
 * `positive` is the polarity of the node (false under an odd number of `not`s). A node in
 * positive polarity may only be replaced by something that matches more; in negative polarity,
 * by something that matches less, so that the whole filter still matches more.
 */
function widen(node: FilterNode, positive: boolean, options: ServerFilterOptions): Widened {
  switch (node.kind) {
    case "and":
    case "or": {
      const left = widen(node.left, positive, options);
      const right = widen(node.right, positive, options);
      // `or` is absorbed by true and ignores false; `and` the other way round.
      const absorbing = node.kind === "or";
      if (left === absorbing || right === absorbing) return absorbing;
      if (typeof left === "boolean") return right;
      if (typeof right === "boolean") return left;
      return { kind: node.kind, left, right };
    }
    case "not": {
      const operand = widen(node.operand, !positive, options);
      if (typeof operand === "boolean") return !operand;
      // Azurite rejects `not not (…)`; two-valued logic lets the pair cancel.
      return operand.kind === "not" ? operand.operand : { kind: "not", operand };
    }
    case "compare":
      return widenComparison(node, positive, options);
  }
}

function widenComparison(node: Compare, positive: boolean, options: ServerFilterOptions): Widened {
  const { value, op } = node;
  // Replacing a comparison by `positive` always widens: true where it must match more, false where less.
  const loosen = positive;
  if (options.stringProperties.has(node.property)) {
    // Always a String: exact on every server, and constantly false against any other type.
    return value.type === "String" ? node : false;
  }
  // Azurite compares values of different types as JS values, so under `not` it drops entities.
  if (options.emulator && !positive) return false;
  // NaN and INF literals: Azurite reads them as property names; the service's support is undocumented.
  if (value.type === "Double" && !Number.isFinite(value.value)) return loosen;
  if (options.emulator) {
    // Azurite's Int64 comparison throws (HTTP 500) on an entity whose property is a number or boolean.
    if (value.type === "Int64") return loosen;
    // Azurite orders Binary by its base64 text, not by bytes.
    if (value.type === "Binary" && op !== "eq" && op !== "ne") return loosen;
    // Azurite's lexer reads a number with an exponent (1e+300) as a property name.
    if (value.type === "Double" && /e/i.test(formatLiteral(value))) return loosen;
    // Azurite orders and compares Guids unreliably except for equality (Azurite #1827).
    if (value.type === "Guid" && op !== "eq") return loosen;
    // Azurite keeps NaN (stored as text) out of `ne`.
    if (value.type === "Double" && op === "ne") return loosen;
  }
  if (value.type === "DateTime" && positive) return widenDateTime(node, options);
  return node;
}

const TICKS_PER_MS = 10_000n;

/**
 * Azurite compares DateTime values as JS Dates, to the millisecond: bounds are widened to whole
 * milliseconds and made inclusive. `eq` stays (both sides are truncated alike: a superset).
 */
function widenDateTime(node: Compare, options: ServerFilterOptions): Widened {
  if (node.value.type !== "DateTime") return node;
  const ticks = node.value.value.ticks;
  switch (node.op) {
    case "eq":
      return node;
    case "ne":
      return options.emulator ? true : node;
    case "gt":
    case "ge":
      return {
        ...node,
        op: "ge",
        value: { type: "DateTime", value: DateTime.fromTicks(ticks - (ticks % TICKS_PER_MS)) },
      };
    case "lt":
    case "le": {
      const ceiling = ticks % TICKS_PER_MS === 0n ? ticks : ticks - (ticks % TICKS_PER_MS) + TICKS_PER_MS;
      if (ceiling > MAX_TICKS) return true;
      return { ...node, op: "le", value: { type: "DateTime", value: DateTime.fromTicks(ceiling) } };
    }
  }
}
