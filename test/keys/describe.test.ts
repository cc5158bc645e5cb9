import { describe, expect, it } from "vitest";
import type { KeyCodec } from "../../src/keys/index.js";
import * as keys from "../../src/keys/index.js";
import { DateTime } from "../../src/model/index.js";

const t = DateTime.parse("2010-05-28T00:00:00Z");
const unique = { time: t, counter: 42, node: "0f1e2d3c4b5a" };

/**
 * Each codec with the example it describes and the key it must produce, worked out by hand:
 * 2010-05-28 is 733,919 days of 864,000,000,000 ticks after 0001-01-01; DateTime.MaxValue.Ticks is
 * 3,155,378,975,999,999,999; -1.5 is 0xBFF8000000000000, every bit flipped; fnv1a32 of the hour
 * text is 8 mod 16.
 */
const CASES: [KeyCodec<never, unknown>, unknown, string][] = [
  [keys.paddedInt({ max: 999999 }), 223, "000223"],
  [keys.paddedInt({ max: 9, descending: true }), 9, "0"],
  [keys.paddedBigInt({ max: 10n ** 30n }), 223n, `${"0".repeat(28)}223`],
  [keys.signedInt(), -42, "-9999999999999958"],
  [keys.int64(), -42n, "-9999999999999999958"],
  [keys.float64(), -1.5, "4007ffffffffffff"],
  [keys.chronologicalTicks(), t, "0634106016000000000"],
  [keys.invertedTicks(), t, "2521272959999999999"],
  [keys.uniqueTicks(), unique, "0634106016000000000_00000000002a0f1e2d3c4b5a"],
  [keys.uniqueTicks({ inverted: true }), unique, "2521272959999999999_ffffffffffd50f1e2d3c4b5a"],
  [keys.compoundKey(), ["empid", "000123", "O'Brien"], "empid!000123!O$27Brien!"],
  [
    keys.hierarchicalKey({ levels: ["country", "region", "state", "county", "city", "neighborhood"] }),
    ["us", "wa", "king", "seattle"],
    "us!wa!king!seattle!",
  ],
  [keys.hierarchicalKey({ levels: ["tenant"] }), ["us"], "us!"],
  [keys.versionKey(), { version: 3, item: "Audit" }, "v000003_Audit"],
  [keys.hashBuckets({ buckets: 16 }), "2014-07-31T18", "08_2014-07-31T18"],
];

describe("describe()", () => {
  it.each(CASES.map(([codec, input, key]) => [codec.name, codec, input, key] as const))(
    "%s describes a real example of its keys",
    (name, codec, input, key) => {
      const { name: described, parameters, example } = codec.describe();
      expect(described).toBe(name);
      expect(typeof parameters).toBe("object");
      expect(example.output).toBe(key);
      expect(codec.encode(input as never)).toBe(key);
      expect(codec.encode(codec.decode(key) as never)).toBe(key);
      keys.validateKeyEverywhere("RowKey", key);
    },
  );
});
