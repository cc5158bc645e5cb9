import type { RequestContext } from "../http/request-context.js";
import { invalidInput } from "../protocol/protocol-error.js";

/** `$top`: the page size (the core checks its range); absent means the service's 1,000. */
export function pageSize(ctx: RequestContext): number | undefined {
  const top = ctx.query.get("$top");
  if (top === null) return undefined;
  if (!/^\d+$/.test(top)) throw invalidInput(`$top must be a positive integer, not '${top}'.`);
  return Number(top);
}

/** `$select=a,b`: the properties to return (the core checks the names), or undefined for all. */
export function selection(ctx: RequestContext): string[] | undefined {
  const select = ctx.query.get("$select");
  if (select === null || select.trim() === "" || select.trim() === "*") return undefined;
  return select.split(",").map((name) => name.trim());
}
