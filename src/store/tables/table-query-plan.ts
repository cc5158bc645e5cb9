import { type FilterNode, type KeyRange, keyRanges, parseFilter } from "../../filter/index.js";
import { filterProperties } from "../../filter/properties.js";
import {
  compareUtf8,
  compareUtf16,
  isPropertyName,
  type Limits,
  METADATA_NAMES,
  TableKitError,
} from "../../model/index.js";

/** What a query's filter asks of a backend, worked out once per filter text (`planQuery`). */
export interface QueryPlan {
  /** The parsed filter (and the token's key range), absent for every entity. */
  readonly filter?: FilterNode;
  /** The key ranges the filter can match, absent for the whole table, empty when nothing can match. */
  readonly ranges?: readonly KeyRange[];
  /** The custom properties the filter reads. */
  readonly filterNames: readonly string[];
}

/**
 * Plans of filter texts seen lately (at most MAX_PLANS each), by key order, comparison limit and
 * text. A plan is a pure function of those (its objects are never changed), so every table and
 * store shares them: a query repeated with the same text (a log tail, a page of a listing) is
 * parsed and planned once. Looked up by the caller's filter string itself, whose hash V8 keeps in
 * the string, not by a key concatenated (and hashed again) on every query.
 */
const MAX_PLANS = 256;
const plansBySettings = new Map<string, Map<number, Map<string, QueryPlan>>>();

/** Unrestricted queries of every entity. */
const EVERYTHING: QueryPlan = Object.freeze({ filterNames: Object.freeze([]) as readonly string[] });

/** A filter that matches nothing (`$filter=false`): no key range, so nothing is read. */
const NOTHING: QueryPlan = Object.freeze({
  ranges: Object.freeze([]) as readonly KeyRange[],
  filterNames: Object.freeze([]) as readonly string[],
});

/**
 * The plan of a `$filter` text (blank or absent: every entity), parsed under `limits`, its key
 * ranges in `keyOrder`. `restriction` (a token's key range) narrows it: such plans are not kept.
 * A filter that does not parse throws its InvalidFilter error each time; one that is not a string
 * is InvalidInput.
 */
export function planQuery(
  text: unknown,
  limits: Limits,
  keyOrder: "utf16" | "utf8",
  restriction?: FilterNode,
): QueryPlan {
  const filterText = checkFilterText(text);
  if (restriction) {
    const parsed =
      filterText === undefined
        ? undefined
        : parseFilter(filterText, { maxComparisons: limits.maxFilterComparisons });
    if (parsed?.kind === "constant") return parsed.value ? plan(restriction, keyOrder) : NOTHING;
    return plan(parsed ? { kind: "and", left: parsed, right: restriction } : restriction, keyOrder);
  }
  if (filterText === undefined) return EVERYTHING;
  let byLimit = plansBySettings.get(keyOrder);
  if (!byLimit) {
    byLimit = new Map();
    plansBySettings.set(keyOrder, byLimit);
  }
  let byText = byLimit.get(limits.maxFilterComparisons);
  if (!byText) {
    byText = new Map();
    byLimit.set(limits.maxFilterComparisons, byText);
  }
  let found = byText.get(filterText);
  if (!found) {
    const parsed = parseFilter(filterText, { maxComparisons: limits.maxFilterComparisons });
    // `$filter=true` reads everything; `$filter=false` matches nothing and reads nothing.
    found = parsed.kind === "constant" ? (parsed.value ? EVERYTHING : NOTHING) : plan(parsed, keyOrder);
    // The oldest plan goes first. (A hit is not moved to the end: a Map written on every query
    // keeps every query's key alive through young-generation collections.)
    if (byText.size >= MAX_PLANS) byText.delete(byText.keys().next().value!);
    byText.set(filterText, found);
  }
  return found;
}

/** A filter's text, or undefined when it is absent or blank (none); InvalidInput unless a string. */
export function checkFilterText(text: unknown): string | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== "string") {
    throw new TableKitError("InvalidInput", "queryOptions.filter must be a string", {
      details: { filter: typeof text },
    });
  }
  return text.trim() === "" ? undefined : text;
}

function plan(filter: FilterNode, keyOrder: "utf16" | "utf8"): QueryPlan {
  return Object.freeze({
    filter,
    ranges: keyRanges(filter, keyOrder === "utf8" ? compareUtf8 : compareUtf16),
    filterNames: Object.freeze(customProperties(filterProperties(filter))),
  });
}

/** The custom properties among `names` (system and metadata names, and impossible names, removed), each once. */
export function customProperties(names: readonly string[]): string[] {
  return [...new Set(names.filter((name) => isPropertyName(name) && !METADATA_NAMES.has(name)))];
}
