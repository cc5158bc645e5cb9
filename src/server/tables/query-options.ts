import type { RequestContext } from "../http/request-context.js";
import { invalidInput } from "../protocol/protocol-error.js";

/**
 * `$top`: how many entities (or tables) a page holds, 0 to `limit` (the service's 1,000); absent,
 * the service's default. `$top=0` (Storage Explorer sends it) asks for none: the query is still
 * checked, and answered with no entity and no continuation.
 */
export function pageSize(ctx: RequestContext, limit: number): { maxPageSize?: number; none: boolean } {
  const top = ctx.query.get("$top");
  if (top === null) return { none: false };
  if (!/^\d+$/.test(top) || Number(top) > limit) {
    throw invalidInput(`$top must be an integer from 0 to ${limit}, not '${top}'.`);
  }
  const n = Number(top);
  return n === 0 ? { maxPageSize: 1, none: true } : { maxPageSize: n, none: false };
}

/** `$select=a,b` of a query string: the properties to return (the core checks the names), or undefined for all. */
export function selection(query: URLSearchParams): string[] | undefined {
  const select = query.get("$select");
  if (select === null || select.trim() === "" || select.trim() === "*") return undefined;
  return select.split(",").map((name) => name.trim());
}
