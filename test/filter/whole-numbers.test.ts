import { describe, expect, it } from "vitest";
import { filterToString, parseFilter } from "../../src/filter/index.js";
import { wholeNumbersAsDoubles } from "../../src/filter/whole-numbers.js";

describe("wholeNumbersAsDoubles", () => {
  it("rewrites each Int32 literal as a Double, under and, or and not, and lists them", () => {
    const found = wholeNumbersAsDoubles(
      parseFilter("Score gt 9990 and (Age lt 3 or not (N eq -1)) and Big eq 5L and R eq 2.5"),
    );
    expect(found?.comparisons).toEqual([
      { property: "Score", value: 9990 },
      { property: "Age", value: 3 },
      { property: "N", value: -1 },
    ]);
    expect(filterToString(found!.asDoubles)).toBe(
      "Score gt 9990.0 and (Age lt 3.0 or not (N eq -1.0)) and Big eq 5L and R eq 2.5",
    );
  });

  it("rewrites only the properties asked, and finds nothing to do without Int32 literals", () => {
    const only = wholeNumbersAsDoubles(parseFilter("Age gt 30 and Score gt 9990"), new Set(["Score"]));
    expect(filterToString(only!.asDoubles)).toBe("Age gt 30 and Score gt 9990.0");
    expect(wholeNumbersAsDoubles(parseFilter("Score gt 9990.0 and Name eq 'x'"))).toBeUndefined();
    expect(wholeNumbersAsDoubles(parseFilter("true"))).toBeUndefined();
  });
});
