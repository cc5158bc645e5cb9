import { expect } from "vitest";
import {
  type FilterNode,
  type ParsedFilter,
  type ParseFilterOptions,
  parseFilter,
} from "../../src/filter/index.js";
import { TableKitError, type TypedValue } from "../../src/model/index.js";

/** The node without source positions, for toEqual. */
export function strip(node: ParsedFilter): unknown {
  switch (node.kind) {
    case "constant":
      return node;
    case "compare":
      return { kind: "compare", op: node.op, property: node.property, value: node.value };
    case "not":
      return { kind: "not", operand: strip(node.operand) };
    default:
      return { kind: node.kind, left: strip(node.left), right: strip(node.right) };
  }
}

export const parsed = (text: string, options?: ParseFilterOptions) => strip(parseFilter(text, options));

/** A filter that parses to a tree of comparisons (what backends translate), not to a constant. */
export function comparisonTree(text: string): FilterNode {
  const node = parseFilter(text);
  if (node.kind === "constant") throw new Error(`'${text}' folds to the constant ${node.value}`);
  return node;
}

export const cmp = (property: string, op: string, value: TypedValue) => ({
  kind: "compare",
  op,
  property,
  value,
});

/** The value of the single comparison `text` parses to. */
export function literalOf(text: string): TypedValue {
  const node = parseFilter(text);
  if (node.kind !== "compare") throw new Error(`${text} is not a single comparison`);
  return node.value;
}

/** The InvalidFilter error parsing `text` throws (the test fails when it throws none). */
export function filterErrorOf(text: string, options?: ParseFilterOptions): TableKitError {
  try {
    parseFilter(text, options);
  } catch (err) {
    expect(err).toBeInstanceOf(TableKitError);
    expect((err as TableKitError).code).toBe("InvalidFilter");
    return err as TableKitError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}
