import { TableKitError, typedValuesEqual } from "../model/index.js";
import type { ParsedFilter } from "./ast.js";
import { formatLiteral } from "./literals.js";

/** What `parseFilter` reads as a property name (and not as a keyword). */
const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*$/u;
const RESERVED: ReadonlySet<string> = new Set([
  "and",
  "or",
  "not",
  "eq",
  "ne",
  "gt",
  "ge",
  "lt",
  "le",
  "true",
  "false",
  "null",
  "NaN",
  "INF",
]);

/** True when `name` can stand as a property in filter text. */
export function isFilterPropertyName(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/**
 * Prints a filter as canonical `$filter` text that `parseFilter` reads back to an equal node
 * (positions aside): lowercase operators, canonical literals (`30L`, `5.0`, `datetime'…'` with 7
 * fractional digits, `X'…'`), and only the parentheses the tree's shape needs.
 *
 * @example filterToString(parseFilter("(30 lt Age)")) // "Age gt 30"
 */
export function filterToString(node: ParsedFilter): string {
  switch (node.kind) {
    case "constant":
      return String(node.value);
    case "compare":
      if (!isFilterPropertyName(node.property)) {
        throw new TableKitError(
          "InvalidFilter",
          `'${node.property}' cannot be written as a filter property name`,
          {
            details: { property: node.property },
          },
        );
      }
      return `${node.property} ${node.op} ${formatLiteral(node.value)}`;
    case "not":
      return node.operand.kind === "not"
        ? `not ${filterToString(node.operand)}`
        : `not (${filterToString(node.operand)})`;
    case "and":
    case "or": {
      // Both connectives associate to the left, and `and` binds tighter than `or`.
      const left = filterToString(node.left);
      const right = filterToString(node.right);
      const wrapLeft = node.kind === "and" && node.left.kind === "or";
      const wrapRight = node.right.kind === "or" || node.right.kind === node.kind;
      return `${wrapLeft ? `(${left})` : left} ${node.kind} ${wrapRight ? `(${right})` : right}`;
    }
  }
}

/** Structural equality of two filters, ignoring source positions (NaN equals NaN; -0 differs from 0). */
export function filtersEqual(a: ParsedFilter, b: ParsedFilter): boolean {
  switch (a.kind) {
    case "constant":
      return b.kind === "constant" && a.value === b.value;
    case "compare":
      return (
        b.kind === "compare" &&
        a.op === b.op &&
        a.property === b.property &&
        typedValuesEqual(a.value, b.value)
      );
    case "not":
      return b.kind === "not" && filtersEqual(a.operand, b.operand);
    case "and":
    case "or":
      return b.kind === a.kind && filtersEqual(a.left, b.left) && filtersEqual(a.right, b.right);
  }
}

/** How many comparisons a filter holds (the service allows 15). */
export function countComparisons(node: ParsedFilter): number {
  switch (node.kind) {
    case "constant":
      return 0;
    case "compare":
      return 1;
    case "not":
      return countComparisons(node.operand);
    default:
      return countComparisons(node.left) + countComparisons(node.right);
  }
}
