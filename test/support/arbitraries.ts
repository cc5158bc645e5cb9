import fc from "fast-check";
import { DateTime, MAX_TICKS, type TypedValue } from "../../src/model/index.js";

/** Any value of each EDM type, edges included (NaN, ±Infinity, -0, the ends of every range). */
export const typedValueArb: fc.Arbitrary<TypedValue> = fc.oneof(
  fc.string({ unit: "grapheme" }).map((value) => ({ type: "String", value }) as const),
  fc.integer().map((value) => ({ type: "Int32", value: value === 0 ? 0 : value }) as const),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((value) => ({ type: "Int64", value }) as const),
  fc.double().map((value) => ({ type: "Double", value }) as const),
  fc.boolean().map((value) => ({ type: "Boolean", value }) as const),
  fc
    .bigInt({ min: 0n, max: MAX_TICKS })
    .map((t) => ({ type: "DateTime", value: DateTime.fromTicks(t) }) as const),
  fc.uuid().map((value) => ({ type: "Guid", value }) as const),
  fc.uint8Array({ maxLength: 64 }).map((value) => ({ type: "Binary", value }) as const),
);
