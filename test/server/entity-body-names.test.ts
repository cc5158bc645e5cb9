import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TableKitError } from "../../src/model/index.js";
import { parseEntityJson } from "../../src/server/tables/entity-body.js";

/** Property names and values full of what a name counter could trip on: quotes, backslashes, colons. */
const tricky = fc.string({
  unit: fc.constantFrom('"', "\\", ":", " ", "a", "x", ",", "{", "\n"),
  maxLength: 8,
});

function duplicated(text: () => unknown): boolean {
  try {
    text();
    return false;
  } catch (err) {
    if (err instanceof TableKitError && err.code === "DuplicatePropertiesSpecified") return true;
    throw err;
  }
}

describe("entity bodies: a property written twice", () => {
  it("is found whatever the strings around it hold, and only then", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(tricky, tricky), { selector: ([name]) => name, maxLength: 6 }),
        (pairs) => {
          const props = pairs.filter(([name]) => name !== "__proto__");
          const members = props.map(([name, value]) => `${JSON.stringify(name)} : ${JSON.stringify(value)}`);
          const once = `{${members.join(",")}}`;
          expect(duplicated(() => parseEntityJson(once))).toBe(false);
          if (props.length > 0) {
            const twice = `{${[...members, `${JSON.stringify(props[0]![0])}:"again"`].join(",")}}`;
            expect(duplicated(() => parseEntityJson(twice))).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
