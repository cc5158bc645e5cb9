/** The hint after a query that matched nothing because its whole numbers are Int32 literals. */
import { filterToString, parseFilter } from "../filter/index.js";
import { wholeNumbersAsDoubles } from "../filter/whole-numbers.js";
import type { Table } from "../store/index.js";

/**
 * When `filter` matched nothing and compares properties with whole numbers (Int32 literals, which
 * never equal a Double), reads whether the same filter with those numbers as Doubles matches an
 * entity (one entity at most; the result shown is never changed). If it does, one line saying so.
 */
export async function wholeNumberHint(
  table: Table,
  filter: string | undefined,
  abortSignal?: AbortSignal,
): Promise<string | undefined> {
  if (filter === undefined) return undefined;
  const parsed = parseFilter(filter);
  const all = wholeNumbersAsDoubles(parsed);
  if (!all) return undefined;
  const properties = [...new Set(all.comparisons.map((c) => c.property))];
  // All of them as Doubles, then each property alone (a filter may also compare Int32 properties),
  // a few at most: each try is a query.
  const tries = [
    all,
    ...(properties.length > 1
      ? properties.slice(0, MAX_SINGLE_TRIES).map((p) => wholeNumbersAsDoubles(parsed, new Set([p]))!)
      : []),
  ];
  for (const found of tries) {
    const asDoubles = filterToString(found.asDoubles);
    const entities = table.listEntities({
      queryOptions: { filter: asDoubles, select: [...new Set(found.comparisons.map((c) => c.property))] },
      ...(abortSignal ? { abortSignal } : {}),
    });
    for await (const entity of entities) {
      const holdsDouble = (name: string) => {
        const v = (entity as Record<string, unknown>)[name];
        return (typeof v === "number" && !Number.isInteger(v)) || isAnnotatedDouble(v);
      };
      const c = found.comparisons.find((x) => holdsDouble(x.property)) ?? found.comparisons[0]!;
      return (
        `hint: no entity matched; ${c.property} holds Doubles, and ${c.value} is an Int32 literal, which ` +
        `never matches a Double: write ${c.value}.0 (${asDoubles} matches)`
      );
    }
  }
  return undefined;
}

/** How many properties are tried alone after all of them together. */
const MAX_SINGLE_TRIES = 3;

function isAnnotatedDouble(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as { type?: unknown }).type === "Double";
}
