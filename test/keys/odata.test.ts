import { describe, expect, it } from "vitest";
import { odataString, prefixRange, rangeFilter } from "../../src/keys/index.js";
import { errorCode } from "./arbitraries.js";

describe("rangeFilter", () => {
  it("writes seed 001's starts-with filter", () => {
    expect(rangeFilter("RowKey", prefixRange("B"), { partitionKey: "Sales" })).toBe(
      "PartitionKey eq 'Sales' and RowKey ge 'B' and RowKey lt 'C'",
    );
    expect(rangeFilter("RowKey", prefixRange("email_a"))).toBe("RowKey ge 'email_a' and RowKey lt 'email_b'");
    expect(rangeFilter("PartitionKey", { lower: "a", upper: "b" })).toBe(
      "PartitionKey ge 'a' and PartitionKey lt 'b'",
    );
  });

  it("doubles quotes and leaves out a missing upper bound", () => {
    expect(odataString("O'Brien")).toBe("'O''Brien'");
    expect(rangeFilter("RowKey", prefixRange("O'B"))).toBe("RowKey ge 'O''B' and RowKey lt 'O''C'");
    expect(rangeFilter("RowKey", prefixRange("''"))).toBe("RowKey ge '''''' and RowKey lt '''('");
    expect(rangeFilter("RowKey", prefixRange(""))).toBe("RowKey ge ''");
  });

  it("joins several ranges with or", () => {
    const ranges = [{ lower: "a", upper: "b" }, { lower: "x" }];
    expect(rangeFilter("RowKey", ranges)).toBe("(RowKey ge 'a' and RowKey lt 'b') or (RowKey ge 'x')");
    expect(rangeFilter("RowKey", ranges, { partitionKey: "p" })).toBe(
      "PartitionKey eq 'p' and ((RowKey ge 'a' and RowKey lt 'b') or (RowKey ge 'x'))",
    );
    expect(rangeFilter("RowKey", [ranges[0]!])).toBe("RowKey ge 'a' and RowKey lt 'b'");
  });

  it("rejects what is not a key range", () => {
    expect(errorCode(() => rangeFilter("Name" as "RowKey", { lower: "a" }))).toBe("InvalidInput");
    expect(errorCode(() => rangeFilter("RowKey", []))).toBe("InvalidInput");
    expect(errorCode(() => rangeFilter("RowKey", { upper: "b" } as never))).toBe("InvalidInput");
    expect(errorCode(() => rangeFilter("PartitionKey", { lower: "a" }, { partitionKey: "p" }))).toBe(
      "InvalidInput",
    );
    expect(errorCode(() => odataString(1 as unknown as string))).toBe("InvalidInput");
  });
});
