import { type PropertyInput, TableKitError, toTypedValue } from "../model/index.js";
import type { CompareOp, FilterNode } from "./ast.js";
import { isFilterPropertyName } from "./print.js";

/**
 * Builds filter nodes in code, for filters whose shape varies (a list of partitions, optional
 * bounds). Values are typed as entity properties are (`30` → Int32, `30n` → Int64, a Date →
 * DateTime, `{ value, type }` explicitly). Nodes built here carry `position: -1` (no source text).
 *
 * @example filterToString(where.and(where.eq("PartitionKey", "p"), where.ge("RowKey", "2024")))
 * // "PartitionKey eq 'p' and RowKey ge '2024'"
 */
export const where = {
  eq: (property: string, value: PropertyInput) => comparison(property, "eq", value),
  ne: (property: string, value: PropertyInput) => comparison(property, "ne", value),
  gt: (property: string, value: PropertyInput) => comparison(property, "gt", value),
  ge: (property: string, value: PropertyInput) => comparison(property, "ge", value),
  lt: (property: string, value: PropertyInput) => comparison(property, "lt", value),
  le: (property: string, value: PropertyInput) => comparison(property, "le", value),
  /** All of the filters (at least one), joined left to right. */
  and: (...nodes: readonly FilterNode[]): FilterNode => join("and", nodes),
  /** Any of the filters (at least one), joined left to right. */
  or: (...nodes: readonly FilterNode[]): FilterNode => join("or", nodes),
  not: (operand: FilterNode): FilterNode => ({ kind: "not", operand }),
} as const;

/** One comparison `property op value`; throws PropertyNameInvalid or InvalidValueType. */
export function comparison(property: string, op: CompareOp, value: PropertyInput): FilterNode {
  if (!isFilterPropertyName(property)) {
    throw new TableKitError("PropertyNameInvalid", `'${property}' is not a property name a filter can use`, {
      details: { property },
    });
  }
  const typed = toTypedValue(property, value);
  if (!typed) {
    throw new TableKitError(
      "InvalidValueType",
      `Property '${property}': a filter cannot compare with ${value}`,
      {
        details: { property },
      },
    );
  }
  return { kind: "compare", op, property, value: typed, position: -1 };
}

function join(kind: "and" | "or", nodes: readonly FilterNode[]): FilterNode {
  const [first, ...rest] = nodes;
  if (!first) throw new TableKitError("InvalidFilter", `where.${kind}() needs at least one filter`);
  return rest.reduce<FilterNode>((left, right) => ({ kind, left, right }), first);
}
