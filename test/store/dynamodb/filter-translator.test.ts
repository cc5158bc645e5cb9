import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareUtf8, DateTime, type TypedValue, typedValuesEqual } from "../../../src/model/index.js";
import {
  allOf,
  anyOf,
  DynamoDbExpressionBuilder,
  negate,
} from "../../../src/store/backends/dynamodb/table-expression-builder.js";
import { toDynamoFilter } from "../../../src/store/backends/dynamodb/table-filter-translator.js";
import {
  attributeName,
  decodeAttribute,
  decodeDouble,
  decodeKey,
  encodeDouble,
  encodeKey,
  encodeValue,
} from "../../../src/store/backends/dynamodb/table-item-layout.js";
import { typedValue } from "../../filter/arbitraries.js";
import { comparisonTree } from "../../filter/helpers.js";

const sign = (n: number) => Math.sign(n);

/** Strings of key characters, the escape characters and a few past U+D7FF included. */
const keyString = fc
  .array(fc.constantFrom("", "\u0000", "\u0001", "\u0002", " ", "a", "b", "\ue000", "😀"), { maxLength: 4 })
  .map((parts) => parts.join(""));

function translate(filter: string, context = {}) {
  const b = new DynamoDbExpressionBuilder();
  const result = toDynamoFilter(comparisonTree(filter), b, context);
  const expression = typeof result.condition === "string" ? result.condition : undefined;
  return { ...result, expression, ...b.used(expression) };
}

describe("encodeKey", () => {
  it("maps every key to a non-empty string and back", () => {
    fc.assert(
      fc.property(keyString, (k) => {
        const stored = encodeKey(k);
        expect(stored.length).toBeGreaterThan(0);
        expect(decodeKey(stored)).toBe(k);
      }),
    );
  });

  it("keeps key order (UTF-8, as DynamoDB compares) and adds a byte only where it must", () => {
    fc.assert(
      fc.property(keyString, keyString, (a, b) => {
        expect(sign(compareUtf8(encodeKey(a), encodeKey(b)))).toBe(sign(compareUtf8(a, b)));
      }),
    );
    expect(encodeKey("")).toBe("\u0001");
    expect(encodeKey("abc")).toBe("abc");
    expect(encodeKey(" x")).toBe(" x");
  });
});

describe("encodeDouble", () => {
  it("round-trips every Double exactly, -0 and NaN included", () => {
    fc.assert(
      fc.property(fc.double(), (d) => {
        expect(Object.is(decodeDouble(encodeDouble(d)), d)).toBe(true);
      }),
    );
  });

  it("orders as numbers, -0 just below +0 and NaN above +Infinity", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (a, b) => {
        if (a === b && !Object.is(a, b)) return; // ±0
        expect(sign(compareUtf8(encodeDouble(a), encodeDouble(b)))).toBe(sign(a - b) || 0);
      }),
    );
    const order = [
      Number.NEGATIVE_INFINITY,
      -1e308,
      -5e-324,
      -0,
      0,
      5e-324,
      1,
      Number.POSITIVE_INFINITY,
      Number.NaN,
    ];
    const encoded = order.map(encodeDouble);
    expect([...encoded].sort()).toEqual(encoded);
  });

  it("rejects text that is not 16 lowercase hex digits", () => {
    expect(() => decodeDouble("zz")).toThrow(expect.objectContaining({ code: "BackendError" }));
  });
});

describe("property attributes", () => {
  it("round-trip all eight EDM types through their attribute name and value", () => {
    fc.assert(
      fc.property(typedValue, (tv) => {
        const properties = new Map<string, TypedValue>();
        decodeAttribute(properties, attributeName("p", tv.type), encodeValue(tv));
        expect([...properties.keys()]).toEqual(["p"]);
        expect(typedValuesEqual(properties.get("p")!, tv)).toBe(true);
      }),
    );
  });

  it("keep plain DynamoDB types, adding the type to the name only where those cannot tell it", () => {
    const values: TypedValue[] = [
      { type: "String", value: "x" },
      { type: "Int32", value: 5 },
      { type: "Int64", value: 2n ** 62n },
      { type: "Double", value: 1.5 },
      { type: "Double", value: Number.POSITIVE_INFINITY },
      { type: "DateTime", value: DateTime.parse("2026-01-02T03:04:05.1234567Z") },
    ];
    expect(values.map((tv) => [attributeName("v", tv.type), encodeValue(tv)])).toEqual([
      ["v", { S: "x" }],
      ["v", { N: "5" }],
      ["v@Int64", { N: "4611686018427387904" }],
      ["v@Double", { N: "1.5" }],
      ["v@Double", { S: encodeDouble(Number.POSITIVE_INFINITY) }],
      ["v@DateTime", { S: "2026-01-02T03:04:05.1234567Z" }],
    ]);
  });

  it("refuse attribute shapes tablekit never writes", () => {
    for (const [name, av] of [
      ["p", { N: "1.5" }],
      ["p@Int64", { S: "1" }],
      ["p@Nope", { S: "1" }],
      ["p", { L: [] }],
      ["p@Int32", { N: "1" }],
      ["__proto__@Int32", { S: "1" }],
      // Int32 and Int64 are exactly what tablekit writes: an optional minus and 1..10 (19) digits.
      ["p", { N: "" }],
      ["p", { N: "-" }],
      ["p", { N: "+1" }],
      ["p", { N: "1e3" }],
      ["p", { N: "12345678901" }],
      ["p@Int64", { N: "12345678901234567890" }],
      ["p@Int64", { N: "0x10" }],
      ["p@Int64", { N: " 1" }],
    ] as const) {
      expect(() => decodeAttribute(new Map(), name, av)).toThrow(
        expect.objectContaining({ code: "BackendError" }),
      );
    }
  });
});

