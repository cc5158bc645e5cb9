import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { FilterNode } from "../../../src/filter/ast.js";
import { DateTime, type TypedValue } from "../../../src/model/index.js";
import { filterToSql, simplifyFilter } from "../../../src/store/backends/embedded/table-filter-translator.js";

const cmp = (
  property: string,
  op: "eq" | "ne" | "gt" | "ge" | "lt" | "le",
  value: TypedValue,
): FilterNode => ({
  kind: "compare",
  op,
  property,
  value,
  position: 0,
});
const str = (value: string): TypedValue => ({ type: "String", value });

describe("filterToSql builds parameterised SQL without running it", () => {
  it("keeps every literal out of the SQL text", () => {
    const { sql, params } = filterToSql(cmp("Name", "eq", str("x' OR 1=1 --")));
    expect(sql).not.toContain("OR 1=1");
    expect(params).toEqual(['$."s:Name"', "x' OR 1=1 --"]);
  });

  it("reads a property under its type code, so another type finds nothing", () => {
    expect(filterToSql(cmp("Age", "gt", { type: "Int64", value: 5n })).params).toEqual(['$."l:Age"', 5n]);
    expect(filterToSql(cmp("Age", "gt", { type: "Int32", value: 5 })).params).toEqual(['$."i:Age"', 5]);
  });

  it("maps system properties to columns and rejects literals of another type", () => {
    expect(filterToSql(cmp("PartitionKey", "eq", str("p"))).sql).toBe("(pk = ?)");
    expect(filterToSql(cmp("RowKey", "eq", { type: "Int32", value: 1 })).sql).toBe("0");
    const ts = DateTime.parse("2020-01-01T00:00:00Z");
    expect(filterToSql(cmp("Timestamp", "lt", { type: "DateTime", value: ts }))).toEqual({
      sql: "(ts < ?)",
      params: [ts.ticks],
    });
  });

  it("yields 0 or 1, never NULL, so not() of a missing property is true", () => {
    const db = new Database(":memory:");
    const { sql, params } = filterToSql({
      kind: "not",
      operand: cmp("Missing", "ne", { type: "Double", value: 1 }),
    });
    const row = db.prepare(`SELECT ${sql} AS v FROM (SELECT '{}' AS p)`).get(...params) as { v: number };
    expect(row.v).toBe(1);
    db.close();
  });
});

describe("simplifyFilter folds key comparisons a scan range decides", () => {
  const partitionP = {
    pk: { lower: { value: "p", inclusive: true }, upper: { value: "p", inclusive: true } },
    rk: { lower: { value: "a", inclusive: true }, upper: { value: "b", inclusive: false } },
  };

  it("drops what the range implies", () => {
    const prefix: FilterNode = {
      kind: "and",
      left: cmp("PartitionKey", "eq", str("p")),
      right: { kind: "and", left: cmp("RowKey", "ge", str("a")), right: cmp("RowKey", "lt", str("b")) },
    };
    expect(simplifyFilter(prefix, partitionP)).toBe(true);
    expect(simplifyFilter(cmp("PartitionKey", "ne", str("p")), partitionP)).toBe(false);
    expect(simplifyFilter(cmp("RowKey", "gt", str("b")), partitionP)).toBe(false);
    expect(simplifyFilter({ kind: "not", operand: cmp("PartitionKey", "eq", str("q")) }, partitionP)).toBe(
      true,
    );
  });

  it("keeps what the range does not decide", () => {
    const n = cmp("n", "eq", { type: "Int32", value: 1 });
    expect(
      simplifyFilter({ kind: "and", left: cmp("PartitionKey", "eq", str("p")), right: n }, partitionP),
    ).toEqual(n);
    const inside = cmp("RowKey", "gt", str("a5"));
    expect(simplifyFilter(inside, partitionP)).toEqual(inside);
  });
});
