/**
 * The `$filter` language of the Azure Table service: parse it (with positioned errors), evaluate
 * it with the service's typed semantics, derive the key ranges it can match, print it back, and
 * build it safely from values (`odata` template, `where` builder). See docs/filter.md.
 */
export type * from "./ast.js";
export { comparison, where } from "./builder.js";
export { formatFilterError } from "./errors.js";
export {
  compareTyped,
  compileFilter,
  evaluateFilter,
  type FilterableEntity,
  type FilterPredicate,
} from "./evaluate.js";
export { keyRangeContains, keyRanges } from "./key-ranges.js";
export { formatLiteral } from "./literals.js";
export { odata } from "./odata.js";
export {
  DEFAULT_MAX_COMPARISONS,
  DEFAULT_MAX_FILTER_LENGTH,
  type ParseFilterOptions,
  parseFilter,
} from "./parser.js";
export { countComparisons, filtersEqual, filterToString, isFilterPropertyName } from "./print.js";