describe("conditions", () => {
  it("fold constants", () => {
    expect(allOf(true, "a", true)).toBe("a");
    expect(allOf("a", false)).toBe(false);
    expect(anyOf(false, "a")).toBe("a");
    expect(anyOf("a", true)).toBe(true);
    expect(negate(true)).toBe(false);
    expect(allOf("a", "b")).toBe("a AND b");
    expect(anyOf("a AND b", "c")).toBe("(a AND b) OR c");
  });
});

describe("toDynamoFilter", () => {
  it("reads a typed property under its type's name, so another type never matches", () => {
    const t = translate("Age eq 30");
    expect(t).toMatchObject({ exact: true, expression: "#n0 = :v0" });
    expect(t.ExpressionAttributeNames).toEqual({ "#n0": "Age" });
    expect(t.ExpressionAttributeValues).toEqual({ ":v0": { N: "30" } });
    expect(translate("Age eq 30L").ExpressionAttributeNames).toEqual({ "#n0": "Age@Int64" });
  });

  it("makes ne false for a missing property: a pair of strict comparisons", () => {
    expect(translate("Name ne 'x'").expression).toBe("#n0 < :v0 OR #n0 > :v0");
  });

  it("keeps not two-valued: not (X eq 1) matches an entity without X", () => {
    expect(translate("not (X eq 1)").expression).toBe("NOT (#n0 = :v0)");
  });

  it("decides PartitionKey inside a Query and leaves RowKey to the client", () => {
    expect(translate("PartitionKey eq 'p'", { partitionKey: "p" })).toMatchObject({
      condition: true,
      exact: true,
    });
    expect(translate("PartitionKey eq 'q'", { partitionKey: "p" })).toMatchObject({
      condition: false,
      exact: true,
    });
    expect(translate("RowKey gt 'a' and n eq 1", { partitionKey: "p" })).toMatchObject({
      exact: false,
      expression: "#n0 = :v0",
    });
  });

  it("escapes keys in Scan comparisons as they are stored", () => {
    const t = translate("RowKey eq ''");
    expect(t.expression).toBe("#n0 = :v0");
    expect(t.ExpressionAttributeValues).toEqual({ ":v0": { S: "\u0001" } });
  });

  it("leaves string order past U+D7FF to the client, over-approximating", () => {
    const t = translate("s lt '\ue000'");
    expect(t.exact).toBe(false);
    expect(t.expression).toBe("attribute_type(#n0, :v1)");
    expect(translate("s eq '\ue000'").exact).toBe(true);
    // Under not, the over-approximation of the complement is "no constraint".
    expect(translate("not (s lt '\ue000')")).toMatchObject({ exact: false, condition: true });
  });

  it("translates Boolean order to equality", () => {
    expect(translate("b gt false").expression).toBe("#n0 = :v0");
    expect(translate("b gt false").ExpressionAttributeValues).toEqual({ ":v0": { BOOL: true } });
    expect(translate("b lt false").condition).toBe(false);
    expect(translate("b ge false").expression).toBe("attribute_type(#n0, :v0)");
  });

  it("gives Doubles IEEE semantics over both their stored forms (N, and hex text for the rest)", () => {
    const eq0 = translate("d eq 0.0");
    expect(eq0.expression).toBe("(#n0 >= :v0 AND #n0 <= :v1) OR (#n0 >= :v2 AND #n0 <= :v3)");
    expect(eq0.ExpressionAttributeNames).toEqual({ "#n0": "d@Double" });
    expect(eq0.ExpressionAttributeValues).toMatchObject({
      ":v0": { N: "0" },
      ":v2": { S: encodeDouble(-0) },
      ":v3": { S: encodeDouble(0) },
    });
    // Past what an N holds, only the hex form can match.
    expect(translate("d gt 1e200").expression).toBe("#n0 > :v0 AND #n0 < :v1");
    expect(translate("d eq NaN").condition).toBe(false);
    expect(translate("d ne NaN").expression).toBe("attribute_exists(#n0)");
  });

  it("is false for literals of the wrong type on system properties", () => {
    expect(translate("PartitionKey eq 1").condition).toBe(false);
    expect(translate("Timestamp eq 'x'").condition).toBe(false);
  });

  it("sends only the placeholders the expression uses", () => {
    const t = translate("s lt '\ue000' and n eq 1");
    expect(Object.keys(t.ExpressionAttributeValues ?? {})).toEqual([":v1", ":v2"]);
  });
});
