import { odata as sdkOdata } from "@azure/data-tables";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateFilter, filterToString, odata, parseFilter, where } from "../../src/filter/index.js";
import { DateTime } from "../../src/model/index.js";
import { anyString } from "./arbitraries.js";
import { literalOf } from "./helpers.js";

describe("odata template", () => {
  it("formats each value as a literal of its type", () => {
    expect(odata`Name eq ${"O'Brien"}`).toBe("Name eq 'O''Brien'");
    expect(odata`Age gt ${30}`).toBe("Age gt 30");
    expect(odata`Age gt ${-2147483648}`).toBe("Age gt -2147483648");
    expect(odata`Big gt ${2147483648}`).toBe("Big gt 2147483648.0");
    expect(odata`Price lt ${100.25}`).toBe("Price lt 100.25");
    expect(odata`Price lt ${-0}`).toBe("Price lt -0.0");
    expect(odata`Price lt ${1e21}`).toBe("Price lt 1e+21");
    expect(odata`Price ne ${Number.NaN} and P lt ${Number.POSITIVE_INFINITY}`).toBe(
      "Price ne NaN and P lt INF",
    );
    expect(odata`Id eq ${5n}`).toBe("Id eq 5L");
    expect(odata`Ok eq ${false}`).toBe("Ok eq false");
    expect(odata`T ge ${new Date("2024-05-06T07:08:09.123Z")}`).toBe(
      "T ge datetime'2024-05-06T07:08:09.1230000Z'",
    );
    expect(odata`T ge ${DateTime.parse("2024-05-06T07:08:09.1234567Z")}`).toBe(
      "T ge datetime'2024-05-06T07:08:09.1234567Z'",
    );
    expect(odata`B eq ${new Uint8Array([10, 27])}`).toBe("B eq X'0a1b'");
    expect(odata`G eq ${{ value: "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE", type: "Guid" }}`).toBe(
      "G eq guid'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'",
    );
    expect(odata`D eq ${{ value: 5, type: "Double" }}`).toBe("D eq 5.0");
    expect(odata`L eq ${{ value: "123", type: "Int64" }}`).toBe("L eq 123L");
  });

  it("produces literals the parser reads back as the same typed values", () => {
    expect(literalOf(odata`N eq ${2147483648}`)).toEqual({ type: "Double", value: 2147483648 });
    expect(literalOf(odata`N eq ${0.1}`)).toEqual({ type: "Double", value: 0.1 });
    expect(literalOf(odata`N eq ${-5}`)).toEqual({ type: "Int32", value: -5 });
  });

  it("fills quotes the template already has, as @azure/data-tables does", () => {
    expect(odata`Name eq '${"O'Brien"}'`).toBe("Name eq 'O''Brien'");
    expect(odata`Name eq '${"a"}${"'b"}'`).toBe("Name eq 'a''b'");
    expect(odata`G eq guid'${"aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"}'`).toBe(
      "G eq guid'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'",
    );
    expect(odata`T eq datetime'${new Date(0)}'`).toBe("T eq datetime'1970-01-01T00:00:00.0000000Z'");
    expect(odata`S eq '${30}' and N eq ${30}`).toBe("S eq '30' and N eq 30");
    expect(odata`S eq 'it''s ${"x"}'`).toBe("S eq 'it''s x'");
  });

  it("writes strings exactly as @azure/data-tables' odata does", () => {
    fc.assert(
      fc.property(anyString(), (s) => {
        expect(odata`PartitionKey eq ${s}`).toBe(sdkOdata`PartitionKey eq ${s}`);
        expect(odata`PartitionKey eq '${s}'`).toBe(sdkOdata`PartitionKey eq '${s}'`);
      }),
    );
  });

  it("rejects null and undefined (there is no null literal)", () => {
    expect(() => odata`A eq ${null}`).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(() => odata`A eq ${undefined}`).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(() => odata`A eq ${{ nested: 1 }}`).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
  });

  it("never lets a string change the filter shape: Name eq s is one comparison whose value is s", () => {
    fc.assert(
      fc.property(anyString(40), (s) => {
        for (const text of [odata`Name eq ${s}`, odata`Name eq '${s}'`]) {
          const node = parseFilter(text);
          expect(node).toMatchObject({ kind: "compare", op: "eq", property: "Name" });
          expect(node.kind === "compare" && node.value).toEqual({ type: "String", value: s });
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("never lets hostile strings change the shape", () => {
    for (const s of ["' or 'a' eq 'a", "x') or (A eq 1", "''", "'", "a' or not (B eq 'b"]) {
      const node = parseFilter(odata`Name eq ${s} and Age gt ${1}`);
      expect(node.kind).toBe("and");
      expect(node.kind === "and" && node.left).toMatchObject({ property: "Name", value: { value: s } });
    }
  });
});

describe("odata's typed helpers", () => {
  const doubles = [50.0, 49.5, 51].map((total, i) => ({
    partitionKey: "p",
    rowKey: String(i),
    properties: new Map([["total", { type: "Double", value: total } as const]]),
  }));
  const matching = (filter: string) =>
    doubles.filter((e) => evaluateFilter(parseFilter(filter), e)).map((e) => e.rowKey);

  it("writes a whole-number Double as a Double literal, which matches Doubles where the bare number matches none", () => {
    expect(odata`total gt ${50.0}`).toBe("total gt 50");
    expect(matching(odata`total gt ${50.0}`)).toEqual([]);
    expect(odata`total ge ${odata.double(50)}`).toBe("total ge 50.0");
    expect(matching(odata`total ge ${odata.double(50)}`)).toEqual(["0", "2"]);
    expect(
      odata`x eq ${odata.double(0.5)} or x eq ${odata.double(Number.NaN)} or x eq ${odata.double("7")}`,
    ).toBe("x eq 0.5 or x eq NaN or x eq 7.0");
  });

  it("writes Int64, Guid, DateTime and Binary literals", () => {
    expect(odata`n eq ${odata.int64(5)} and m eq ${odata.int64("-9223372036854775808")}`).toBe(
      "n eq 5L and m eq -9223372036854775808L",
    );
    expect(odata`g eq ${odata.guid("AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE")}`).toBe(
      "g eq guid'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'",
    );
    expect(
      odata`t lt ${odata.dateTime("2024-01-02T03:04:05.1234567Z")} and u lt ${odata.dateTime(new Date(0))}`,
    ).toBe("t lt datetime'2024-01-02T03:04:05.1234567Z' and u lt datetime'1970-01-01T00:00:00.0000000Z'");
    expect(odata`b eq ${odata.binary(new Uint8Array([1, 255]))} and c eq ${odata.binary("AQI=")}`).toBe(
      "b eq X'01ff' and c eq X'0102'",
    );
    // The helpers give the same typed values `where` takes.
    expect(filterToString(where.gt("total", odata.double(50)))).toBe("total gt 50.0");
  });

  it("refuses a value that is not of the type, and an Int64 past its range by one", () => {
    expect(() => odata.double("fifty")).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(() => odata.int64(1.5)).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(() => odata.int64(2n ** 63n)).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(odata`n eq ${odata.int64(2n ** 63n - 1n)}`).toBe("n eq 9223372036854775807L");
    expect(() => odata.guid("not-a-guid")).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(() => odata.dateTime("yesterday")).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
    expect(() => odata.binary("%%")).toThrow(expect.objectContaining({ code: "InvalidValueType" }));
  });
});
