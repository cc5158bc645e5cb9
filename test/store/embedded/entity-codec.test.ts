import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AZURE_LIMITS,
  DateTime,
  EntityProperties,
  fromTypedValue,
  normalizeEntity,
  sdkValueOf,
  type TypedValue,
  toEntityResult,
  transactionPayloadBound,
  typedProperties,
  writeProperties,
} from "../../../src/model/index.js";
import {
  decodeEntity,
  decodeProperties,
  encodeProperties,
} from "../../../src/store/backends/embedded/table-entity-codec.js";
import { typedValueArb } from "../../support/arbitraries.js";

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

describe("rows written in the SDK's form", () => {
  it("give what sdkValueOf gives of each decoded value, every type and every odd Double", () => {
    const doubles: [string, TypedValue][] = [
      5,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ].map((value, i) => [`d${i}`, { type: "Double", value }]);
    const before1970: [string, TypedValue] = [
      "old",
      { type: "DateTime", value: DateTime.fromTicks(504911232000000001n) },
    ];
    const json = encodeProperties(props([...EVERY_TYPE, ...doubles, before1970]));
    const row = decodeEntity(
      "p",
      "r",
      json,
      639000000000000000n,
      `W/"datetime'2026-11-26T02%3A26%3A36.1234567Z'"`,
    );
    const written: Record<string, unknown> = {};
    writeProperties(row.properties, written, "sdk");
    const expected: Record<string, unknown> = {};
    for (const [name, tv] of decodeProperties(json)) expected[name] = sdkValueOf(tv);
    expect(written).toEqual(expected);
    expect(Object.keys(written)).toEqual(Object.keys(expected));
    expect([written.d0, Object.is(written.d1, -0), written.d2, written.d3, written.d4]).toEqual([
      5,
      true,
      "NaN",
      "Infinity",
      "-Infinity",
    ]);
    expect(written.at).toEqual(new Date(DateTime.fromTicks(638000000000000001n).epochMilliseconds));
    expect(written.old).toEqual(new Date("1601-01-01T00:00:00.000Z"));
    expect(Buffer.isBuffer(written.raw)).toBe(true);
  });
});

describe("rows read as results", () => {
  const ETAG = `W/"datetime'2026-11-26T02%3A26%3A36.1234567Z'"`;
  const read = (json: string) => toEntityResult(decodeEntity("p", "r", json, 639000000000000000n, ETAG));

  it("rows of different shapes, one after another, each read with their own names, as plain objects", () => {
    // Names are matched by position against the last row read: every change of shape must show.
    const rows: [string, Record<string, unknown>][] = [
      ['{"s:a":"x","i:b":1}', { a: "x", b: 1 }],
      ['{"s:a":"y","i:b":2}', { a: "y", b: 2 }],
      ['{"i:b":3,"s:a":"z"}', { b: 3, a: "z" }],
      ['{"b:b":true,"s:a":"w","d:c":0.5}', { b: true, a: "w", c: 0.5 }],
      ['{"s:__proto__":"p","s:a":"v"}', { ["__proto__"]: "p", a: "v" }],
      ["{}", {}],
      ['{"s:a":"u"}', { a: "u" }],
    ];
    for (const [json, properties] of rows) {
      const result = read(json);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(result.constructor).toBe(Object);
      expect(Object.keys(result)).toEqual([
        "partitionKey",
        "rowKey",
        ...Object.keys(properties),
        "etag",
        "timestamp",
      ]);
      expect(Object.entries(result)).toEqual([
        ["partitionKey", "p"],
        ["rowKey", "r"],
        ...Object.entries(properties),
        ["etag", ETAG],
        ["timestamp", "2026-11-26T02:26:36.1234567Z"],
      ]);
    }
  });
});

