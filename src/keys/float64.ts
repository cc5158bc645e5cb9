import type { KeyCodec } from "./codec.js";
import { invalidInput, requireString } from "./errors.js";

/** Options of the double codec. */
export interface Float64Options {
  /**
   * What to do with NaN. `"last"` (the default) writes one canonical NaN key, `fff8000000000000`,
   * which sorts after +Infinity; every NaN decodes back to NaN. `"reject"` throws InvalidInput.
   */
  readonly nan?: "last" | "reject";
}

/** The key of NaN: the canonical quiet NaN 0x7ff8000000000000 with its sign bit flipped. */
const NAN_KEY = "fff8000000000000";
const SIGN = 0x80000000;
/** Two hex digits for each byte value: formatting by table is several times faster than toString(16). */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
const hex32 = (n: number) =>
  BYTE_HEX[n >>> 24]! + BYTE_HEX[(n >>> 16) & 0xff]! + BYTE_HEX[(n >>> 8) & 0xff]! + BYTE_HEX[n & 0xff]!;

/** The value of 8 lowercase hex digits at `start`, or -1 if any is not one. */
function parseHex32(key: string, start: number): number {
  let n = 0;
  for (let i = start; i < start + 8; i++) {
    const c = key.charCodeAt(i);
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return -1;
    n = n * 16 + d;
  }
  return n;
}

/**
 * Doubles as 16 lowercase hex digits whose string order is numeric order (FoundationDB's and
 * CockroachDB's float encoding, printed): take the IEEE 754 bits big-endian; if the sign bit is set
 * flip every bit, else flip only the sign bit. -Infinity < negatives < -0 < +0 < positives <
 * +Infinity (< NaN); -0 and +0 get distinct keys, and decoding is bit-exact.
 */
export function float64(options: Float64Options = {}): KeyCodec<number> {
  const name = "float64";
  const nan = options.nan ?? "last";
  if (nan !== "last" && nan !== "reject") throw invalidInput(name, `nan must be "last" or "reject"`);
  const view = new DataView(new ArrayBuffer(8));
  const codec: KeyCodec<number> = {
    name,
    encode(x: number): string {
      if (typeof x !== "number") throw invalidInput(name, `expected a number, got ${typeof x}`);
      if (Number.isNaN(x)) {
        if (nan === "reject") throw invalidInput(name, "NaN has no key (options.nan is 'reject')");
        return NAN_KEY;
      }
      view.setFloat64(0, x);
      let hi = view.getUint32(0);
      let lo = view.getUint32(4);
      if (hi & SIGN) {
        hi = ~hi >>> 0;
        lo = ~lo >>> 0;
      } else {
        hi = (hi | SIGN) >>> 0;
      }
      return hex32(hi) + hex32(lo);
    },
    decode(key: string): number {
      requireString(name, key);
      let hi = key.length === 16 ? parseHex32(key, 0) : -1;
      let lo = hi < 0 ? -1 : parseHex32(key, 8);
      if (lo < 0) throw invalidInput(name, `expected 16 lowercase hex digits, got ${JSON.stringify(key)}`);
      if (hi & SIGN) {
        hi = (hi ^ SIGN) >>> 0;
      } else {
        hi = ~hi >>> 0;
        lo = ~lo >>> 0;
      }
      view.setUint32(0, hi);
      view.setUint32(4, lo);
      const x = view.getFloat64(0);
      // Only the canonical NaN key is ever written; any other NaN bit pattern is not a key of ours.
      if (Number.isNaN(x) && (key !== NAN_KEY || nan === "reject")) {
        throw invalidInput(name, `${JSON.stringify(key)} is not a key this codec writes (a NaN pattern)`);
      }
      return x;
    },
    describe: () => ({
      name,
      parameters: { nan, width: 16 },
      example: { input: -1.5, output: codec.encode(-1.5) },
    }),
  };
  return codec;
}
