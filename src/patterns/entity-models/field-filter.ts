import type { CompareOp } from "../../filter/index.js";
import { comparison, filterToString } from "../../filter/index.js";
import { TableKitError } from "../../model/index.js";
import type { FieldInput, Fields } from "../shared/schema/field.js";

type Compare<F extends Fields> = <K extends keyof F & string>(field: K, value: FieldInput<F[K]>) => string;

/**
 * `$filter` comparisons of a model's fields, each value written as its field's EDM type: a
 * `double()` field compared with 50 gets `50.0`, which matches the Doubles it stores (a bare `50`
 * is an Int32 literal and matches none), an `int64()` gets `50L`.
 *
 * @example Order.filter.gt("total", 50) // "total gt 50.0"
 */
export type FieldFilter<F extends Fields> = { readonly [Op in CompareOp]: Compare<F> };

const OPS: readonly CompareOp[] = ["eq", "ne", "gt", "ge", "lt", "le"];

/** The comparisons of `fields` (InvalidInput for a name that is not a field; the field's own checks for values). */
export function fieldFilter<F extends Fields>(fields: F): FieldFilter<F> {
  const make =
    (op: CompareOp): Compare<F> =>
    (name, value) => {
      const f = Object.hasOwn(fields, name) ? fields[name] : undefined;
      if (!f) {
        throw new TableKitError("InvalidInput", `'${name}' is not a field of this model`, {
          details: { field: name },
        });
      }
      return filterToString(comparison(name, op, f.write(name, value)));
    };
  return Object.fromEntries(OPS.map((op) => [op, make(op)])) as FieldFilter<F>;
}
