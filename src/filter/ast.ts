import type { TypedValue } from "../model/index.js";

/** The comparison operators of the Table service's `$filter`. */
export type CompareOp = "eq" | "ne" | "gt" | "ge" | "lt" | "le";

/** Each operator as the infix symbol most query languages write it with (`=`, `<>`, …). */
export const INFIX_OPERATORS: Readonly<Record<CompareOp, string>> = {
  eq: "=",
  ne: "<>",
  gt: ">",
  ge: ">=",
  lt: "<",
  le: "<=",
};

/**
 * A parsed `$filter`. Comparisons are normalized so the property is on the left
 * (`30 lt Age` becomes `Age gt 30`). System properties keep their service names:
 * `PartitionKey` and `RowKey` (String) and `Timestamp` (DateTime).
 */
export type FilterNode =
  | { readonly kind: "and" | "or"; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly kind: "not"; readonly operand: FilterNode }
  | {
      readonly kind: "compare";
      readonly op: CompareOp;
      readonly property: string;
      readonly value: TypedValue;
      /** Offset of the comparison in the source text, for messages; -1 for nodes built in code (`where`). */
      readonly position: number;
    };

/**
 * A whole filter that is a constant: `$filter=true` or `$filter=false`. Boolean constants are
 * expressions of the OData grammar (`true and …`, `(false or …)`); the parser folds them away
 * (`true and X` is X, `false or X` is X, `not (true)` is false), so a constant is only ever the
 * whole filter, never a part of a FilterNode.
 */
export interface FilterConstant {
  readonly kind: "constant";
  readonly value: boolean;
}

/** What `parseFilter` returns: a tree of comparisons, or a constant the whole filter folded to. */
export type ParsedFilter = FilterNode | FilterConstant;

/** One end of a range of strings. */
export interface StringBound {
  readonly value: string;
  readonly inclusive: boolean;
}

/** A range of strings; an absent end is unbounded. */
export interface StringRange {
  readonly lower?: StringBound;
  readonly upper?: StringBound;
}

/**
 * A contiguous range of the (PartitionKey, RowKey) key space that a query must read:
 * - `partitions`: every row whose PartitionKey lies in `pk` (RowKey unconstrained);
 * - `rows`: rows of the single partition `pk` whose RowKey lies in `rk`.
 * A query plan is a list of ranges, sorted in key order and pairwise disjoint, whose union covers
 * every row the filter can match (the filter itself is still applied to each row).
 */
export type KeyRange =
  | { readonly kind: "partitions"; readonly pk: StringRange }
  | { readonly kind: "rows"; readonly pk: string; readonly rk: StringRange };
