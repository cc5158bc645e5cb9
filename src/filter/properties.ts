import type { ParsedFilter } from "./ast.js";

/**
 * The property names a filter reads, each once, in the order they first appear.
 *
 * @example filterProperties(parseFilter("a eq 1 or (b gt 2 and a lt 0)")) // ["a", "b"]
 */
export function filterProperties(node: ParsedFilter): string[] {
  const names = new Set<string>();
  const visit = (n: ParsedFilter): void => {
    if (n.kind === "constant") return;
    if (n.kind === "compare") names.add(n.property);
    else if (n.kind === "not") visit(n.operand);
    else {
      visit(n.left);
      visit(n.right);
    }
  };
  visit(node);
  return [...names];
}
