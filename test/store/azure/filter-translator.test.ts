import { describe, expect, it } from "vitest";
import { compileFilter, parseFilter } from "../../../src/filter/index.js";
import { DateTime, type TypedValue } from "../../../src/model/index.js";
import {
  ENTITY_KEYS,
  serverFilter,
  TABLE_NAME,
} from "../../../src/store/backends/azure/table-filter-translator.js";
import { comparisonTree } from "../../filter/helpers.js";

const azurite = { emulator: true, stringProperties: ENTITY_KEYS };
const service = { emulator: false, stringProperties: ENTITY_KEYS };
const sent = (text: string, options = azurite) => serverFilter(comparisonTree(text), options);

describe("azure server filter", () => {
  it("sends key, String, Int32, Boolean and Guid comparisons unchanged", () => {
    for (const text of [
      "PartitionKey eq 'p' and RowKey ge 'a'",
      "v eq 'x' or n gt 5",
      "b eq true",
      "g eq guid'3f2504e0-4f89-11d3-9a0c-0305e82c3301'",
    ]) {
      expect(sent(text)).toBe(text);
      expect(sent(text, service)).toBe(text);
    }
  });

  it("widens DateTime bounds to whole milliseconds, inclusive; keeps eq; drops a bound past the maximum", () => {
    expect(sent("d gt datetime'2026-01-01T00:00:00.0001234Z'")).toBe(
      "d ge datetime'2026-01-01T00:00:00.0000000Z'",
    );
    expect(sent("d ge datetime'2026-01-01T00:00:00.0010000Z'")).toBe(
      "d ge datetime'2026-01-01T00:00:00.0010000Z'",
    );
    expect(sent("d lt datetime'2026-01-01T00:00:00.0001234Z'")).toBe(
      "d le datetime'2026-01-01T00:00:00.0010000Z'",
    );
    expect(sent("Timestamp le datetime'2026-01-01T00:00:00.0020000Z'")).toBe(
      "Timestamp le datetime'2026-01-01T00:00:00.0020000Z'",
    );
    expect(sent("d eq datetime'2026-01-01T00:00:00.0001234Z'")).toBe(
      "d eq datetime'2026-01-01T00:00:00.0001234Z'",
    );
    expect(sent("d lt datetime'9999-12-31T23:59:59.9999999Z'")).toBeUndefined();
    // The service compares exactly; the widened bound is still a superset there.
    expect(sent("d gt datetime'2026-01-01T00:00:00.0001234Z'", service)).toBe(
      "d ge datetime'2026-01-01T00:00:00.0000000Z'",
    );
  });

  it("against Azurite, evaluates on the client what Azurite gets wrong; against the service, only NaN/INF", () => {
    expect(sent("n eq 5L and PartitionKey eq 'p'")).toBe("PartitionKey eq 'p'");
    expect(sent("n eq 5L", service)).toBe("n eq 5L");
    expect(sent("b gt X'00ff'")).toBeUndefined();
    expect(sent("b eq X'00ff'")).toBe("b eq X'00ff'");
    expect(sent("d ne 1.5")).toBeUndefined();
    expect(sent("d ne 1.5", service)).toBe("d ne 1.5");
    expect(sent("d eq NaN or d lt INF", service)).toBeUndefined();
    expect(sent("d lt 1e300")).toBeUndefined();
    expect(sent("d lt 1e300", service)).toBe("d lt 1e+300");
  });

  it("under `not`, Azurite keeps only key comparisons; a double negation cancels", () => {
    expect(sent("not (v eq 5) and PartitionKey eq 'p'")).toBe("PartitionKey eq 'p'");
    expect(sent("not (RowKey lt 'm')")).toBe("not (RowKey lt 'm')");
    expect(sent("not (v eq 5)", service)).toBe("not (v eq 5)");
    expect(sent("not (not (v eq true))")).toBe("v eq true");
    // Widening under `not` means narrowing the operand: `not (true)` would be too narrow.
    expect(sent("not (v ne 1.5 or RowKey eq 'a')")).toBe("not (RowKey eq 'a')");
  });

  it("a key compared with a non-String literal is false; a filter that is false needs no request", () => {
    expect(sent("PartitionKey eq 5")).toBe(false);
    expect(sent("PartitionKey eq 5 or v eq 'x'")).toBe("v eq 'x'");
    expect(sent("not (PartitionKey eq 5)")).toBeUndefined();
    expect(
      serverFilter(comparisonTree("TableName eq 'abc'"), { emulator: true, stringProperties: TABLE_NAME }),
    ).toBe("TableName eq 'abc'");
  });

  it("the server filter matches a superset of the exact filter (random filters, mixed types)", () => {
    const values: TypedValue[] = [
      { type: "Int32", value: 5 },
      { type: "Int64", value: 5n },
      { type: "Double", value: 5 },
      { type: "Double", value: Number.NaN },
      { type: "String", value: "5" },
      { type: "Boolean", value: true },
      { type: "DateTime", value: DateTime.parse("2026-01-01T00:00:00.0001000Z") },
      { type: "Binary", value: new Uint8Array([0, 1]) },
    ];
    const literals = [
      "5",
      "5L",
      "5.0",
      "'5'",
      "true",
      "datetime'2026-01-01T00:00:00.0000500Z'",
      "X'0001'",
      "NaN",
    ];
    const ops = ["eq", "ne", "gt", "ge", "lt", "le"];
    let seed = 42;
    const pick = <T>(xs: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return xs[seed % xs.length]!;
    };
    const comparison = () => `v ${pick(ops)} ${pick(literals)}`;
    const entities = values.map((v, i) => ({
      partitionKey: "p",
      rowKey: `r${i}`,
      properties: new Map([["v", v]]),
    }));
    for (let i = 0; i < 300; i++) {
      const text = pick([
        () => comparison(),
        () => `not (${comparison()})`,
        () => `${comparison()} and not (${comparison()} or ${comparison()})`,
        () => `not (${comparison()} and ${comparison()}) or ${comparison()}`,
      ])();
      const exact = compileFilter(parseFilter(text));
      for (const options of [azurite, service]) {
        const widened = serverFilter(comparisonTree(text), options);
        if (widened === undefined) continue;
        // A false server filter must mean the exact filter matches nothing.
        const server = widened === false ? () => false : compileFilter(parseFilter(widened));
        for (const e of entities) if (exact(e)) expect(server(e), `${text} → ${widened}`).toBe(true);
      }
    }
  });
});
