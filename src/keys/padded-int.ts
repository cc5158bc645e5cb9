import type { CodecDescription, KeyCodec } from "./codec.js";
import { invalidInput, isDigits, outOfRange, requireString } from "./errors.js";

/** Options of the padded-integer codecs (seeds 000 and 003). */
export interface PaddedIntOptions<T extends number | bigint> {
  /** The largest value a key will ever hold: it fixes the width (`999999` → 6 digits). */
  readonly max: T;
  /** Pad to this many digits instead (at least the digits of `max`), e.g. 10 as in `ToString("0000000000")`. */
  readonly width?: number;
  /** Write `max - n` instead of `n`, so larger values sort first (newest first for growing ids, seed 003). */
  readonly descending?: boolean;
}

/** A padded-integer codec: fixed-width decimal digits, so string order is numeric order. */
export interface PaddedIntCodec<T extends number | bigint> extends KeyCodec<T> {
  readonly max: T;
  readonly width: number;
  readonly descending: boolean;
}

/**
 * Non-negative safe integers as fixed-width decimal keys: `paddedInt({ max: 999999 }).encode(223)`
 * is `"000223"`, so 9 sorts before 10. Throws OutOfRangeInput for values below 0 or above `max`,
 * InvalidInput for anything that is not an integer number.
 */
export function paddedInt(options: PaddedIntOptions<number>): PaddedIntCodec<number> {
  const name = "paddedInt";
  const { max } = options;
  if (typeof max !== "number" || !Number.isSafeInteger(max) || max < 0) {
    throw invalidInput(name, `max must be a non-negative safe integer, got ${String(max)}`);
  }
  const width = resolveWidth(name, String(max).length, options.width);
  const descending = options.descending === true;
  const codec: PaddedIntCodec<number> = {
    name,
    max,
    width,
    descending,
    encode(n: number): string {
      if (typeof n !== "number" || !Number.isInteger(n)) {
        throw invalidInput(name, `expected an integer, got ${String(n)}`);
      }
      if (n < 0 || n > max) throw outOfRange(name, `${n} is outside 0..${max}`, { value: n, max });
      // `+ 0` turns -0 into 0, whose digits are "0".
      return String(descending ? max - n : n + 0).padStart(width, "0");
    },
    decode(key: string): number {
      requireString(name, key);
      if (key.length !== width || !isDigits(key)) {
        throw invalidInput(name, `expected ${width} digits, got ${JSON.stringify(key)}`);
      }
      const stored = Number(key);
      if (stored > max) throw invalidInput(name, `${key} is above the maximum ${max}`);
      return descending ? max - stored : stored;
    },
    describe: () => describePadded(codec, Math.min(223, max)),
  };
  return codec;
}

/**
 * Non-negative bigints as fixed-width decimal keys, for ranges past `Number.MAX_SAFE_INTEGER`
 * (`paddedBigInt({ max: 2n ** 64n - 1n })` writes 20 digits).
 */
export function paddedBigInt(options: PaddedIntOptions<bigint>): PaddedIntCodec<bigint> {
  const name = "paddedBigInt";
  const { max } = options;
  if (typeof max !== "bigint" || max < 0n) {
    throw invalidInput(name, `max must be a non-negative bigint, got ${String(max)}`);
  }
  const width = resolveWidth(name, max.toString().length, options.width);
  const descending = options.descending === true;
  const codec: PaddedIntCodec<bigint> = {
    name,
    max,
    width,
    descending,
    encode(n: bigint): string {
      if (typeof n !== "bigint") throw invalidInput(name, `expected a bigint, got ${typeof n}`);
      if (n < 0n || n > max) throw outOfRange(name, `${n} is outside 0..${max}`, { value: n, max });
      return (descending ? max - n : n).toString().padStart(width, "0");
    },
    decode(key: string): bigint {
      requireString(name, key);
      if (key.length !== width || !isDigits(key)) {
        throw invalidInput(name, `expected ${width} digits, got ${JSON.stringify(key)}`);
      }
      const stored = BigInt(key);
      if (stored > max) throw invalidInput(name, `${key} is above the maximum ${max}`);
      return descending ? max - stored : stored;
    },
    describe: () => describePadded(codec, max < 223n ? max : 223n),
  };
  return codec;
}

function resolveWidth(name: string, maxDigits: number, width: number | undefined): number {
  if (width === undefined) return maxDigits;
  if (!Number.isInteger(width) || width < maxDigits || width > 1000) {
    throw invalidInput(
      name,
      `width must be an integer from ${maxDigits} (the digits of max) to 1000, got ${width}`,
    );
  }
  return width;
}

function describePadded<T extends number | bigint>(codec: PaddedIntCodec<T>, sample: T): CodecDescription {
  return {
    name: codec.name,
    parameters: { max: codec.max, width: codec.width, descending: codec.descending },
    example: { input: sample, output: codec.encode(sample) },
  };
}
