import type { KeyCodec, KeyInterval } from "./codec.js";
import { invalidInput, isDigits, outOfRange, requireString } from "./errors.js";
import { prefixSuccessor } from "./prefix-range.js";
import { checkEmbeddable } from "./validate.js";

/** A version of an item: 0 is the latest copy, 1, 2, … its history. */
export interface VersionedKey {
  readonly version: number;
  /** What follows the version prefix (seed 004: `v0_Audit`); written as is, default "". */
  readonly item?: string;
}

export interface VersionKeyOptions {
  /** Digits of a history version (2-15, default 6: versions 1-999999). */
  readonly digits?: number;
}

/** A codec for `v0_` / `v000001_` version keys; see `versionKey`. */
export interface VersionKeyCodec extends KeyCodec<VersionedKey, Required<VersionedKey>> {
  readonly digits: number;
  readonly maxVersion: number;
  /** `v0_<item>`: the key of the latest copy. */
  latest(item?: string): string;
  /** Every latest copy (`v0_…`). */
  latestRange(): KeyInterval;
  /**
   * Every history key (`v000001_…` and up), in key order. Two intervals, because `v0_` sorts
   * between `v099999_` and `v100000_`; a partition holding only version keys can instead be read
   * whole and the `v0_` copy skipped, as the seed does.
   */
  historyRanges(): readonly KeyInterval[];
}

const PREFIX = "v";
const SEPARATOR = "_";
const LATEST = `${PREFIX}0${SEPARATOR}`;

/**
 * Version history in one partition (seed 004): the latest copy under `v0_<item>`, and every
 * revision under `v<version, zero-padded>_<item>` so version 10 sorts after version 9.
 * `versionKey().encode({ version: 3, item: "Audit" })` is `"v000003_Audit"`; `latest("Audit")`
 * is `"v0_Audit"`. The item is written as is (no `/ \ # ?` or control characters: OutOfRangeInput).
 */
export function versionKey(options: VersionKeyOptions = {}): VersionKeyCodec {
  const name = "versionKey";
  const digits = options.digits ?? 6;
  if (!Number.isInteger(digits) || digits < 2 || digits > 15) {
    throw invalidInput(name, `digits must be an integer from 2 to 15, got ${digits}`);
  }
  const maxVersion = 10 ** digits - 1;
  const encode = ({ version, item = "" }: VersionedKey): string => {
    if (typeof version !== "number" || !Number.isInteger(version)) {
      throw invalidInput(name, `version must be an integer, got ${String(version)}`);
    }
    if (version < 0 || version > maxVersion) {
      throw outOfRange(name, `version ${version} is outside 0..${maxVersion}`, { value: version });
    }
    checkEmbeddable(name, "the item", item);
    const prefix = version === 0 ? LATEST : `${PREFIX}${String(version).padStart(digits, "0")}${SEPARATOR}`;
    return prefix + item;
  };
  const codec: VersionKeyCodec = {
    name,
    digits,
    maxVersion,
    encode(value) {
      if (typeof value !== "object" || value === null) throw invalidInput(name, "expected { version, item }");
      return encode(value);
    },
    decode(key) {
      requireString(name, key);
      if (key.startsWith(LATEST))
        return { version: 0, item: checkEmbeddable(name, "the item", key.slice(LATEST.length)) };
      const number = key.slice(PREFIX.length, PREFIX.length + digits);
      const version = Number(number);
      if (
        !key.startsWith(PREFIX) ||
        !isDigits(number) ||
        number.length !== digits ||
        version === 0 ||
        key[PREFIX.length + digits] !== SEPARATOR
      ) {
        throw invalidInput(
          name,
          `expected v0_<item> or v<${digits} digits>_<item>, got ${JSON.stringify(key)}`,
        );
      }
      const item = key.slice(PREFIX.length + digits + 1);
      checkEmbeddable(name, "the item", item);
      return { version, item };
    },
    latest: (item = "") => encode({ version: 0, item }),
    latestRange: () => ({ lower: LATEST, upper: prefixSuccessor(LATEST)! }),
    historyRanges() {
      const first = `${PREFIX}${"1".padStart(digits, "0")}${SEPARATOR}`; // v000001_
      const aboveLatest = `${PREFIX}1${"0".repeat(digits - 1)}${SEPARATOR}`; // v100000_
      const last = `${PREFIX}${"9".repeat(digits)}${SEPARATOR}`; // v999999_
      return [
        { lower: first, upper: LATEST },
        { lower: aboveLatest, upper: prefixSuccessor(last)! },
      ];
    },
    describe: () => {
      const input = { version: 3, item: "Audit" };
      return {
        name,
        parameters: { digits, maxVersion, latest: LATEST },
        example: { input, output: encode(input) },
      };
    },
  };
  return codec;
}
