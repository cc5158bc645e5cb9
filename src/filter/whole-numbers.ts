import type { FilterNode, ParsedFilter } from "./ast.js";

/** A comparison of a property with a whole-number (Int32) literal, as the filter wrote it. */
export interface WholeNumberComparison {
  readonly property: string;
  readonly value: number;
}

/**
 * The comparisons of `filter` with an Int32 literal, and the same filter with each of those
 * literals written as a Double (`Score gt 9990` → `Score gt 9990.0`): what a caller can try, to say
 * why a filter over Double properties matched nothing; `only`: rewrite the comparisons of these
 * properties alone. Undefined when there is no such comparison.
 */
export function wholeNumbersAsDoubles(
  filter: ParsedFilter,
  only?: ReadonlySet<string>,
): { comparisons: WholeNumberComparison[]; asDoubles: FilterNode } | undefined {
  if (filter.kind === "constant") return undefined;
  const comparisons: WholeNumberComparison[] = [];
  const rewrite = (node: FilterNode): FilterNode => {
    switch (node.kind) {
      case "and":
      case "or":
        return { kind: node.kind, left: rewrite(node.left), right: rewrite(node.right) };
      case "not":
        return { kind: "not", operand: rewrite(node.operand) };
      case "compare":
        if (node.value.type !== "Int32" || (only && !only.has(node.property))) return node;
        comparisons.push({ property: node.property, value: node.value.value });
        return { ...node, value: { type: "Double", value: node.value.value } };
    }
  };
  const asDoubles = rewrite(filter);
  return comparisons.length > 0 ? { comparisons, asDoubles } : undefined;
}
