import { describe, expect, it } from "vitest";
import type { KeyCodec } from "../../src/keys/index.js";
import * as keys from "../../src/keys/index.js";

const codecs: KeyCodec<never, unknown>[] = [
  keys.paddedInt({ max: 999999 }),
  keys.paddedInt({ max: 9, descending: true }),
  keys.paddedBigInt({ max: 10n ** 30n }),
  keys.signedInt(),
  keys.int64(),
  keys.float64(),
  keys.chronologicalTicks(),
  keys.invertedTicks(),
  keys.uniqueTicks(),
  keys.uniqueTicks({ inverted: true }),
  keys.compoundKey(),
  keys.hierarchicalKey({ levels: ["country", "region", "state", "county", "city", "neighborhood"] }),
  keys.hierarchicalKey({ levels: ["tenant"] }),
  keys.versionKey(),
  keys.hashBuckets({ buckets: 16 }),
];

describe("describe()", () => {
  it.each(codecs.map((c) => [c.name, c] as const))("%s shows a real example of its keys", (name, codec) => {
    const { name: described, parameters, example } = codec.describe();
    expect(described).toBe(name);
    expect(typeof parameters).toBe("object");
    expect(codec.encode(example.input as never)).toBe(example.output);
    const back = codec.decode(example.output);
    const reencoded = codec.encode(back as never);
    expect(reencoded).toBe(example.output);
    keys.validateKeyEverywhere("RowKey", example.output);
  });
});
