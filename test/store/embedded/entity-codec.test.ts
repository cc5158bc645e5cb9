import { describe, expect, it } from "vitest";
import { DateTime, type TypedValue } from "../../../src/model/index.js";
import {
  decodeProperties,
  encodeProperties,
} from "../../../src/store/backends/embedded/table-entity-codec.js";

const props = (entries: [string, TypedValue][]) => new Map(entries);

const EVERY_TYPE: [string, TypedValue][] = [
  ["name", { type: "String", value: 'a"\\\u2028é' }],
  ["age", { type: "Int32", value: -7 }],
  ["big", { type: "Int64", value: -(2n ** 63n) }],
  ["score", { type: "Double", value: 0.25 }],
  ["active", { type: "Boolean", value: false }],
  ["at", { type: "DateTime", value: DateTime.fromTicks(638000000000000001n) }],
  ["id", { type: "Guid", value: "0f8fad5b-d9cb-469f-a165-70867728950e" }],
  ["raw", { type: "Binary", value: Uint8Array.of(0, 15, 255) }],
];
const EVERY_TYPE_JSON =
  '{"s:name":"a\\"\\\\\u2028é","i:age":-7,"l:big":"-9223372036854775808","d:score":0.25,"b:active":false,' +
  '"t:at":"638000000000000001","g:id":"0f8fad5b-d9cb-469f-a165-70867728950e","x:raw":"000fff"}';

describe("embedded entity codec", () => {
  it("writes each type under its code, as SQLite compares it", () => {
    expect(encodeProperties(props(EVERY_TYPE))).toBe(EVERY_TYPE_JSON);
  });

  it("writes a Double JSON would not read as REAL in its own form, the rest alike", () => {
    for (const [value, text] of [
      [5, "5.0"],
      [-0, "-0.0"],
      [Number.NaN, "null"],
      [Number.POSITIVE_INFINITY, "1e999"],
      [Number.NEGATIVE_INFINITY, "-1e999"],
      [132485911247283150, "132485911247283150.0"],
    ] as const) {
      const encoded = encodeProperties(props([...EVERY_TYPE, ["d", { type: "Double", value }]]));
      expect(encoded).toBe(`${EVERY_TYPE_JSON.slice(0, -1)},"d:d":${text}}`);
      expect(Object.is(decodeProperties(encoded).get("d")?.value, value)).toBe(true);
    }
  });
});
