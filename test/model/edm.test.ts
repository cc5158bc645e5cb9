import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AZURE_LIMITS,
  entitySize,
  fromTypedValue,
  normalizeEntity,
  toTypedValue,
  typedValuesEqual,
  utf8ItemSize,
} from "../../src/model/index.js";
import { typedValueArb } from "../support/arbitraries.js";

describe("EDM values", () => {
  it("infers types from plain JS values as the service infers unannotated JSON", () => {
    expect(toTypedValue("a", 5)).toEqual({ type: "Int32", value: 5 });
    expect(toTypedValue("a", 5.5)).toEqual({ type: "Double", value: 5.5 });
    expect(toTypedValue("a", 2 ** 31)).toEqual({ type: "Double", value: 2 ** 31 });
    expect(toTypedValue("a", -0)).toEqual({ type: "Double", value: -0 });
    expect(toTypedValue("a", Number.NaN)).toEqual({ type: "Double", value: Number.NaN });
    expect(toTypedValue("a", 5n)).toEqual({ type: "Int64", value: 5n });
    expect(toTypedValue("a", { value: "9223372036854775807", type: "Int64" })).toEqual({
      type: "Int64",
      value: 9223372036854775807n,
    });
    expect(toTypedValue("a", { value: 5, type: "Double" })).toEqual({ type: "Double", value: 5 });
    expect(toTypedValue("a", null)).toBeUndefined();
    expect(toTypedValue("a", { value: "ABCDEF00-0000-0000-0000-000000000000", type: "Guid" })).toEqual({
      type: "Guid",
      value: "abcdef00-0000-0000-0000-000000000000",
    });
    expect(toTypedValue("a", new Date(0))?.type).toBe("DateTime");
  });

  it("rejects values that are not valid for their annotated type", () => {
    const bad: [string, unknown][] = [
      ["Int32", 2 ** 31],
      ["Int32", 1.5],
      ["Int64", "9223372036854775808"],
      ["Int64", 1.5],
      ["Guid", "not-a-guid"],
      // A number's text past a Double's range is not ±Infinity (those are written "Infinity", "-INF").
      ["Double", "1e400"],
      ["Double", "-1.8e308"],
      ["Binary", "***"],
      ["DateTime", "yesterday"],
      ["Boolean", 1],
      ["String", 5],
    ];
    for (const [type, value] of bad) {
      expect(() => toTypedValue("p", { type, value } as never), `${type} ${String(value)}`).toThrow(
        expect.objectContaining({ code: "InvalidValueType" }),
      );
    }
  });

  it("reading a value and writing it back never changes its type or value", () => {
    fc.assert(
      fc.property(typedValueArb, (tv) => {
        const back = toTypedValue("p", fromTypedValue(tv) as never);
        expect(back && typedValuesEqual(back, tv)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });

  it("measures entities with the service's size formula", () => {
    const e = normalizeEntity(
      {
        partitionKey: "pk",
        rowKey: "rk",
        s: "abc",
        i: 1,
        b: true,
        g: { type: "Guid", value: "00000000-0000-0000-0000-000000000000" },
      },
      AZURE_LIMITS,
    );
    // 4 + 2*4 + (8+2+4+6) + (8+2+4) + (8+2+1) + (8+2+16)
    expect(entitySize(e)).toBe(4 + 8 + 20 + 14 + 11 + 26);
  });
});

describe("utf8ItemSize (DynamoDB's item measure)", () => {
  it("counts names and values in UTF-8 and fixed sizes for numbers, dates and guids", () => {
    const e = normalizeEntity(
      {
        partitionKey: "é",
        rowKey: "r",
        s: "😀",
        x: new Uint8Array(3),
        n: 1,
        t: new Date(0),
        g: { type: "Guid", value: "00000000-0000-0000-0000-000000000000" },
        b: false,
      },
      AZURE_LIMITS,
    );
    // 18 (key names) + 2 + 1 (keys) + (1+4) + (1+3) + (1+21) + (1+28) + (1+36) + (1+1)
    expect(utf8ItemSize(e)).toBe(18 + 3 + 5 + 4 + 22 + 29 + 37 + 2);
  });

  it("is enforced only when a backend declares maxItemBytes, at the limit and one past", () => {
    const entity = { partitionKey: "p", rowKey: "r", s: "a".repeat(100) };
    const size = utf8ItemSize(normalizeEntity(entity, AZURE_LIMITS));
    expect(normalizeEntity(entity, { ...AZURE_LIMITS, maxItemBytes: size }).rowKey).toBe("r");
    expect(() => normalizeEntity(entity, { ...AZURE_LIMITS, maxItemBytes: size - 1 })).toThrow(
      expect.objectContaining({ code: "EntityTooLarge" }),
    );
  });
});
