import { describe, expect, it } from "vitest";
import {
  DateTime,
  type NormalizedEntity,
  type TypedValue,
  timestampOfEtag,
  typedValuesEqual,
} from "../../../src/model/index.js";
import {
  decodeEntity,
  entityJson,
  writeResult,
} from "../../../src/store/backends/azure/table-entity-codec.js";
import {
  AzureJsonNumber,
  parseJsonWithNumberText,
} from "../../../src/store/backends/azure/table-json-numbers.js";

const ETAG = `W/"datetime'2026-11-22T02%3A49%3A12.9327936Z'"`;

function entity(properties: [string, TypedValue][]): NormalizedEntity {
  return { partitionKey: "p", rowKey: "r", properties: new Map(properties) };
}

/** What the service sends back for what we wrote: our JSON plus metadata, read as a response. */
function roundTrip(e: NormalizedEntity): Map<string, TypedValue> {
  const written = entityJson(e);
  const response = `{"odata.etag":${JSON.stringify(ETAG)},"Timestamp":"2026-11-22T02:49:12.9327936Z",${written.slice(1)}`;
  return decodeEntity(parseJsonWithNumberText(response) as Record<string, unknown>).properties as Map<
    string,
    TypedValue
  >;
}

describe("azure entity JSON", () => {
  it("annotates every property with its EDM type, in the service's value forms", () => {
    const json = entityJson(
      entity([
        ["s", { type: "String", value: 'a"b' }],
        ["i", { type: "Int32", value: -7 }],
        ["l", { type: "Int64", value: 2n ** 63n - 1n }],
        ["d", { type: "Double", value: 5 }],
        ["n", { type: "Double", value: Number.NaN }],
        ["z", { type: "Double", value: -0 }],
        ["t", { type: "DateTime", value: DateTime.parse("2026-01-02T03:04:05.1234567Z") }],
        ["g", { type: "Guid", value: "3f2504e0-4f89-11d3-9a0c-0305e82c3301" }],
        ["b", { type: "Binary", value: new Uint8Array([0, 1, 255]) }],
        ["__proto__", { type: "Boolean", value: true }],
      ]),
    );
    expect(json).toBe(
      '{"PartitionKey":"p","RowKey":"r","s@odata.type":"Edm.String","s":"a\\"b","i@odata.type":"Edm.Int32","i":-7,' +
        '"l@odata.type":"Edm.Int64","l":"9223372036854775807","d@odata.type":"Edm.Double","d":5.0,' +
        '"n@odata.type":"Edm.Double","n":"NaN","z@odata.type":"Edm.Double","z":-0.0,' +
        '"t@odata.type":"Edm.DateTime","t":"2026-01-02T03:04:05.1234567Z",' +
        '"g@odata.type":"Edm.Guid","g":"3f2504e0-4f89-11d3-9a0c-0305e82c3301",' +
        '"b@odata.type":"Edm.Binary","b":"AAH/","__proto__@odata.type":"Edm.Boolean","__proto__":true}',
    );
  });

  it("reads back exactly what it writes, for every type and edge value", () => {
    const values: [string, TypedValue][] = [
      ["s", { type: "String", value: "über 😀 \u0000" }],
      ["i", { type: "Int32", value: -2147483648 }],
      ["l", { type: "Int64", value: -(2n ** 63n) }],
      ["d1", { type: "Double", value: 5 }],
      ["d2", { type: "Double", value: 1.5 }],
      ["d3", { type: "Double", value: 1e308 }],
      ["d4", { type: "Double", value: 5e-324 }],
      ["d5", { type: "Double", value: Number.NEGATIVE_INFINITY }],
      ["d6", { type: "Double", value: -0 }],
      ["d7", { type: "Double", value: 2 ** 53 + 2 }],
      ["t", { type: "DateTime", value: DateTime.parse("9999-12-31T23:59:59.9999999Z") }],
      ["g", { type: "Guid", value: "3f2504e0-4f89-11d3-9a0c-0305e82c3301" }],
      ["b", { type: "Binary", value: new Uint8Array([]) }],
      ["f", { type: "Boolean", value: false }],
      ["__proto__", { type: "Int32", value: 1 }],
    ];
    const read = roundTrip(entity(values));
    expect([...read.keys()]).toEqual(values.map(([name]) => name));
    for (const [name, tv] of values) expect(typedValuesEqual(read.get(name)!, tv), name).toBe(true);
  });

  it("unannotated numbers: written with a fraction or exponent is Double, otherwise Int32", () => {
    const row = parseJsonWithNumberText(
      `{"PartitionKey":"p","RowKey":"r","odata.etag":${JSON.stringify(ETAG)},"a":5.0,"b":5,"c":1E+21,"d":2147483648,"e":-0}`,
    ) as Record<string, unknown>;
    const props = decodeEntity(row).properties;
    expect(props.get("a")).toEqual({ type: "Double", value: 5 });
    expect(props.get("b")).toEqual({ type: "Int32", value: 5 });
    expect(props.get("c")).toEqual({ type: "Double", value: 1e21 });
    expect(props.get("d")).toEqual({ type: "Double", value: 2147483648 });
    expect(Object.is(props.get("e")!.value, -0)).toBe(true);
    // Without a Timestamp, the one the ETag encodes.
    expect(decodeEntity(row).timestamp.toISOString()).toBe("2026-11-22T02:49:12.9327936Z");
  });

  it("matches numbers to their text, skipping digits inside strings", () => {
    const parsed = parseJsonWithNumberText('{"a1":"x 12.0 \\" 3","b":[1.0,2],"c":{"d":-3e2}}') as {
      a1: string;
      b: AzureJsonNumber[];
      c: { d: AzureJsonNumber };
    };
    expect(parsed.a1).toBe('x 12.0 " 3');
    expect(parsed.b.map((n) => n.text)).toEqual(["1.0", "2"]);
    expect(parsed.c.d).toEqual(new AzureJsonNumber(-300, "-3e2"));
    expect(parsed.b[0]!.isDoubleLiteral).toBe(true);
    expect(parsed.b[1]!.isDoubleLiteral).toBe(false);
  });

  it("an unknown EDM annotation or a missing ETag is BackendError", () => {
    const row = (extra: string) =>
      parseJsonWithNumberText(`{"PartitionKey":"p","RowKey":"r"${extra}}`) as Record<string, unknown>;
    expect(() =>
      decodeEntity(
        row(`,"odata.etag":"x","Timestamp":"2026-01-01T00:00:00Z","a@odata.type":"Edm.Decimal","a":"1"`),
      ),
    ).toThrow(expect.objectContaining({ code: "BackendError" }));
    expect(() => decodeEntity(row(""))).toThrow(expect.objectContaining({ code: "BackendError" }));
  });

  it("the Timestamp of a write is the one its ETag encodes", () => {
    expect(timestampOfEtag(ETAG)?.toISOString()).toBe("2026-11-22T02:49:12.9327936Z");
    expect(timestampOfEtag(`W/"0x8D9"`)).toBeUndefined();
    expect(writeResult(ETAG).timestamp.toISOString()).toBe("2026-11-22T02:49:12.9327936Z");
    const date = "Thu, 01 Jan 2026 00:00:00 GMT";
    expect(writeResult(`W/"0x8D9"`, date).timestamp.toISOString()).toBe("2026-01-01T00:00:00.0000000Z");
    expect(() => writeResult(undefined)).toThrow(expect.objectContaining({ code: "BackendError" }));
  });
});
