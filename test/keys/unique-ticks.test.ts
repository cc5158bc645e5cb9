import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chronologicalTicks, invertedTicks, MAX_UNIQUE_COUNTER, uniqueTicks } from "../../src/keys/index.js";
import { DateTime } from "../../src/model/index.js";
import { cmp, errorCode, RUNS, sign } from "./arbitraries.js";

const MAX_TICKS = 3155378975999999999n;

describe("uniqueTicks", () => {
  it("keeps keys made in one millisecond distinct and in creation order", () => {
    const codec = uniqueTicks();
    const sameMillisecond = new Date("2010-05-28T00:00:00Z");
    const keys = Array.from({ length: 5000 }, () => codec.next(sameMillisecond));
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(keys);
    expect(keys[0]!.slice(0, 19)).toBe(chronologicalTicks().encode(sameMillisecond));
    expect(codec.decode(keys[0]!).time.toDate()).toEqual(sameMillisecond);
  });

  it("puts the newest first for inverted keys, within one tick too", () => {
    const codec = uniqueTicks({ inverted: true });
    const at = DateTime.parse("2010-05-28T00:00:00Z");
    const keys = Array.from({ length: 5000 }, () => codec.next(at));
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...keys].reverse());
    expect(keys[0]!.startsWith("2521272959999999999_")).toBe(true);
    expect(keys[0]!.slice(0, 19)).toBe(invertedTicks().encode(at));
  });

  it("orders keys made with the default clock by creation", () => {
    const chronological = uniqueTicks();
    const inverted = uniqueTicks({ inverted: true });
    const forward = Array.from({ length: 2000 }, () => chronological.next());
    const backward = Array.from({ length: 2000 }, () => inverted.next());
    expect([...forward].sort()).toEqual(forward);
    expect([...backward].sort()).toEqual(backward.reverse());
  });

  it("shares one counter between every codec of the process", () => {
    const a = uniqueTicks({ node: "same" });
    const b = uniqueTicks({ node: "same" });
    const at = new Date(0);
    const keys = [a.next(at), b.next(at), a.next(at), b.next(at)];
    expect(new Set(keys).size).toBe(4);
    expect([...keys].sort()).toEqual(keys);
  });

  it("draws a different random node in another process", () => {
    const module = fileURLToPath(new URL("../../src/keys/index.ts", import.meta.url));
    const script = `import { uniqueTicks } from ${JSON.stringify(module)}; console.log(uniqueTicks().node);`;
    const other = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
    }).trim();
    expect(other).toMatch(/^[0-9a-f]{12}$/);
    expect(uniqueTicks().node).toMatch(/^[0-9a-f]{12}$/);
    expect(other).not.toBe(uniqueTicks().node);
  });

  it("takes counters up to 2^48 - 1 and nodes of 1-32 safe characters", () => {
    const codec = uniqueTicks();
    const time = DateTime.MIN;
    expect(codec.encode({ time, counter: MAX_UNIQUE_COUNTER, node: "n" })).toBe(
      "0000000000000000000_ffffffffffffn",
    );
    expect(errorCode(() => codec.encode({ time, counter: MAX_UNIQUE_COUNTER + 1, node: "n" }))).toBe(
      "OutOfRangeInput",
    );
    expect(errorCode(() => codec.encode({ time, counter: -1, node: "n" }))).toBe("OutOfRangeInput");
    expect(errorCode(() => codec.encode({ time, counter: 0.5, node: "n" }))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode({ time, counter: 0, node: "x".repeat(32) }))).toBe("no error");
    expect(errorCode(() => codec.encode({ time, counter: 0, node: "x".repeat(33) }))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode({ time, counter: 0, node: "" }))).toBe("InvalidInput");
    expect(errorCode(() => codec.encode({ time, counter: 0, node: "a#b" }))).toBe("InvalidInput");
    expect(errorCode(() => uniqueTicks({ node: "a/b" }))).toBe("InvalidInput");
    for (const bad of [
      "0000000000000000000-ffffffffffffn",
      "0000000000000000000_fffffffffffn",
      "0000000000000000000_ffffffffffff",
      "3155378976000000000_000000000000n",
    ]) {
      expect(errorCode(() => codec.decode(bad))).toBe("InvalidInput");
    }
  });

  const partsArb = fc.record({
    ticks: fc.oneof(
      fc.bigInt({ min: 0n, max: MAX_TICKS }),
      fc.constantFrom(0n, MAX_TICKS, 634106016000000000n),
    ),
    counter: fc.oneof(fc.integer({ min: 0, max: MAX_UNIQUE_COUNTER }), fc.integer({ min: 0, max: 3 })),
  });

  it.each([false, true])("round-trips and sorts by (time, counter), inverted: %s", (inverted) => {
    const codec = uniqueTicks({ inverted });
    const node = fc.stringMatching(/^[0-9A-Za-z_-]{1,32}$/);
    fc.assert(
      fc.property(partsArb, partsArb, node, (a, b, n) => {
        const ka = codec.encode({ time: DateTime.fromTicks(a.ticks), counter: a.counter, node: n });
        const kb = codec.encode({ time: DateTime.fromTicks(b.ticks), counter: b.counter, node: n });
        const back = codec.decode(ka);
        expect([back.time.ticks, back.counter, back.node]).toEqual([a.ticks, a.counter, n]);
        const expected = a.ticks !== b.ticks ? sign(a.ticks - b.ticks) : sign(a.counter - b.counter);
        expect(cmp(ka, kb)).toBe(inverted ? sign(-expected) : expected);
      }),
      RUNS,
    );
  });
});
