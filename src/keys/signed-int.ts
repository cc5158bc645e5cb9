import type { KeyCodec } from "./codec.js";
import { invalidInput, isDigits, outOfRange, requireString } from "./errors.js";

/*
 * Signed integers as fixed-width keys whose string order is numeric order. A non-negative value is
 * '0' followed by its zero-padded digits; a negative value n is '-' followed by the nines'
 * complement of |n| - 1 (that is, 10^digits + n), so -1 is '-999…9' and sorts last among the
 * negatives, and '-' (0x2D) sorts before '0' (0x30). Every key of a codec has the same length.
 */

const SAFE_DIGITS = 16;
const HALF = 100_000_000;
const INT64_DIGITS = 19;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MODULUS = 10n ** 19n;

function parseSigned(name: string, key: string, digits: number): { negative: boolean; body: string } {
  requireString(name, key);
  const sign = key[0];
  const body = key.slice(1);
  if (key.length !== digits + 1 || (sign !== "-" && sign !== "0") || !isDigits(body)) {
    throw invalidInput(name, `expected '0' or '-' then ${digits} digits, got ${JSON.stringify(key)}`);
  }
  return { negative: sign === "-", body };
}

/**
 * Safe integers (±(2^53 - 1)) as 17-character keys: `signedInt().encode(-42)` is
 * `"-9999999999999958"`, `encode(42)` is `"00000000000000042"`. -0 is written (and read back) as 0.
 */
export function signedInt(): KeyCodec<number> {
  const name = "signedInt";
  const codec: KeyCodec<number> = {
    name,
    encode(n: number): string {
      if (typeof n !== "number" || !Number.isInteger(n)) {
        throw invalidInput(name, `expected an integer, got ${String(n)}`);
      }
      if (!Number.isSafeInteger(n)) {
        throw outOfRange(name, `${n} is outside ±Number.MAX_SAFE_INTEGER`, { value: n });
      }
      if (n >= 0) return `0${String(n + 0).padStart(SAFE_DIGITS, "0")}`;
      // 10^16 - |n| in two 8-digit halves: 10^16 itself is past 2^53, the halves stay exact.
      const m = -n;
      const high = Math.floor(m / HALF);
      const low = m % HALF;
      const first = low === 0 ? HALF - high : HALF - high - 1;
      const second = low === 0 ? 0 : HALF - low;
      return `-${String(first).padStart(8, "0")}${String(second).padStart(8, "0")}`;
    },
    decode(key: string): number {
      const { negative, body } = parseSigned(name, key, SAFE_DIGITS);
      let magnitude = Number(body);
      if (negative) {
        const first = Number(body.slice(0, 8));
        const second = Number(body.slice(8));
        magnitude = second === 0 ? (HALF - first) * HALF : (HALF - first - 1) * HALF + (HALF - second);
      }
      if (magnitude > Number.MAX_SAFE_INTEGER) {
        throw invalidInput(name, `${JSON.stringify(key)} is outside ±Number.MAX_SAFE_INTEGER`);
      }
      return negative ? -magnitude : magnitude;
    },
    describe: () => ({
      name,
      parameters: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, width: SAFE_DIGITS + 1 },
      example: { input: -42, output: codec.encode(-42) },
    }),
  };
  return codec;
}

/**
 * .NET/EDM Int64 values (bigint, -2^63 .. 2^63 - 1) as 20-character keys:
 * `int64().encode(-1n)` is `"-9999999999999999999"`, `encode(1n)` is `"00000000000000000001"`.
 */
export function int64(): KeyCodec<bigint> {
  const name = "int64";
  const codec: KeyCodec<bigint> = {
    name,
    encode(n: bigint): string {
      if (typeof n !== "bigint") throw invalidInput(name, `expected a bigint, got ${typeof n}`);
      if (n < INT64_MIN || n > INT64_MAX) {
        throw outOfRange(name, `${n} is outside ${INT64_MIN}..${INT64_MAX}`, { value: n });
      }
      return n < 0n
        ? `-${(INT64_MODULUS + n).toString().padStart(INT64_DIGITS, "0")}`
        : `0${n.toString().padStart(INT64_DIGITS, "0")}`;
    },
    decode(key: string): bigint {
      const { negative, body } = parseSigned(name, key, INT64_DIGITS);
      const value = negative ? BigInt(body) - INT64_MODULUS : BigInt(body);
      if (value < INT64_MIN || value > INT64_MAX) {
        throw invalidInput(name, `${JSON.stringify(key)} is outside the Int64 range`);
      }
      return value;
    },
    describe: () => ({
      name,
      parameters: { min: INT64_MIN, max: INT64_MAX, width: INT64_DIGITS + 1 },
      example: { input: -42n, output: codec.encode(-42n) },
    }),
  };
  return codec;
}