describe("the core's checked properties (EntityProperties)", () => {
  // A caller's values in every form: plain values whose type is inferred (-0, NaN, integral and
  // Int32-edge numbers among them), and typed ones (annotations, dates, bytes, bigints).
  const plainValue = fc.oneof(
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.boolean(),
    fc.integer({ min: -(2 ** 31) - 2, max: 2 ** 31 + 1 }),
    fc.double(),
    fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53 + 2, 132485911247283150),
  );
  const callerValue = fc.oneof(plainValue, typedValueArb, typedValueArb.map(fromTypedValue));
  const entity = fc
    .dictionary(fc.constantFrom("a", "b", "c", "d", "e", "name", "score"), callerValue)
    .map((d) => ({ partitionKey: "p", rowKey: "r", ...d }));

  it("each name is checked under the rules it is normalized under, whatever the entity before it", () => {
    // Names are matched by position against the last entity normalized: every change must show.
    const short = Object.freeze({ ...AZURE_LIMITS, maxPropertyNameLength: 3 });
    const names = (e: object, limits = AZURE_LIMITS) => [...normalizeEntity(e, limits).properties.keys()];
    const keys = { partitionKey: "p", rowKey: "r" };
    expect(names({ ...keys, abcd: 1 })).toEqual(["abcd"]);
    expect(() => normalizeEntity({ ...keys, abcd: 1 }, short)).toThrow(
      expect.objectContaining({ code: "PropertyNameTooLong" }),
    );
    expect(names({ ...keys, abc: 1 }, short)).toEqual(["abc"]);
    expect(names({ ...keys, abcd: 1 })).toEqual(["abcd"]);
    expect(() => normalizeEntity({ ...keys, "a b": 1 }, AZURE_LIMITS)).toThrow(
      expect.objectContaining({ code: "PropertyNameInvalid" }),
    );
    expect(names({ ...keys, etag: "x", abcd: 1 })).toEqual(["abcd"]);
    expect(names({ ...keys, abcd: 1, etag: "x" })).toEqual(["abcd"]);
    expect(names({ ...keys, timestamp: "x", abcd: 1 })).toEqual(["abcd"]);
    expect(() => normalizeEntity({ ...keys, Timestamp: "x", abcd: 1 }, AZURE_LIMITS)).toThrow(
      expect.objectContaining({ code: "PropertyNameInvalid" }),
    );
    expect(names({ abcd: 1, ...keys })).toEqual(["abcd"]);
  });

  it("only an entity's own names are properties, whatever its prototype or its own names", () => {
    const keys = { partitionKey: "p", rowKey: "r" };
    const names = (e: object) => [...normalizeEntity(e, AZURE_LIMITS).properties.keys()];
    const inheriting = Object.assign(Object.create({ inherited: 1, partitionKey: "no" }), keys, { own: 2 });
    expect(names(inheriting)).toEqual(["own"]);
    expect(names({ ...keys, hasOwnProperty: 3, own: 2 })).toEqual(["hasOwnProperty", "own"]);
    expect(names(Object.assign(Object.create(null), keys, { own: 2 }))).toEqual(["own"]);
    expect(names(inheriting)).toEqual(["own"]);
  });

  it("read as a Map, encode and bound a transaction as the typed values they stand for", () => {
    fc.assert(
      fc.property(entity, (e) => {
        let checked: ReturnType<typeof normalizeEntity>;
        try {
          checked = normalizeEntity(e, AZURE_LIMITS);
        } catch {
          return fc.pre(false); // a DateTime out of the service's range: refused, nothing to compare
        }
        expect(checked.properties).toBeInstanceOf(EntityProperties);
        const asMap = new Map(checked.properties);
        expect([...asMap]).toEqual([...typedProperties(e)]);
        expect(checked.properties.size).toBe(asMap.size);
        expect(encodeProperties(checked.properties)).toBe(encodeProperties(asMap));
        const copy = { partitionKey: "p", rowKey: "r", properties: asMap };
        expect(transactionPayloadBound("T", [{ kind: "create", entity: checked }])).toBe(
          transactionPayloadBound("T", [{ kind: "create", entity: copy }]),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
